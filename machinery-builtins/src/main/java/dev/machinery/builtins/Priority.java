package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * kube-apiserver's {@code Priority} plugin and its scheduling post-start hook: the PriorityClasses
 * {@code system-node-critical} (2000001000) and {@code system-cluster-critical} (2000000000) are
 * made when the server starts; a created Pod gets the priority (and preemption policy) of its
 * {@code priorityClassName}, or of the global default class (whose name it then gets), or 0 and
 * {@code PreemptLowerPriority}; a Pod naming a class that does not exist, or a priority other than
 * its class's, is refused; an update keeps the stored priority; only one PriorityClass may be the
 * global default. Thread-safe once initialized.
 */
final class Priority implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  static final String NAME = "Priority";
  static final String CLASSES = "/apis/scheduling.k8s.io/v1/priorityclasses";
  private static final GroupResource PODS = GroupResource.of("", "pods");
  private static final GroupResource PRIORITY_CLASSES =
      GroupResource.of("scheduling.k8s.io", "priorityclasses");

  /** kube-apiserver's system classes: name, value, description. */
  static final List<List<Object>> SYSTEM_CLASSES =
      List.of(
          List.of(
              "system-node-critical",
              2000001000,
              "Used for system critical pods that must not be moved from their current node."),
          List.of(
              "system-cluster-critical",
              2000000000,
              "Used for system critical pods that must run in the cluster, but can be moved to"
                  + " another node if necessary."));

  private final Loopback loopback = new Loopback();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
    for (List<Object> c : SYSTEM_CLASSES) {
      Map<String, Object> object = new LinkedHashMap<>();
      object.put("apiVersion", "scheduling.k8s.io/v1");
      object.put("kind", "PriorityClass");
      object.put("metadata", Map.of("name", c.get(0)));
      object.put("value", c.get(1));
      object.put("description", c.get(2));
      int status = loopback.create(CLASSES, object);
      // 404: the server does not serve PriorityClasses; 409: made by an earlier start.
      if (status != 201 && status != 409 && status != 404) {
        throw new IllegalStateException(
            "creating the PriorityClass " + c.get(0) + " answered " + status);
      }
    }
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty() || !attributes.resource().equals(PODS)) {
      return attributes.object();
    }
    Map<String, Object> pod = ((Unstructured) attributes.object()).content();
    Map<String, Object> spec = JsonTrees.child(pod, "spec");
    if (attributes.operation() == Operation.UPDATE) {
      Map<String, Object> old =
          JsonTrees.map(((Unstructured) attributes.oldObject()).content(), "spec");
      if (spec.get("priority") == null && old != null && old.get("priority") != null) {
        spec.put("priority", old.get("priority"));
      }
      if (spec.get("preemptionPolicy") == null
          && old != null
          && old.get("preemptionPolicy") != null) {
        spec.put("preemptionPolicy", old.get("preemptionPolicy"));
      }
      return attributes.object();
    }
    String className = JsonTrees.string(spec, "", "priorityClassName");
    long priority;
    String policy;
    if (className.isEmpty()) {
      Optional<Map<String, Object>> global = globalDefault(loopback.listCached(CLASSES));
      if (global.isPresent()) {
        className = JsonTrees.string(global.get(), "", "metadata", "name");
        priority = JsonTrees.number(global.get(), 0, "value");
        policy = JsonTrees.string(global.get(), null, "preemptionPolicy");
      } else {
        priority = 0;
        policy = "PreemptLowerPriority";
      }
      spec.put("priorityClassName", className);
      if (className.isEmpty()) {
        spec.remove("priorityClassName");
      }
    } else {
      Map<String, Object> pc =
          loopback
              .lookup(CLASSES + "/" + className)
              .orElseThrow(
                  () ->
                      new AdmissionException(
                          "no PriorityClass with name "
                              + JsonTrees.string(spec, "", "priorityClassName")
                              + " was found"));
      priority = JsonTrees.number(pc, 0, "value");
      policy = JsonTrees.string(pc, null, "preemptionPolicy");
    }
    if (spec.get("priority") instanceof Number given && given.longValue() != priority) {
      throw new AdmissionException(
          "the integer value of priority ("
              + given.longValue()
              + ") must not be provided in pod spec; priority admission controller computed "
              + priority
              + " from the given PriorityClass name");
    }
    spec.put("priority", (int) priority);
    if (policy != null) {
      Object given = spec.get("preemptionPolicy");
      if (given != null && !Objects.equals(given, policy)) {
        throw new AdmissionException(
            "the string value of PreemptionPolicy ("
                + given
                + ") must not be provided in pod spec; priority admission controller computed "
                + policy
                + " from the given PriorityClass name");
      }
      spec.put("preemptionPolicy", policy);
    }
    return attributes.object();
  }

  @Override
  public void validate(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty() || !attributes.resource().equals(PRIORITY_CLASSES)) {
      return;
    }
    Map<String, Object> pc = ((Unstructured) attributes.object()).content();
    if (!Boolean.TRUE.equals(JsonTrees.get(pc, "globalDefault"))) {
      return;
    }
    Optional<Map<String, Object>> existing = globalDefault(loopback.list(CLASSES));
    if (existing.isEmpty()) {
      return;
    }
    String name = JsonTrees.string(existing.get(), "", "metadata", "name");
    if (attributes.operation() == Operation.CREATE || !name.equals(attributes.name())) {
      throw new AdmissionException(
          "PriorityClass " + name + " is already marked as default. Only one default can exist");
    }
  }

  /** The global default class of some; of several (a race), the one of the lowest value. */
  private static Optional<Map<String, Object>> globalDefault(List<Map<String, Object>> classes) {
    Map<String, Object> found = null;
    for (Map<String, Object> pc : classes) {
      if (Boolean.TRUE.equals(pc.get("globalDefault"))
          && (found == null
              || JsonTrees.number(found, 0, "value") > JsonTrees.number(pc, 0, "value"))) {
        found = pc;
      }
    }
    return Optional.ofNullable(found);
  }
}
