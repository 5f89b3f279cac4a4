package dev.machinery.builtins;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.ScaleSpec;
import dev.machinery.unversioned.meta.v1.ScaleStatus;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@code scale} subresource of Deployments, ReplicaSets, StatefulSets and
 * ReplicationControllers, as kube-apiserver's: {@code spec.replicas}, {@code status.replicas}, and
 * the pod selector written as a label selector string. Stateless; thread-safe.
 */
final class ReplicasScale implements ScaleAccessor<Unstructured> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Scale read(Unstructured object) {
    Scale scale = new Scale();
    scale.setMetadata(new ObjectMeta());
    ScaleSpec spec = new ScaleSpec();
    spec.setReplicas((int) JsonTrees.number(object.content(), 0, "spec", "replicas"));
    scale.setSpec(spec);
    ScaleStatus status = new ScaleStatus();
    status.setReplicas((int) JsonTrees.number(object.content(), 0, "status", "replicas"));
    String selector = selector(JsonTrees.map(object.content(), "spec", "selector"));
    if (selector != null) {
      status.setSelector(selector);
    }
    scale.setStatus(status);
    return scale;
  }

  @Override
  public void write(Unstructured object, Scale scale) {
    long replicas = scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
    JsonTrees.child(object.content(), "spec").put("replicas", replicas);
  }

  /**
   * A LabelSelector ({@code matchLabels}, {@code matchExpressions}) as selector text; a
   * ReplicationController's plain label map as {@code key=value} pairs.
   */
  private static String selector(Map<String, Object> selector) {
    if (selector == null) {
      return null;
    }
    if (selector.containsKey("matchLabels") || selector.containsKey("matchExpressions")) {
      return LabelSelectors.toSelector(JSON.convertValue(selector, LabelSelector.class)).toString();
    }
    return new TreeMap<>(selector)
        .entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(","));
  }
}
