package dev.machinery.apiserver.admission;

/**
 * Where an admission plugin leaves what it tells about the current write besides its outcome, as
 * kube-apiserver's warning recorder and {@code Attributes.AddAnnotation}: warnings, sent to the
 * client as {@code Warning} headers, and audit annotations, written to the request's audit event.
 * Plugins reach it through {@link AdmissionAttributes#addWarning} and {@link
 * AdmissionAttributes#addAuditAnnotation}; the server hands each write's attributes the recorder of
 * its request, which also carries the admission webhooks' warnings and annotations.
 *
 * <p>Implementations are thread-safe: validating plugins and webhooks may record at once.
 */
public interface AdmissionRecorder {
  /**
   * A recorder that keeps nothing, for attributes made outside a request (a plugin evaluated on its
   * own). Thread-safe.
   */
  AdmissionRecorder NONE =
      new AdmissionRecorder() {
        @Override
        public void warning(String warning) {}

        @Override
        public void annotate(String key, String value) {}
      };

  /**
   * Adds a warning for the response; one already given is not repeated.
   *
   * @param warning the text
   */
  void warning(String warning);

  /**
   * Adds an annotation to the request's audit event; the first value of a key stays.
   *
   * @param key the key, such as {@code pod-security.kubernetes.io/enforce-policy}
   * @param value the value
   */
  void annotate(String key, String value);
}
