package dev.machinery.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The objects of {@link ScaleRun}: Pods as a Deployment's ReplicaSet and a kubelet leave them (an
 * app container and a proxy, environment, a probe, resources, the projected service account token
 * volume, tolerations, and a running status with conditions and container statuses), and Services
 * selecting them, each made from a seed so that a run can be repeated. Values repeat across Pods as
 * they do in a cluster (a few hundred apps, a few images, the same environment names), and each Pod
 * has values of its own (name, uid, template hash, IPs, container ids, times).
 *
 * <p>A Pod's spec and metadata are created by one field manager and its status written by another
 * ({@link #status}), so the server records two managed fields entries, as it holds a scheduled,
 * running Pod; as the server then answers a GET it is about 6.5 KB of JSON (kube's scale runs use
 * Pods of about 6.3 KB).
 *
 * <p>Thread safety: immutable; each call makes its object from its own {@link Random}, so calls may
 * run on any threads.
 */
final class ScalePods {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] IMAGES = {
    "registry.k8s.io/e2e-test-images/agnhost:2.47",
    "docker.io/library/nginx:1.27.2-alpine",
    "quay.io/prometheus/node-exporter:v1.8.2",
    "gcr.io/example-shop/checkout-service:v3.14.1",
    "gcr.io/example-shop/cart-service:v2.9.0",
    "ghcr.io/example/payments-api:2024.11.3"
  };
  private static final String[] SIDECARS = {
    "docker.io/envoyproxy/envoy:v1.31.2", "docker.io/istio/proxyv2:1.23.2"
  };
  private static final String[] ZONES = {"europe-west1-b", "europe-west1-c", "europe-west1-d"};
  private static final Instant START = Instant.parse("2026-11-20T08:00:00Z");

  private final long seed;
  private final int apps;

  /**
   * @param seed the seed every object is made from (with its index)
   * @param apps how many apps the Pods belong to (labels, images, owner ReplicaSets repeat across
   *     the Pods of one app)
   */
  ScalePods(long seed, int apps) {
    if (apps < 1) {
      throw new IllegalArgumentException("apps must be at least 1, got " + apps);
    }
    this.seed = seed;
    this.apps = apps;
  }

  /** The name of the Pod with an index. */
  static String podName(int index) {
    return String.format("pod-%07d", index);
  }

  /** The Pod with an index in a namespace, without status, as its ReplicaSet creates it. */
  String pod(String namespace, int index) {
    Random random = new Random(seed * 1_000_003L + index);
    int app = index % apps;
    String appName = "app-" + app;
    Random appRandom = new Random(seed * 7_919L + app);
    String hash = token(appRandom, 10);
    Map<String, Object> metadata = map();
    metadata.put("name", podName(index));
    metadata.put("namespace", namespace);
    metadata.put(
        "labels",
        map(
            "app.kubernetes.io/name",
            appName,
            "pod-template-hash",
            hash,
            "tier",
            app % 3 == 0 ? "frontend" : "backend"));
    metadata.put("annotations", map("kubectl.kubernetes.io/default-container", "main"));
    metadata.put(
        "ownerReferences",
        List.of(
            map(
                "apiVersion",
                "apps/v1",
                "kind",
                "ReplicaSet",
                "name",
                appName + "-" + hash,
                "uid",
                uuid(appRandom),
                "controller",
                true,
                "blockOwnerDeletion",
                true)));
    String image = IMAGES[app % IMAGES.length];
    List<Object> containers = new ArrayList<>();
    containers.add(container("main", image, appName, random, true));
    containers.add(container("proxy", SIDECARS[app % SIDECARS.length], appName, random, false));
    Map<String, Object> spec = map();
    spec.put("containers", containers);
    spec.put(
        "volumes",
        List.of(
            map(
                "name",
                "config",
                "configMap",
                map("name", appName + "-config", "defaultMode", 420)),
            map(
                "name",
                "kube-api-access-" + token(random, 5),
                "projected",
                map(
                    "defaultMode",
                    420,
                    "sources",
                    List.of(
                        map("serviceAccountToken", map("expirationSeconds", 3607, "path", "token")),
                        map(
                            "configMap",
                            map(
                                "name",
                                "kube-root-ca.crt",
                                "items",
                                List.of(map("key", "ca.crt", "path", "ca.crt")))),
                        map(
                            "downwardAPI",
                            map(
                                "items",
                                List.of(
                                    map(
                                        "path",
                                        "namespace",
                                        "fieldRef",
                                        map(
                                            "apiVersion",
                                            "v1",
                                            "fieldPath",
                                            "metadata.namespace"))))))))));
    spec.put("restartPolicy", "Always");
    spec.put("terminationGracePeriodSeconds", 30);
    spec.put("dnsPolicy", "ClusterFirst");
    spec.put("serviceAccountName", appName);
    spec.put("serviceAccount", appName);
    spec.put("nodeName", "node-" + random.nextInt(5_000));
    spec.put("securityContext", map("runAsNonRoot", true, "fsGroup", 2000));
    spec.put("schedulerName", "default-scheduler");
    spec.put(
        "tolerations",
        List.of(
            map(
                "key",
                "node.kubernetes.io/not-ready",
                "operator",
                "Exists",
                "effect",
                "NoExecute",
                "tolerationSeconds",
                300),
            map(
                "key",
                "node.kubernetes.io/unreachable",
                "operator",
                "Exists",
                "effect",
                "NoExecute",
                "tolerationSeconds",
                300)));
    spec.put("priority", 0);
    spec.put("enableServiceLinks", true);
    spec.put("preemptionPolicy", "PreemptLowerPriority");
    Map<String, Object> pod = map("apiVersion", "v1", "kind", "Pod");
    pod.put("metadata", metadata);
    pod.put("spec", spec);
    return write(pod);
  }

  /** The status a kubelet writes for the Pod with an index, as a merge patch of {@code status}. */
  String status(int index) {
    Random random = new Random(seed * 1_000_033L + index);
    Instant started = START.plusSeconds(random.nextInt(86_400));
    String podIp =
        "10."
            + (64 + random.nextInt(64))
            + "."
            + random.nextInt(256)
            + "."
            + (2 + random.nextInt(250));
    String hostIp = "192.168." + random.nextInt(20) + "." + (2 + random.nextInt(250));
    List<Object> conditions = new ArrayList<>();
    for (String type : new String[] {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
      conditions.add(
          map(
              "type",
              type,
              "status",
              "True",
              "lastProbeTime",
              null,
              "lastTransitionTime",
              time(started.plusSeconds(type.length()))));
    }
    List<Object> statuses = new ArrayList<>();
    int app = index % apps;
    String[][] containers = {
      {"main", IMAGES[app % IMAGES.length]},
      {"proxy", SIDECARS[app % SIDECARS.length]}
    };
    for (String[] container : containers) {
      statuses.add(
          map(
              "name",
              container[0],
              "state",
              map("running", map("startedAt", time(started.plusSeconds(9)))),
              "lastState",
              map(),
              "ready",
              true,
              "restartCount",
              0,
              "image",
              container[1],
              "imageID",
              container[1].replaceAll(":.*", "")
                  + "@sha256:"
                  + hex(new Random(container[1].hashCode()), 64),
              "containerID",
              "containerd://" + hex(random, 64),
              "started",
              true));
    }
    Map<String, Object> status = map();
    status.put("phase", "Running");
    status.put("conditions", conditions);
    status.put("hostIP", hostIp);
    status.put("hostIPs", List.of(map("ip", hostIp)));
    status.put("podIP", podIp);
    status.put("podIPs", List.of(map("ip", podIp)));
    status.put("startTime", time(started));
    status.put("containerStatuses", statuses);
    status.put("qosClass", "Burstable");
    return write(map("status", status));
  }

  /** A Service of an app in a namespace. */
  String service(String namespace, int index) {
    String appName = "app-" + (index % apps);
    Map<String, Object> spec = map();
    spec.put("selector", map("app.kubernetes.io/name", appName));
    spec.put(
        "ports",
        List.of(
            map("name", "http", "protocol", "TCP", "port", 80, "targetPort", 8080),
            map("name", "metrics", "protocol", "TCP", "port", 9090, "targetPort", 9090)));
    spec.put("type", "ClusterIP");
    spec.put("sessionAffinity", "None");
    Map<String, Object> service = map("apiVersion", "v1", "kind", "Service");
    service.put(
        "metadata",
        map(
            "name",
            String.format("svc-%06d", index),
            "namespace",
            namespace,
            "labels",
            map("app.kubernetes.io/name", appName)));
    service.put("spec", spec);
    return write(service);
  }

  private Map<String, Object> container(
      String name, String image, String appName, Random random, boolean main) {
    Map<String, Object> container = map();
    container.put("name", name);
    container.put("image", image);
    if (main) {
      container.put(
          "ports", List.of(map("name", "http", "containerPort", 8080, "protocol", "TCP")));
      List<Object> env = new ArrayList<>();
      env.add(map("name", "APP_NAME", "value", appName));
      env.add(fieldRef("POD_NAME", "metadata.name"));
      container.put("env", env);
      container.put("resources", resources("250m", "256Mi", "1", "512Mi"));
      container.put(
          "volumeMounts",
          List.of(map("name", "config", "mountPath", "/etc/app", "readOnly", true)));
    } else {
      container.put("ports", List.of(map("containerPort", 15090, "protocol", "TCP")));
      container.put("resources", resources("50m", "64Mi", "200m", "128Mi"));
    }
    if (main) {
      container.put("terminationMessagePath", "/dev/termination-log");
      container.put("terminationMessagePolicy", "File");
      container.put("imagePullPolicy", "IfNotPresent");
    }
    return container;
  }

  private static Map<String, Object> fieldRef(String name, String path) {
    return map(
        "name", name, "valueFrom", map("fieldRef", map("apiVersion", "v1", "fieldPath", path)));
  }

  private static Map<String, Object> resources(
      String cpu, String memory, String cpuLimit, String memoryLimit) {
    return map(
        "requests",
        map("cpu", cpu, "memory", memory),
        "limits",
        map("cpu", cpuLimit, "memory", memoryLimit));
  }

  private static String time(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant);
  }

  private static String token(Random random, int length) {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }

  private static String hex(Random random, int length) {
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(Character.forDigit(random.nextInt(16), 16));
    }
    return out.toString();
  }

  private static String uuid(Random random) {
    String h = hex(random, 32);
    return h.substring(0, 8)
        + "-"
        + h.substring(8, 12)
        + "-"
        + h.substring(12, 16)
        + "-"
        + h.substring(16, 20)
        + "-"
        + h.substring(20);
  }

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
