package dev.machinery.builtins;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What kube-apiserver's registry strategies (the {@code PrepareForCreate} and {@code
 * PrepareForUpdate} of k8s.io/kubernetes {@code pkg/registry/**}/strategy.go) do to the built-in
 * kinds on their own, without a controller, written out for JSON trees. The server's generic rules
 * (status reset on create and kept on a main-resource update, generation 1 and bumped on a spec
 * change) run before these. {@code StrategiesTest} asserts each as kube-apiserver answers.
 *
 * <p>Stateless; safe to call from any thread on objects no other thread changes.
 */
final class Strategies {
  /** The finalizer kube-apiserver gives every new Namespace. */
  static final String KUBERNETES_FINALIZER = "kubernetes";

  /** The labels a Job's pod template gets, as Go's {@code batch} constants name them. */
  static final String JOB_NAME = "batch.kubernetes.io/job-name";

  static final String LEGACY_JOB_NAME = "job-name";
  static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
  static final String LEGACY_CONTROLLER_UID = "controller-uid";

  private Strategies() {}

  /**
   * Prepares a new object, in place, after the server reset its status: the kind's own create
   * strategy, then an empty {@code status} for a kind that has one (Go writes the zero value of a
   * status struct as {@code status: {}}).
   *
   * @param kind the kind
   * @param hasStatus whether the kind has a status (and so a status subresource)
   * @param object the object
   */
  static void prepareForCreate(GroupKind kind, boolean hasStatus, Map<String, Object> object) {
    switch (kind.group() + "/" + kind.kind()) {
      case "/Pod" -> {
        // After admission, which may have named the account (ServiceAccount).
        Map<String, Object> podSpec = JsonTrees.map(object, "spec");
        if (podSpec != null) {
          Defaults.serviceAccount(podSpec);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Pending");
        status.put("qosClass", Defaults.qosClass(JsonTrees.map(object, "spec")));
        object.put("status", status);
        if (!JsonTrees.maps(object, "spec", "schedulingGates").isEmpty()) {
          // A gated pod is not scheduled until its gates are removed, and says so.
          Map<String, Object> condition = new LinkedHashMap<>();
          condition.put("type", "PodScheduled");
          condition.put("status", "False");
          condition.put("lastTransitionTime", now());
          condition.put("reason", "SchedulingGated");
          condition.put("message", "Scheduling is blocked due to non-empty scheduling gates");
          status.put("conditions", new ArrayList<>(List.of(condition)));
        }
      }
      case "/Service" -> {
        Map<String, Object> spec = JsonTrees.map(object, "spec");
        if (spec != null) {
          Defaults.allocate(spec);
        }
        object.put("status", zeroStatus(kind));
      }
      case "/Namespace" -> {
        nameLabel(object);
        object.put("status", new LinkedHashMap<>(Map.of("phase", "Active")));
        Map<String, Object> spec = JsonTrees.child(object, "spec");
        List<Object> finalizers =
            spec.get("finalizers") instanceof List<?> list
                ? new ArrayList<>(list)
                : new ArrayList<>();
        if (!finalizers.contains(KUBERNETES_FINALIZER)) {
          finalizers.add(KUBERNETES_FINALIZER);
        }
        spec.put("finalizers", finalizers);
      }
      case "/PersistentVolume" -> {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Pending");
        status.put("lastPhaseTransitionTime", now());
        object.put("status", status);
      }
      case "batch/Job" -> job(object);
      default -> {}
    }
    if (hasStatus && !(object.get("status") instanceof Map<?, ?>)) {
      object.put("status", zeroStatus(kind));
    }
  }

  /**
   * A Namespace's label {@code kubernetes.io/metadata.name}, always its name (Go's defaulting sets
   * it, and the strategy's Canonicalize sets it again once a generated name is known).
   */
  private static void nameLabel(Map<String, Object> namespace) {
    String name = JsonTrees.string(namespace, "", "metadata", "name");
    if (!name.isEmpty()) {
      JsonTrees.child(namespace, "metadata", "labels").put("kubernetes.io/metadata.name", name);
    }
  }

  /** The time now as Go writes a metav1.Time: RFC 3339 in UTC, to the second. */
  private static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * A kind's status as Go writes the zero value of its status struct: {@code {}}, but for the
   * fields Go's JSON writes even when zero (those without {@code omitempty}, and structs).
   */
  static Map<String, Object> zeroStatus(GroupKind kind) {
    Map<String, Object> status = new LinkedHashMap<>();
    switch (kind.group() + "/" + kind.kind()) {
      case "apps/ReplicaSet", "/ReplicationController" -> status.put("replicas", 0L);
      case "apps/StatefulSet" -> {
        status.put("replicas", 0L);
        status.put("availableReplicas", 0L);
      }
      case "apps/DaemonSet" -> {
        status.put("currentNumberScheduled", 0L);
        status.put("numberMisscheduled", 0L);
        status.put("desiredNumberScheduled", 0L);
        status.put("numberReady", 0L);
      }
      case "autoscaling/HorizontalPodAutoscaler" -> status.put("desiredReplicas", 0L);
      case "policy/PodDisruptionBudget" -> {
        status.put("disruptionsAllowed", 0L);
        status.put("currentHealthy", 0L);
        status.put("desiredHealthy", 0L);
        status.put("expectedPods", 0L);
      }
      case "storage.k8s.io/VolumeAttachment" -> status.put("attached", false);
      case "networking.k8s.io/Ingress", "/Service" ->
          status.put("loadBalancer", new LinkedHashMap<String, Object>());
      case "/PersistentVolumeClaim" -> status.put("phase", "Pending");
      default -> {}
    }
    return status;
  }

  /**
   * A new Job's generated selector, as kube-apiserver's Job strategy makes it unless {@code
   * spec.manualSelector} is true: the template gets the labels {@code batch.kubernetes.io/job-name}
   * and {@code job-name} (the Job's name) and {@code batch.kubernetes.io/controller-uid} and {@code
   * controller-uid} (its uid), each only where the template does not have it, and the selector
   * matches {@code batch.kubernetes.io/controller-uid}. A Job whose own labels were empty, or the
   * template's (Go's defaulting shares the template's labels with a Job that has none), has the
   * template's labels as its own.
   */
  private static void job(Map<String, Object> job) {
    Map<String, Object> spec = JsonTrees.map(job, "spec");
    if (spec == null || Boolean.TRUE.equals(spec.get("manualSelector"))) {
      return;
    }
    String name = JsonTrees.string(job, "", "metadata", "name");
    String uid = JsonTrees.string(job, "", "metadata", "uid");
    Map<String, Object> meta = JsonTrees.child(job, "metadata");
    Map<String, Object> template = JsonTrees.child(spec, "template", "metadata");
    Map<String, Object> labels = JsonTrees.child(template, "labels");
    Map<String, Object> own = JsonTrees.map(meta, "labels");
    boolean shared = own == null || own.isEmpty() || own.equals(labels);
    labels.putIfAbsent(LEGACY_JOB_NAME, name);
    labels.putIfAbsent(JOB_NAME, name);
    labels.putIfAbsent(LEGACY_CONTROLLER_UID, uid);
    labels.putIfAbsent(CONTROLLER_UID, uid);
    JsonTrees.child(spec, "selector", "matchLabels").putIfAbsent(CONTROLLER_UID, uid);
    if (shared) {
      meta.put("labels", new LinkedHashMap<>(labels));
    }
  }

  /**
   * The grace period of a Pod's delete, as kube's pod strategy's {@code CheckGracefulDelete}: the
   * delete's period, else the pod's {@code spec.terminationGracePeriodSeconds} (0 when it has
   * none); 0 for a pod bound to no node (nothing runs it) or one that has ended ({@code Succeeded}
   * or {@code Failed}); a negative period is 1. Pods are always deleted gracefully, so a period of
   * 0 marks the pod and removes it at once.
   *
   * @param pod the stored pod (not changed)
   * @param requested the delete's {@code gracePeriodSeconds}, or {@code null}
   * @return the period in seconds
   */
  static OptionalLong podGracePeriod(Map<String, Object> pod, Long requested) {
    long period =
        requested != null
            ? requested
            : JsonTrees.number(pod, 0, "spec", "terminationGracePeriodSeconds");
    if (JsonTrees.string(pod, "", "spec", "nodeName").isEmpty()) {
      period = 0;
    }
    String phase = JsonTrees.string(pod, "", "status", "phase");
    if (phase.equals("Failed") || phase.equals("Succeeded")) {
      period = 0;
    }
    if (period < 0) {
      period = 1;
    }
    return OptionalLong.of(period);
  }

  /**
   * Prepares an object written over a stored one through the main resource, in place: the kind's
   * own update strategy. A Namespace keeps its stored {@code spec.finalizers} (only the {@code
   * finalize} subresource changes them); a Deployment's generation is bumped when its annotations
   * change too (they are copied to its ReplicaSets), an EndpointSlice's when its labels do; a
   * CertificateSigningRequest keeps its spec; a Service keeps the cluster IPs and node ports it was
   * given when the new object names none, and gets those its new type needs.
   *
   * @param kind the kind
   * @param object the new object
   * @param old the stored object (not changed)
   */
  static void prepareForUpdate(
      GroupKind kind, Map<String, Object> object, Map<String, Object> old) {
    switch (kind.group() + "/" + kind.kind()) {
      case "/Namespace" -> {
        nameLabel(object);
        Object finalizers = JsonTrees.get(old, "spec", "finalizers");
        Map<String, Object> spec = JsonTrees.child(object, "spec");
        if (finalizers == null) {
          spec.remove("finalizers");
        } else {
          spec.put("finalizers", JsonTrees.deepCopy(finalizers));
        }
        if (spec.isEmpty() && JsonTrees.map(old, "spec") == null) {
          object.remove("spec");
        }
      }
      case "apps/Deployment" -> bumpWhenChanged(object, old, "annotations");
      case "discovery.k8s.io/EndpointSlice" -> bumpWhenChanged(object, old, "labels");
      case "certificates.k8s.io/CertificateSigningRequest" -> {
        // A request's spec changes through no update.
        Object spec = JsonTrees.get(old, "spec");
        if (spec == null) {
          object.remove("spec");
        } else {
          object.put("spec", JsonTrees.deepCopy(spec));
        }
      }
      case "/Service" -> {
        Map<String, Object> spec = JsonTrees.map(object, "spec");
        Map<String, Object> was = JsonTrees.map(old, "spec");
        if (spec != null
            && was != null
            && Defaults.needsClusterIp(spec)
            && Defaults.needsClusterIp(was)) {
          if (spec.get("clusterIP") == null && was.get("clusterIP") != null) {
            spec.put("clusterIP", was.get("clusterIP"));
          }
          if (spec.get("clusterIPs") == null && was.get("clusterIPs") != null) {
            spec.put("clusterIPs", JsonTrees.deepCopy(was.get("clusterIPs")));
          }
        }
        if (spec != null
            && was != null
            && Defaults.needsNodePorts(spec)
            && Defaults.needsNodePorts(was)) {
          keepNodePorts(spec, was);
        }
        if (spec != null) {
          // What the new type needs and the old one did not have is allocated, as on create.
          Defaults.allocate(spec);
        }
      }
      default -> {}
    }
  }

  /**
   * A port without a node port gets the one the stored port of its name had, unless another port of
   * the new object and the stored one both use it (kube-apiserver's patchAllocatedValues).
   */
  private static void keepNodePorts(Map<String, Object> spec, Map<String, Object> was) {
    Set<Object> used = nodePorts(spec);
    used.retainAll(nodePorts(was));
    Map<Object, Object> byName = new HashMap<>();
    for (Map<String, Object> port : JsonTrees.maps(was, "ports")) {
      if (port.get("nodePort") instanceof Number n) {
        byName.put(port.getOrDefault("name", ""), n.longValue());
      }
    }
    for (Map<String, Object> port : JsonTrees.maps(spec, "ports")) {
      Object kept = byName.get(port.getOrDefault("name", ""));
      if (port.get("nodePort") == null && kept != null && !used.contains(kept)) {
        port.put("nodePort", kept);
      }
    }
  }

  private static Set<Object> nodePorts(Map<String, Object> spec) {
    Set<Object> used = new HashSet<>();
    for (Map<String, Object> port : JsonTrees.maps(spec, "ports")) {
      if (port.get("nodePort") instanceof Number n) {
        used.add(n.longValue());
      }
    }
    return used;
  }

  /**
   * Bumps the generation when a map of the metadata ({@code labels}, {@code annotations}) changed
   * and the server's rule (a change outside metadata) has not bumped it already; an absent map is
   * an empty one, as Go's semantic equality holds.
   */
  private static void bumpWhenChanged(
      Map<String, Object> object, Map<String, Object> old, String metadataMap) {
    long generation = JsonTrees.number(object, 0, "metadata", "generation");
    long stored = JsonTrees.number(old, 0, "metadata", "generation");
    if (generation == stored
        && !Objects.equals(
            orEmpty(JsonTrees.map(object, "metadata", metadataMap)),
            orEmpty(JsonTrees.map(old, "metadata", metadataMap)))) {
      JsonTrees.child(object, "metadata").put("generation", stored + 1);
    }
  }

  private static Map<String, Object> orEmpty(Map<String, Object> map) {
    return map == null ? Map.of() : map;
  }
}
