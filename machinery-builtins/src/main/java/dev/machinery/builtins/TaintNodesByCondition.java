package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code TaintNodesByCondition} plugin: a created Node gets the taint {@code
 * node.kubernetes.io/not-ready:NoSchedule} unless it has one of that key and effect, so nothing is
 * scheduled on it before its conditions say it is ready. Immutable and thread-safe.
 */
final class TaintNodesByCondition implements MutatingAdmissionPlugin {
  static final String NAME = "TaintNodesByCondition";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE;
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty()
        || !attributes.resource().equals(GroupResource.of("", "nodes"))) {
      return attributes.object();
    }
    Map<String, Object> spec =
        JsonTrees.child(((Unstructured) attributes.object()).content(), "spec");
    for (Map<String, Object> taint : JsonTrees.maps(spec, "taints")) {
      if (DefaultTolerationSeconds.NOT_READY.equals(taint.get("key"))
          && "NoSchedule".equals(taint.get("effect"))) {
        return attributes.object();
      }
    }
    List<Object> taints =
        spec.get("taints") instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
    Map<String, Object> taint = new LinkedHashMap<>();
    taint.put("key", DefaultTolerationSeconds.NOT_READY);
    taint.put("effect", "NoSchedule");
    taints.add(taint);
    spec.put("taints", taints);
    return attributes.object();
  }
}
