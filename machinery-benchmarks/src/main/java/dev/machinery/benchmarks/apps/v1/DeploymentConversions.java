package dev.machinery.benchmarks.apps.v1;

import dev.machinery.benchmarks.apps.internal.RollbackConfig;
import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hand-written conversions of {@code Deployment} and {@code DeploymentSpec}, as in Kubernetes'
 * apps/v1: v1 has no {@code spec.rollbackTo}, so the internal form's rollback request travels in
 * the annotation {@value #ROLLBACK_TO} of a v1 object.
 */
public final class DeploymentConversions {
  /** The annotation that carries {@code spec.rollbackTo.revision} in apps/v1. */
  public static final String ROLLBACK_TO = "deprecated.deployment.rollback.to";

  private DeploymentConversions() {}

  /**
   * Converts a v1 Deployment to the internal form, reading the rollback annotation.
   *
   * @param in the v1 object, or {@code null}
   * @param scope the scope
   * @return the internal object
   */
  public static dev.machinery.benchmarks.apps.internal.Deployment
      convertV1DeploymentToInternalDeployment(Deployment in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    dev.machinery.benchmarks.apps.internal.Deployment out =
        GeneratedConversions.autoConvertV1DeploymentToInternalDeployment(in, scope);
    ObjectMeta meta = out.getMetadata();
    Map<String, String> annotations = meta == null ? null : meta.getAnnotations();
    String revision = annotations == null ? null : annotations.get(ROLLBACK_TO);
    if (revision != null) {
      if (out.getSpec() != null) {
        RollbackConfig rollback = new RollbackConfig();
        try {
          rollback.setRevision(Long.parseLong(revision));
        } catch (NumberFormatException e) {
          throw scope
              .fail("annotation " + ROLLBACK_TO + " is \"" + revision + "\", not a revision number")
              .within("annotations")
              .within("metadata");
        }
        out.getSpec().setRollbackTo(rollback);
      }
      Map<String, String> rest = new LinkedHashMap<>(annotations);
      rest.remove(ROLLBACK_TO);
      meta.setAnnotations(rest);
    }
    return out;
  }

  /**
   * Converts an internal Deployment to v1, writing the rollback request as an annotation.
   *
   * @param in the internal object, or {@code null}
   * @param scope the scope
   * @return the v1 object
   */
  public static Deployment convertInternalDeploymentToV1Deployment(
      dev.machinery.benchmarks.apps.internal.Deployment in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    Deployment out = GeneratedConversions.autoConvertInternalDeploymentToV1Deployment(in, scope);
    RollbackConfig rollback = in.getSpec() == null ? null : in.getSpec().getRollbackTo();
    if (rollback != null) {
      ObjectMeta meta = out.getMetadata() == null ? new ObjectMeta() : out.getMetadata();
      Map<String, String> annotations =
          meta.getAnnotations() == null
              ? new LinkedHashMap<>()
              : new LinkedHashMap<>(meta.getAnnotations());
      annotations.put(ROLLBACK_TO, Long.toString(rollback.getRevision()));
      meta.setAnnotations(annotations);
      out.setMetadata(meta);
    }
    return out;
  }

  /**
   * Converts an internal DeploymentSpec to v1; {@code rollbackTo} is carried by the Deployment's
   * annotation, see {@link #convertInternalDeploymentToV1Deployment}.
   *
   * @param in the internal spec, or {@code null}
   * @param scope the scope
   * @return the v1 spec
   */
  // rollbackTo is written by the enclosing Deployment's conversion, into its annotation.
  @ConvertsProperties("rollbackTo")
  public static DeploymentSpec convertInternalDeploymentSpecToV1DeploymentSpec(
      dev.machinery.benchmarks.apps.internal.DeploymentSpec in, ConversionScope scope) {
    return GeneratedConversions.autoConvertInternalDeploymentSpecToV1DeploymentSpec(in, scope);
  }
}
