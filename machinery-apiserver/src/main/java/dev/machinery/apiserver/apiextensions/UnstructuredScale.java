package dev.machinery.apiserver.apiextensions;

import dev.machinery.apiserver.apiextensions.v1.CustomResourceSubresourceScale;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.ScaleSpec;
import dev.machinery.unversioned.meta.v1.ScaleStatus;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.List;

/**
 * A custom resource's {@code scale} subresource, read from and written to the paths its
 * CustomResourceDefinition names. Immutable; thread-safe.
 */
final class UnstructuredScale implements ScaleAccessor<Unstructured> {
  private final List<String> specReplicas;
  private final List<String> statusReplicas;
  private final List<String> labelSelector;

  UnstructuredScale(CustomResourceSubresourceScale scale) {
    this.specReplicas = JsonPath.parse(scale.specReplicasPath()).fields();
    this.statusReplicas = JsonPath.parse(scale.statusReplicasPath()).fields();
    this.labelSelector =
        scale.labelSelectorPath() == null
            ? null
            : JsonPath.parse(scale.labelSelectorPath()).fields();
  }

  @Override
  public Scale read(Unstructured object) {
    Scale scale = new Scale();
    scale.setMetadata(new ObjectMeta());
    ScaleSpec spec = new ScaleSpec();
    spec.setReplicas(number(object, specReplicas));
    scale.setSpec(spec);
    ScaleStatus status = new ScaleStatus();
    status.setReplicas(number(object, statusReplicas));
    if (labelSelector != null) {
      object
          .nested(labelSelector.toArray(String[]::new))
          .filter(String.class::isInstance)
          .ifPresent(s -> status.setSelector((String) s));
    }
    scale.setStatus(status);
    return scale;
  }

  @Override
  public void write(Unstructured object, Scale scale) {
    long replicas = scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
    object.setNested(replicas, specReplicas.toArray(String[]::new));
  }

  private static int number(Unstructured object, List<String> path) {
    return object
        .nested(path.toArray(String[]::new))
        .filter(Number.class::isInstance)
        .map(n -> ((Number) n).intValue())
        .orElse(0);
  }
}
