package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * kube-apiserver's {@code RuntimeClass} plugin: a created Pod naming a {@code runtimeClassName}
 * that does not exist is refused ({@code pod rejected: RuntimeClass "NAME" not found}); one whose
 * class has an {@code overhead} gets it as {@code spec.overhead} (refused when it gives another);
 * one whose class has {@code scheduling} gets its node selector (refused on a conflicting value)
 * and its tolerations (those it does not have); a Pod with an overhead its class does not define is
 * refused. Thread-safe once initialized.
 */
final class RuntimeClassAdmission implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  static final String NAME = "RuntimeClass";
  private static final GroupResource PODS = GroupResource.of("", "pods");

  private final Loopback loopback = new Loopback();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  private static boolean ignored(AdmissionAttributes a) {
    return !a.subresource().isEmpty() || !a.resource().equals(PODS);
  }

  /** The pod's RuntimeClass, or null when it names none. */
  private Map<String, Object> runtimeClass(Map<String, Object> spec) {
    Object name = spec == null ? null : spec.get("runtimeClassName");
    if (name == null) {
      return null;
    }
    return loopback
        .get("/apis/node.k8s.io/v1/runtimeclasses/" + name)
        .orElseThrow(
            () ->
                new AdmissionException(
                    "pod rejected: RuntimeClass "
                        + PodSecurityChecks.goQuote(String.valueOf(name))
                        + " not found"));
  }

  @Override
  public Object admit(AdmissionAttributes a) {
    if (ignored(a)) {
      return a.object();
    }
    Map<String, Object> spec = JsonTrees.child(((Unstructured) a.object()).content(), "spec");
    Map<String, Object> runtimeClass = runtimeClass(spec);
    if (runtimeClass == null) {
      return a.object();
    }
    Map<String, Object> overhead = JsonTrees.map(runtimeClass, "overhead", "podFixed");
    if (JsonTrees.get(runtimeClass, "overhead") != null) {
      Map<String, Object> given = JsonTrees.map(spec, "overhead");
      if (given != null && !given.isEmpty() && !sameQuantities(given, overhead)) {
        throw new AdmissionException(
            "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
      if (overhead == null) {
        spec.remove("overhead");
      } else {
        spec.put("overhead", new LinkedHashMap<>(overhead));
      }
    }
    Map<String, Object> scheduling = JsonTrees.map(runtimeClass, "scheduling");
    if (scheduling != null) {
      Map<String, Object> selector = JsonTrees.map(scheduling, "nodeSelector");
      if (selector != null) {
        Map<String, Object> podSelector = JsonTrees.map(spec, "nodeSelector");
        Map<String, Object> merged =
            podSelector == null ? new LinkedHashMap<>() : new LinkedHashMap<>(podSelector);
        for (Map.Entry<String, Object> e : selector.entrySet()) {
          Object podValue = merged.get(e.getKey());
          if (podValue != null && !podValue.equals(e.getValue())) {
            throw new AdmissionException(
                "conflict: runtimeClass.scheduling.nodeSelector["
                    + e.getKey()
                    + "] = "
                    + e.getValue()
                    + "; pod.spec.nodeSelector["
                    + e.getKey()
                    + "] = "
                    + podValue);
          }
          merged.put(e.getKey(), e.getValue());
        }
        spec.put("nodeSelector", merged);
      }
      List<Map<String, Object>> tolerations = JsonTrees.maps(scheduling, "tolerations");
      if (!tolerations.isEmpty()) {
        List<Object> merged =
            spec.get("tolerations") instanceof List<?> list
                ? new ArrayList<>(list)
                : new ArrayList<>();
        for (Map<String, Object> t : tolerations) {
          if (!merged.contains(t)) {
            merged.add(new LinkedHashMap<>(t));
          }
        }
        spec.put("tolerations", merged);
      }
    }
    return a.object();
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (ignored(a)) {
      return;
    }
    Map<String, Object> spec = JsonTrees.map(((Unstructured) a.object()).content(), "spec");
    Map<String, Object> runtimeClass = runtimeClass(spec);
    Object given = spec == null ? null : spec.get("overhead");
    if (runtimeClass != null && JsonTrees.get(runtimeClass, "overhead") != null) {
      Map<String, Object> overhead = JsonTrees.map(runtimeClass, "overhead", "podFixed");
      @SuppressWarnings("unchecked")
      Map<String, Object> pod = given instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
      if (!sameQuantities(pod, overhead)) {
        throw new AdmissionException(
            "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
    } else if (given != null) {
      throw new AdmissionException(
          "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
  }

  /**
   * Go's semantic equality of two resource lists: the same names, equal quantities; an absent list
   * equals an empty one.
   */
  static boolean sameQuantities(Map<String, Object> a, Map<String, Object> b) {
    Map<String, Object> x = a == null ? Map.of() : a;
    Map<String, Object> y = b == null ? Map.of() : b;
    if (!x.keySet().equals(y.keySet())) {
      return false;
    }
    for (Map.Entry<String, Object> e : x.entrySet()) {
      Object other = y.get(e.getKey());
      try {
        if (Quantity.parse(String.valueOf(e.getValue()))
                .compareTo(Quantity.parse(String.valueOf(other)))
            != 0) {
          return false;
        }
      } catch (RuntimeException malformed) {
        if (!Objects.equals(e.getValue(), other)) {
          return false;
        }
      }
    }
    return true;
  }
}
