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
 * kube-apiserver's {@code DefaultTolerationSeconds} plugin: a Pod that does not tolerate the {@code
 * NoExecute} taints {@code node.kubernetes.io/not-ready} and {@code node.kubernetes.io/unreachable}
 * gets a toleration of each for 300 seconds ({@code --default-not-ready-toleration-seconds}, {@code
 * --default-unreachable-toleration-seconds}). A toleration with no key, or no effect, counts as
 * tolerating them. Immutable and thread-safe.
 */
final class DefaultTolerationSeconds implements MutatingAdmissionPlugin {
  static final String NAME = "DefaultTolerationSeconds";
  static final String NOT_READY = "node.kubernetes.io/not-ready";
  static final String UNREACHABLE = "node.kubernetes.io/unreachable";

  private final long notReadySeconds;
  private final long unreachableSeconds;

  DefaultTolerationSeconds(long notReadySeconds, long unreachableSeconds) {
    this.notReadySeconds = notReadySeconds;
    this.unreachableSeconds = unreachableSeconds;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    if (!attributes.resource().equals(GroupResource.of("", "pods"))
        || !attributes.subresource().isEmpty()) {
      return attributes.object();
    }
    Map<String, Object> pod = ((Unstructured) attributes.object()).content();
    Map<String, Object> spec = JsonTrees.child(pod, "spec");
    List<Map<String, Object>> tolerations = JsonTrees.maps(spec, "tolerations");
    boolean notReady = false;
    boolean unreachable = false;
    for (Map<String, Object> toleration : tolerations) {
      String key = JsonTrees.string(toleration, "", "key");
      String effect = JsonTrees.string(toleration, "", "effect");
      boolean noExecute = effect.isEmpty() || effect.equals("NoExecute");
      notReady |= noExecute && (key.isEmpty() || key.equals(NOT_READY));
      unreachable |= noExecute && (key.isEmpty() || key.equals(UNREACHABLE));
    }
    if (notReady && unreachable) {
      return attributes.object();
    }
    List<Object> next =
        spec.get("tolerations") instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
    if (!notReady) {
      next.add(toleration(NOT_READY, notReadySeconds));
    }
    if (!unreachable) {
      next.add(toleration(UNREACHABLE, unreachableSeconds));
    }
    spec.put("tolerations", next);
    return attributes.object();
  }

  private static Map<String, Object> toleration(String key, long seconds) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("key", key);
    t.put("operator", "Exists");
    t.put("effect", "NoExecute");
    t.put("tolerationSeconds", seconds);
    return t;
  }
}
