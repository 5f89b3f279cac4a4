package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import java.util.List;
import java.util.Map;

/**
 * Where the default plugins hand what a write earns besides a refusal: warnings for the client
 * ({@code Warning} headers, as kube-apiserver's admission warnings) and annotations for its audit
 * event ({@code pod-security.kubernetes.io/enforce-policy}, ...). Implementations are thread-safe.
 */
interface AdmissionResults {
  /**
   * Records what one plugin decided of one write.
   *
   * @param attributes the write
   * @param warnings the warnings, in order
   * @param auditAnnotations the audit annotations, without the plugin's key prefix
   */
  void record(
      AdmissionAttributes attributes, List<String> warnings, Map<String, String> auditAnnotations);
}
