package dev.machinery.apiserver.registry;

import dev.machinery.apiserver.admission.AdmissionRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What admission tells about one write besides its outcome, as kube-apiserver's warning recorder
 * and audit annotations: warnings for the response's {@code Warning} headers and annotations for
 * the request's audit event, from admission plugins (through {@link
 * dev.machinery.apiserver.admission.AdmissionAttributes#addWarning} and {@link
 * dev.machinery.apiserver.admission.AdmissionAttributes#addAuditAnnotation}) and from admission
 * webhooks. A handler gives one to the store with the write and reads it after. Thread-safe:
 * validating webhooks add to it at once.
 */
public final class AdmissionNotes implements AdmissionRecorder {
  private final List<String> warnings = new ArrayList<>();
  private final Map<String, String> annotations = new LinkedHashMap<>();

  /** Creates empty notes. */
  public AdmissionNotes() {}

  /**
   * Adds a warning; one already given is not repeated.
   *
   * @param warning the text
   */
  @Override
  public synchronized void warning(String warning) {
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  /**
   * Adds an audit annotation; the first value of a key stays, as kube-apiserver keeps it.
   *
   * @param key the key
   * @param value the value
   */
  @Override
  public synchronized void annotate(String key, String value) {
    annotations.putIfAbsent(key, value);
  }

  /**
   * The warnings, in the order given.
   *
   * @return a copy
   */
  public synchronized List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * The audit annotations, in the order given.
   *
   * @return a copy
   */
  public synchronized Map<String, String> annotations() {
    return new LinkedHashMap<>(annotations);
  }
}
