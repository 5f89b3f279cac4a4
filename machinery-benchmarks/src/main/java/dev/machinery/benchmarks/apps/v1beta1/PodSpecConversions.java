package dev.machinery.benchmarks.apps.v1beta1;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;

/**
 * The hand-written conversions of {@code PodSpec}, as in Kubernetes' core/v1: the deprecated {@code
 * serviceAccount} fills an empty {@code serviceAccountName} on the way in, and mirrors it on the
 * way out.
 */
public final class PodSpecConversions {
  private PodSpecConversions() {}

  /**
   * Converts a {@code PodSpec} to the internal form.
   *
   * @param in the spec, or {@code null}
   * @param scope the scope
   * @return the internal spec
   */
  @ConvertsProperties("serviceAccount")
  public static dev.machinery.benchmarks.apps.internal.PodSpec
      convertV1beta1PodSpecToInternalPodSpec(PodSpec in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    dev.machinery.benchmarks.apps.internal.PodSpec out =
        GeneratedConversions.autoConvertV1beta1PodSpecToInternalPodSpec(in, scope);
    if (out.getServiceAccountName() == null || out.getServiceAccountName().isEmpty()) {
      out.setServiceAccountName(in.getServiceAccount());
    }
    return out;
  }

  /**
   * Converts an internal {@code PodSpec} to this version.
   *
   * @param in the internal spec, or {@code null}
   * @param scope the scope
   * @return the spec
   */
  public static PodSpec convertInternalPodSpecToV1beta1PodSpec(
      dev.machinery.benchmarks.apps.internal.PodSpec in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    PodSpec out = GeneratedConversions.autoConvertInternalPodSpecToV1beta1PodSpec(in, scope);
    out.setServiceAccount(in.getServiceAccountName());
    return out;
  }
}
