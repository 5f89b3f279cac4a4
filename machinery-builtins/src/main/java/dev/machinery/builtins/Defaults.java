package dev.machinery.builtins;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The defaults Kubernetes' Go code (the {@code SetDefaults_*} functions of k8s.io/kubernetes {@code
 * pkg/apis/*}/v1) sets on the kinds users read back most, written out for JSON trees: Deployments,
 * ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, Pods and every Pod template, Services,
 * Secrets and PersistentVolumeClaims. Each default is set only where the field is absent.
 */
final class Defaults {
  private Defaults() {}

  /**
   * What kube-apiserver sets on a StatefulSet it reads from storage, in place: every claim template
   * named by its kind and defaulted as a claim is. Go's conversion of the internal StatefulSet to
   * apps/v1 ({@code Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec}, since 1.17 as the
   * reflective conversion did before) sets {@code apiVersion: v1} and {@code kind:
   * PersistentVolumeClaim} on each template whenever the object is encoded, and the storage decoder
   * applies the templates' defaults; a protobuf value carries no type meta for an embedded object,
   * and a JSON value written elsewhere may lack both.
   */
  static void onRead(GroupKind kind, Map<String, Object> object) {
    if (kind.group().equals("apps") && kind.kind().equals("StatefulSet")) {
      Map<String, Object> spec = JsonTrees.map(object, "spec");
      if (spec != null) {
        claimTemplates(spec);
      }
    }
  }

  /**
   * A StatefulSet's claim templates defaulted as claims are, and named by their kind (Go's
   * conversion of apps/v1 sets both, as reflective conversion did before 1.17).
   */
  private static void claimTemplates(Map<String, Object> spec) {
    for (Map<String, Object> claim : JsonTrees.maps(spec, "volumeClaimTemplates")) {
      claim.put("apiVersion", "v1");
      claim.put("kind", "PersistentVolumeClaim");
      JsonTrees.fill(JsonTrees.child(claim, "spec"), "volumeMode", "Filesystem");
      JsonTrees.fill(JsonTrees.child(claim, "status"), "phase", "Pending");
    }
  }

  /**
   * Sets the defaults of an object of a kind's version, in place: the served versions' defaults,
   * and for the one older version served beside them, an {@code autoscaling/v1}
   * HorizontalPodAutoscaler, its own ({@code minReplicas: 1}; its CPU target's default is the
   * conversion's).
   */
  static void apply(GroupVersionKind kind, Map<String, Object> object) {
    if (kind.groupVersion().equals(HorizontalPodAutoscalerConversion.V1)) {
      Map<String, Object> spec = JsonTrees.map(object, "spec");
      if (spec != null) {
        JsonTrees.fill(spec, "minReplicas", 1L);
      }
      return;
    }
    apply(kind.groupKind(), object);
  }

  /** Sets the kind's defaults on an object, in place. */
  static void apply(GroupKind kind, Map<String, Object> object) {
    Map<String, Object> spec = JsonTrees.map(object, "spec");
    switch (kind.group() + "/" + kind.kind()) {
      case "apps/Deployment" -> {
        if (spec == null) {
          return;
        }
        JsonTrees.fill(spec, "replicas", 1L);
        Map<String, Object> strategy = JsonTrees.child(spec, "strategy");
        JsonTrees.fill(strategy, "type", "RollingUpdate");
        if ("RollingUpdate".equals(strategy.get("type"))) {
          Map<String, Object> rolling = JsonTrees.child(strategy, "rollingUpdate");
          JsonTrees.fill(rolling, "maxUnavailable", "25%");
          JsonTrees.fill(rolling, "maxSurge", "25%");
        }
        JsonTrees.fill(spec, "revisionHistoryLimit", 10L);
        JsonTrees.fill(spec, "progressDeadlineSeconds", 600L);
        podTemplate(spec);
      }
      case "apps/ReplicaSet", "/ReplicationController" -> {
        if (spec != null) {
          JsonTrees.fill(spec, "replicas", 1L);
          podTemplate(spec);
        }
      }
      case "apps/StatefulSet" -> {
        if (spec == null) {
          return;
        }
        JsonTrees.fill(spec, "replicas", 1L);
        JsonTrees.fill(spec, "podManagementPolicy", "OrderedReady");
        Map<String, Object> update = JsonTrees.child(spec, "updateStrategy");
        JsonTrees.fill(update, "type", "RollingUpdate");
        if ("RollingUpdate".equals(update.get("type"))) {
          JsonTrees.fill(JsonTrees.child(update, "rollingUpdate"), "partition", 0L);
        }
        JsonTrees.fill(spec, "revisionHistoryLimit", 10L);
        Map<String, Object> retention =
            JsonTrees.child(spec, "persistentVolumeClaimRetentionPolicy");
        JsonTrees.fill(retention, "whenDeleted", "Retain");
        JsonTrees.fill(retention, "whenScaled", "Retain");
        claimTemplates(spec);
        podTemplate(spec);
      }
      case "apps/DaemonSet" -> {
        if (spec == null) {
          return;
        }
        Map<String, Object> update = JsonTrees.child(spec, "updateStrategy");
        JsonTrees.fill(update, "type", "RollingUpdate");
        if ("RollingUpdate".equals(update.get("type"))) {
          Map<String, Object> rolling = JsonTrees.child(update, "rollingUpdate");
          JsonTrees.fill(rolling, "maxUnavailable", 1L);
          JsonTrees.fill(rolling, "maxSurge", 0L);
        }
        JsonTrees.fill(spec, "revisionHistoryLimit", 10L);
        podTemplate(spec);
      }
      case "batch/Job" -> {
        if (spec != null) {
          job(object, spec);
        }
      }
      case "batch/CronJob" -> {
        if (spec == null) {
          return;
        }
        JsonTrees.fill(spec, "concurrencyPolicy", "Allow");
        JsonTrees.fill(spec, "suspend", false);
        JsonTrees.fill(spec, "successfulJobsHistoryLimit", 3L);
        JsonTrees.fill(spec, "failedJobsHistoryLimit", 1L);
        // Go's defaulting of a CronJob sets no Job defaults on its template, only the pod spec's.
        Map<String, Object> jobSpec = JsonTrees.map(spec, "jobTemplate", "spec");
        if (jobSpec != null) {
          podTemplate(jobSpec);
        }
      }
      case "/Pod" -> {
        if (spec != null) {
          podSpec(spec);
          JsonTrees.fill(spec, "enableServiceLinks", true);
          // A Pod's (not a template's) requests default to its limits, and with the host's
          // network its ports' hostPort to their containerPort.
          for (String list : List.of("containers", "initContainers")) {
            for (Map<String, Object> container : JsonTrees.maps(spec, list)) {
              Map<String, Object> limits = JsonTrees.map(container, "resources", "limits");
              if (limits != null) {
                Map<String, Object> requests = JsonTrees.child(container, "resources", "requests");
                limits.forEach(requests::putIfAbsent);
              }
              if (Boolean.TRUE.equals(spec.get("hostNetwork"))) {
                for (Map<String, Object> port : JsonTrees.maps(container, "ports")) {
                  if (port.get("hostPort") == null
                      || Long.valueOf(0).equals(number(port, "hostPort"))) {
                    port.put("hostPort", port.get("containerPort"));
                  }
                }
              }
            }
          }
        }
      }
      case "/PodTemplate" -> podTemplate(object);
      case "/Service" -> {
        if (spec != null) {
          service(spec);
        }
      }
      case "/Secret" -> {
        JsonTrees.fill(object, "type", "Opaque");
        // As Go's conversion of a v1 Secret: stringData is written into data, base64-encoded.
        Map<String, Object> stringData = JsonTrees.map(object, "stringData");
        if (stringData != null) {
          Map<String, Object> data = JsonTrees.child(object, "data");
          stringData.forEach(
              (k, v) ->
                  data.put(
                      k,
                      java.util.Base64.getEncoder()
                          .encodeToString(
                              String.valueOf(v)
                                  .getBytes(java.nio.charset.StandardCharsets.UTF_8))));
          object.remove("stringData");
        }
      }
      case "/PersistentVolumeClaim" -> {
        if (spec != null) {
          JsonTrees.fill(spec, "volumeMode", "Filesystem");
        }
        Map<String, Object> status = JsonTrees.map(object, "status");
        if (status != null) {
          JsonTrees.fill(status, "phase", "Pending");
        }
      }
      case "/PersistentVolume" -> {
        if (spec != null) {
          JsonTrees.fill(spec, "persistentVolumeReclaimPolicy", "Retain");
          JsonTrees.fill(spec, "volumeMode", "Filesystem");
        }
        Map<String, Object> status = JsonTrees.map(object, "status");
        if (status != null) {
          JsonTrees.fill(status, "phase", "Pending");
        }
      }
      case "autoscaling/HorizontalPodAutoscaler" -> {
        if (spec != null) {
          horizontalPodAutoscaler(spec);
        }
      }
      case "/Namespace" -> {
        Map<String, Object> status = JsonTrees.map(object, "status");
        if (status != null) {
          JsonTrees.fill(status, "phase", "Active");
        }
      }
      default -> {}
    }
  }

  private static void job(Map<String, Object> job, Map<String, Object> spec) {
    if (spec.get("completions") == null && spec.get("parallelism") == null) {
      spec.put("completions", 1L);
      spec.put("parallelism", 1L);
    }
    JsonTrees.fill(spec, "parallelism", 1L);
    JsonTrees.fill(spec, "backoffLimit", spec.get("backoffLimitPerIndex") != null ? MAX_INT32 : 6L);
    // A Job without labels has its template's (Go shares the map).
    Map<String, Object> templateLabels = JsonTrees.map(spec, "template", "metadata", "labels");
    Map<String, Object> labels = JsonTrees.map(job, "metadata", "labels");
    if (templateLabels != null && (labels == null || labels.isEmpty())) {
      JsonTrees.child(job, "metadata").put("labels", new LinkedHashMap<>(templateLabels));
    }
    JsonTrees.fill(spec, "completionMode", "NonIndexed");
    JsonTrees.fill(spec, "suspend", false);
    JsonTrees.fill(
        spec,
        "podReplacementPolicy",
        spec.get("podFailurePolicy") != null ? "Failed" : "TerminatingOrFailed");
    JsonTrees.fill(spec, "manualSelector", false);
    for (Map<String, Object> rule : JsonTrees.maps(spec, "podFailurePolicy", "rules")) {
      for (Map<String, Object> pattern : JsonTrees.maps(rule, "onPodConditions")) {
        JsonTrees.fill(pattern, "status", "True");
      }
    }
    podTemplate(spec);
  }

  private static final long MAX_INT32 = Integer.MAX_VALUE;

  /**
   * An autoscaling/v2 HorizontalPodAutoscaler's defaults: {@code minReplicas: 1}, a CPU target of
   * 80% utilization when it names no metric, and a {@code behavior} it gives filled with the
   * scaling rules the controller uses by default (up: no stabilization, 4 pods or 100% each 15
   * seconds, the larger; down: 100% each 15 seconds, the stabilization window left to the
   * controller).
   */
  private static void horizontalPodAutoscaler(Map<String, Object> spec) {
    JsonTrees.fill(spec, "minReplicas", 1L);
    if (!(spec.get("metrics") instanceof List<?> metrics) || metrics.isEmpty()) {
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("type", "Utilization");
      target.put("averageUtilization", 80L);
      Map<String, Object> resource = new LinkedHashMap<>();
      resource.put("name", "cpu");
      resource.put("target", target);
      Map<String, Object> metric = new LinkedHashMap<>();
      metric.put("type", "Resource");
      metric.put("resource", resource);
      spec.put("metrics", new ArrayList<>(List.of(metric)));
    }
    Map<String, Object> behavior = JsonTrees.map(spec, "behavior");
    if (behavior != null) {
      Map<String, Object> up = JsonTrees.child(behavior, "scaleUp");
      JsonTrees.fill(up, "stabilizationWindowSeconds", 0L);
      JsonTrees.fill(up, "selectPolicy", "Max");
      JsonTrees.fill(
          up, "policies", new ArrayList<>(List.of(policy("Pods", 4), policy("Percent", 100))));
      Map<String, Object> down = JsonTrees.child(behavior, "scaleDown");
      JsonTrees.fill(down, "selectPolicy", "Max");
      JsonTrees.fill(down, "policies", new ArrayList<>(List.of(policy("Percent", 100))));
    }
  }

  private static Map<String, Object> policy(String type, long value) {
    Map<String, Object> policy = new LinkedHashMap<>();
    policy.put("type", type);
    policy.put("value", value);
    policy.put("periodSeconds", 15L);
    return policy;
  }

  private static Long number(Map<String, Object> tree, String field) {
    return tree.get(field) instanceof Number n ? n.longValue() : null;
  }

  /**
   * A new Service's cluster IPs and node ports, allocated at random from kube-apiserver's default
   * ranges ({@code 10.96.0.0/12} and 30000-32767) without a check for collisions (kube-apiserver's
   * allocators keep a registry of what is taken; no allocator runs here).
   */
  static void allocate(Map<String, Object> spec) {
    if (needsClusterIp(spec) && spec.get("clusterIP") == null) {
      String ip = clusterIp();
      spec.put("clusterIP", ip);
      spec.put("clusterIPs", new ArrayList<>(List.of(ip)));
    } else if (spec.get("clusterIP") instanceof String ip && spec.get("clusterIPs") == null) {
      spec.put("clusterIPs", new ArrayList<>(List.of(ip)));
    }
    if (needsNodePorts(spec)) {
      for (Map<String, Object> port : JsonTrees.maps(spec, "ports")) {
        JsonTrees.fill(port, "nodePort", 30000L + RANDOM.nextInt(2768));
      }
    }
  }

  /** Whether a Service has cluster IPs: every type but {@code ExternalName}. */
  static boolean needsClusterIp(Map<String, Object> spec) {
    return !"ExternalName".equals(spec.get("type"));
  }

  /**
   * Whether a Service has node ports: {@code NodePort}, and {@code LoadBalancer} unless {@code
   * allocateLoadBalancerNodePorts} is false.
   */
  static boolean needsNodePorts(Map<String, Object> spec) {
    Object type = spec.get("type");
    return "NodePort".equals(type)
        || "LoadBalancer".equals(type)
            && !Boolean.FALSE.equals(spec.get("allocateLoadBalancerNodePorts"));
  }

  private static final java.util.Random RANDOM = new java.security.SecureRandom();

  /** An address of 10.96.0.0/12 other than its network, first and broadcast addresses. */
  private static String clusterIp() {
    int offset = 2 + RANDOM.nextInt((1 << 20) - 3);
    int address = (10 << 24) | (96 << 16) | offset;
    return ((address >>> 24) & 255)
        + "."
        + ((address >>> 16) & 255)
        + "."
        + ((address >>> 8) & 255)
        + "."
        + (address & 255);
  }

  /**
   * Kubernetes' QoS class: {@code BestEffort} without requests or limits, {@code Guaranteed} when
   * every container limits cpu and memory and requests what it limits, {@code Burstable} otherwise.
   */
  static String qosClass(Map<String, Object> spec) {
    List<Map<String, Object>> containers = new ArrayList<>(JsonTrees.maps(spec, "containers"));
    containers.addAll(JsonTrees.maps(spec, "initContainers"));
    boolean any = false;
    boolean guaranteed = !containers.isEmpty();
    for (Map<String, Object> container : containers) {
      Map<String, Object> requests = JsonTrees.map(container, "resources", "requests");
      Map<String, Object> limits = JsonTrees.map(container, "resources", "limits");
      any |= requests != null && !requests.isEmpty() || limits != null && !limits.isEmpty();
      for (String resource : List.of("cpu", "memory")) {
        Object limit = limits == null ? null : limits.get(resource);
        Object request = requests == null ? limit : requests.getOrDefault(resource, limit);
        if (limit == null || !String.valueOf(limit).equals(String.valueOf(request))) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return "BestEffort";
    }
    return guaranteed ? "Guaranteed" : "Burstable";
  }

  /** The pod template under {@code template} of a spec. */
  private static void podTemplate(Map<String, Object> spec) {
    Map<String, Object> podSpec = JsonTrees.map(spec, "template", "spec");
    if (podSpec != null) {
      podSpec(podSpec);
    }
  }

  /**
   * A pod spec's defaults. {@code restartPolicy} is {@code Always} in every pod spec, a Job's
   * included (whose validation then refuses it, as kube-apiserver's does).
   */
  /**
   * Go's conversion of a v1 PodSpec: the deprecated {@code serviceAccount} names the account when
   * {@code serviceAccountName} does not, and is written back as {@code serviceAccountName} is (so
   * an account admission gives a Pod reads back under both names).
   */
  static void serviceAccount(Map<String, Object> spec) {
    String name = JsonTrees.string(spec, "", "serviceAccountName");
    if (name.isEmpty()) {
      name = JsonTrees.string(spec, "", "serviceAccount");
      if (!name.isEmpty()) {
        spec.put("serviceAccountName", name);
      }
    }
    if (name.isEmpty()) {
      spec.remove("serviceAccount");
    } else {
      spec.put("serviceAccount", name);
    }
  }

  private static void podSpec(Map<String, Object> spec) {
    serviceAccount(spec);
    JsonTrees.fill(spec, "restartPolicy", "Always");
    JsonTrees.fill(spec, "dnsPolicy", "ClusterFirst");
    JsonTrees.fill(spec, "terminationGracePeriodSeconds", 30L);
    JsonTrees.fill(spec, "securityContext", new LinkedHashMap<String, Object>());
    JsonTrees.fill(spec, "schedulerName", "default-scheduler");
    for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
      for (Map<String, Object> container : JsonTrees.maps(spec, list)) {
        container(container);
      }
    }
    for (Map<String, Object> volume : JsonTrees.maps(spec, "volumes")) {
      for (String source : List.of("configMap", "secret", "projected", "downwardAPI")) {
        Map<String, Object> from = JsonTrees.map(volume, source);
        if (from != null) {
          JsonTrees.fill(from, "defaultMode", 420L);
        }
      }
    }
  }

  private static void container(Map<String, Object> container) {
    JsonTrees.fill(container, "terminationMessagePath", "/dev/termination-log");
    JsonTrees.fill(container, "terminationMessagePolicy", "File");
    Object image = container.get("image");
    if (image instanceof String text) {
      JsonTrees.fill(container, "imagePullPolicy", pullPolicy(text));
    }
    JsonTrees.fill(container, "resources", new LinkedHashMap<String, Object>());
    for (Map<String, Object> port : JsonTrees.maps(container, "ports")) {
      JsonTrees.fill(port, "protocol", "TCP");
    }
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      Map<String, Object> p = JsonTrees.map(container, probe);
      if (p != null) {
        JsonTrees.fill(p, "timeoutSeconds", 1L);
        JsonTrees.fill(p, "periodSeconds", 10L);
        JsonTrees.fill(p, "successThreshold", 1L);
        JsonTrees.fill(p, "failureThreshold", 3L);
        Map<String, Object> http = JsonTrees.map(p, "httpGet");
        if (http != null) {
          JsonTrees.fill(http, "scheme", "HTTP");
        }
      }
    }
    for (Map<String, Object> env : JsonTrees.maps(container, "env")) {
      Map<String, Object> field = JsonTrees.map(env, "valueFrom", "fieldRef");
      if (field != null) {
        JsonTrees.fill(field, "apiVersion", "v1");
      }
    }
  }

  /**
   * {@code Always} for an image without a tag or tagged {@code latest}, {@code IfNotPresent}
   * otherwise (a digest counts as a tag), as Kubernetes defaults {@code imagePullPolicy}.
   */
  static String pullPolicy(String image) {
    if (image.contains("@")) {
      return "IfNotPresent";
    }
    int slash = image.lastIndexOf('/');
    String last = image.substring(slash + 1);
    int colon = last.lastIndexOf(':');
    if (colon < 0) {
      return "Always";
    }
    return last.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }

  private static void service(Map<String, Object> spec) {
    JsonTrees.fill(spec, "type", "ClusterIP");
    Object type = spec.get("type");
    JsonTrees.fill(spec, "sessionAffinity", "None");
    for (Map<String, Object> port : JsonTrees.maps(spec, "ports")) {
      JsonTrees.fill(port, "protocol", "TCP");
      if (port.get("targetPort") == null && port.get("port") != null) {
        port.put("targetPort", port.get("port"));
      }
    }
    if (!"ExternalName".equals(type)) {
      JsonTrees.fill(spec, "internalTrafficPolicy", "Cluster");
      if (spec.get("ipFamilies") == null) {
        spec.put("ipFamilies", new ArrayList<>(List.of("IPv4")));
      }
      JsonTrees.fill(spec, "ipFamilyPolicy", "SingleStack");
    }
    if ("NodePort".equals(type) || "LoadBalancer".equals(type)) {
      JsonTrees.fill(spec, "externalTrafficPolicy", "Cluster");
    }
    if ("LoadBalancer".equals(type)) {
      JsonTrees.fill(spec, "allocateLoadBalancerNodePorts", true);
    }
  }
}
