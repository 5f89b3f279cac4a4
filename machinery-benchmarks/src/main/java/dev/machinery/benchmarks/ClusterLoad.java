package dev.machinery.benchmarks;

import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.SimulatedNode;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * What Kubernetes' controllers and the simulated nodes do at scale, each beside a baseline measured
 * in the same run on the same kind of server:
 *
 * <ul>
 *   <li><b>rollout</b>: a Deployment of N replicas on 100 simulated nodes (deployment, replicaset,
 *       scheduler, kubelet and node lifecycle), from its create to N pods {@code Running} and
 *       available; the baseline is a plain client on a server without controllers making the same
 *       pods and the same writes (create with the node named, then the status {@code Running} with
 *       an IP), on four threads. Pods a second each.
 *   <li><b>garbage collection</b>: an owner with 10,000 dependent ConfigMaps deleted (background);
 *       time until the last dependent is gone, beside a plain client's {@code deletecollection} of
 *       the same 10,000 ConfigMaps by label.
 *   <li><b>namespace</b>: a namespace holding 10,000 ConfigMaps deleted; time until the namespace
 *       is gone, beside the same {@code deletecollection}.
 *   <li><b>memory</b>: the live heap a simulated node and a running pod add (after a full GC).
 * </ul>
 *
 * <p>Everything runs in process (the clients through {@code InProcessTransport}, the whole request
 * path but no HTTP). Not part of the build: run with {@code java -Xmx8g -cp
 * machinery-benchmarks/target/benchmarks.jar dev.machinery.benchmarks.ClusterLoad [replicas,...]
 * [dependents]} (defaults {@code 1000,10000} and 10000).
 */
public final class ClusterLoad {
  private static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();
  private static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  private ClusterLoad() {}

  /**
   * Runs every measurement and prints the results.
   *
   * @param args replica counts (comma-separated), dependents
   * @throws Exception when a part fails
   */
  public static void main(String[] args) throws Exception {
    List<Integer> replicas = new ArrayList<>();
    for (String n : (args.length > 0 ? args[0] : "1000,10000").split(",")) {
      replicas.add(Integer.parseInt(n.strip()));
    }
    int dependents = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    // Warm-up: a small rollout and a small baseline, not reported.
    rollout(100, 10);
    baseline(100);
    for (int n : replicas) {
      double base = baseline(n);
      double[] run = rollout(n, 100);
      System.out.printf(
          Locale.ROOT,
          "rollout %d replicas on 100 nodes: %.0f pods/s to Running and available; baseline %.0f"
              + " pods/s; ratio %.2f; heap %.1f KB a node, %.1f KB a running pod%n",
          n,
          run[0],
          base,
          run[0] / base,
          run[1] / 1024,
          run[2] / 1024);
    }
    double collection = deleteCollection(dependents);
    double gc = garbageCollection(dependents);
    double namespace = namespaceDeletion(dependents);
    System.out.printf(
        Locale.ROOT,
        "garbage collection of %d dependents: %.2f s; namespace of %d objects deleted: %.2f s;"
            + " deletecollection baseline %.2f s; ratios %.2f and %.2f%n",
        dependents,
        gc,
        dependents,
        namespace,
        collection,
        gc / collection,
        namespace / collection);
  }

  private static Client client(ApiServer server) {
    return Client.builder(InProcessTransport.of(server::handleAs))
        .scheme(SCHEME)
        .rateLimiter(RateLimiter.unlimited())
        .build();
  }

  /** Pods a second to Running and available, the heap a node adds, the heap a pod adds. */
  private static double[] rollout(int replicas, int nodes) throws Exception {
    long empty;
    try (TestApiServer bare = TestApiServer.builder().controllers(List.of()).nodes(0).start()) {
      empty = usedHeap();
    }
    try (TestApiServer server =
            TestApiServer.builder()
                .controllers(
                    List.of(
                        "deployment-controller",
                        "replicaset-controller",
                        "kube-scheduler",
                        "kubelet",
                        // Lifts the not-ready taint admission puts on every new node.
                        "node-lifecycle-controller"))
                .nodes(SimulatedNode.defaults(nodes))
                .start();
        Client client = client(server.apiServer())) {
      ResourceClient<Unstructured> nodeClient = client.resources(NODES);
      await("the nodes", () -> nodeClient.listAll(new ListOptions()).size() == nodes, 600);
      long withNodes = usedHeap();
      ResourceClient<Unstructured> deployments =
          client.resources(DEPLOYMENTS).inNamespace("default");
      long start = System.nanoTime();
      deployments.create(deployment("load", replicas));
      await(
          "the rollout",
          () -> {
            Unstructured d = deployments.get("load");
            Object status = d.content().get("status");
            return status instanceof Map<?, ?> s
                && Integer.valueOf(replicas).equals(s.get("availableReplicas"));
          },
          3600);
      double seconds = (System.nanoTime() - start) / 1e9;
      long withPods = usedHeap();
      return new double[] {
        replicas / seconds,
        (withNodes - empty) / (double) nodes,
        (withPods - withNodes) / (double) replicas
      };
    }
  }

  /** Pods a second for a plain client making the same pods and writes without controllers. */
  private static double baseline(int replicas) throws Exception {
    try (TestApiServer server = TestApiServer.builder().controllers(List.of()).nodes(0).start();
        Client client = client(server.apiServer())) {
      ResourceClient<Unstructured> pods = client.resources(PODS).inNamespace("default");
      ExecutorService threads = Executors.newFixedThreadPool(4);
      try {
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int first = t;
          done.add(
              threads.submit(
                  () -> {
                    for (int i = first; i < replicas; i += 4) {
                      Unstructured created = pods.create(pod("load-" + i, "node-" + (i % 100 + 1)));
                      Map<String, Object> status = new LinkedHashMap<>();
                      status.put("phase", "Running");
                      status.put("podIP", "10.244." + (i % 100 + 1) + "." + (i / 100 % 250 + 2));
                      status.put("conditions", List.of(Map.of("type", "Ready", "status", "True")));
                      created.content().put("status", status);
                      pods.updateStatus(created, new UpdateOptions());
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get();
        }
        return replicas / ((System.nanoTime() - start) / 1e9);
      } finally {
        threads.shutdownNow();
      }
    }
  }

  private static double garbageCollection(int dependents) throws Exception {
    try (TestApiServer server =
            TestApiServer.builder()
                .controllers(List.of("garbage-collector-controller"))
                .nodes(0)
                .start();
        Client client = client(server.apiServer())) {
      ResourceClient<Unstructured> configMaps = client.resources(CONFIGMAPS).inNamespace("default");
      Unstructured owner = configMaps.create(configMap("owner", Map.of(), null));
      fill(configMaps, dependents, owner);
      long start = System.nanoTime();
      configMaps.delete("owner", new DeleteOptions());
      await(
          "the dependents gone",
          () -> configMaps.list(dependentsSelector(1)).items().isEmpty(),
          3600);
      return (System.nanoTime() - start) / 1e9;
    }
  }

  private static double namespaceDeletion(int objects) throws Exception {
    try (TestApiServer server =
            TestApiServer.builder().controllers(List.of("namespace-controller")).nodes(0).start();
        Client client = client(server.apiServer())) {
      ResourceClient<Unstructured> namespaces = client.resources(NAMESPACES);
      Map<String, Object> ns = new LinkedHashMap<>();
      ns.put("apiVersion", "v1");
      ns.put("kind", "Namespace");
      ns.put("metadata", Map.of("name", "load"));
      namespaces.create(new Unstructured(ns));
      fill(client.resources(CONFIGMAPS).inNamespace("load"), objects, null);
      long start = System.nanoTime();
      namespaces.delete("load", new DeleteOptions());
      await(
          "the namespace gone",
          () -> {
            try {
              namespaces.get("load");
              return false;
            } catch (RuntimeException e) {
              return true;
            }
          },
          3600);
      return (System.nanoTime() - start) / 1e9;
    }
  }

  private static double deleteCollection(int objects) throws Exception {
    try (TestApiServer server = TestApiServer.builder().controllers(List.of()).nodes(0).start();
        Client client = client(server.apiServer())) {
      ResourceClient<Unstructured> configMaps = client.resources(CONFIGMAPS).inNamespace("default");
      fill(configMaps, objects, null);
      long start = System.nanoTime();
      configMaps.deleteCollection(new DeleteOptions(), dependentsSelector(0));
      return (System.nanoTime() - start) / 1e9;
    }
  }

  private static ListOptions dependentsSelector(long limit) {
    ListOptions options = new ListOptions();
    options.setLabelSelector("load=dependent");
    if (limit > 0) {
      options.setLimit(limit);
    }
    return options;
  }

  private static void fill(ResourceClient<Unstructured> configMaps, int count, Unstructured owner)
      throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int first = t;
        done.add(
            threads.submit(
                () -> {
                  for (int i = first; i < count; i += 4) {
                    configMaps.create(configMap("dependent-" + i, Map.of("k", "v"), owner));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static Unstructured configMap(String name, Map<String, String> data, Unstructured owner) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", name);
    metadata.put("labels", Map.of("load", "dependent"));
    if (owner != null) {
      metadata.put(
          "ownerReferences",
          List.of(
              Map.of(
                  "apiVersion",
                  "v1",
                  "kind",
                  "ConfigMap",
                  "name",
                  owner.getName(),
                  "uid",
                  owner.getUid())));
    }
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "v1");
    content.put("kind", "ConfigMap");
    content.put("metadata", metadata);
    content.put("data", data);
    return new Unstructured(content);
  }

  private static Unstructured deployment(String name, int replicas) {
    Map<String, Object> labels = Map.of("app", name);
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "apps/v1");
    content.put("kind", "Deployment");
    content.put("metadata", Map.of("name", name));
    content.put(
        "spec",
        Map.of(
            "replicas",
            replicas,
            "selector",
            Map.of("matchLabels", labels),
            "template",
            Map.of(
                "metadata",
                Map.of("labels", labels),
                "spec",
                Map.of(
                    "containers",
                    List.of(
                        Map.of(
                            "name",
                            "app",
                            "image",
                            "nginx:1.27",
                            "resources",
                            Map.of("requests", Map.of("cpu", "10m", "memory", "16Mi"))))))));
    return new Unstructured(content);
  }

  private static Unstructured pod(String name, String node) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "v1");
    content.put("kind", "Pod");
    content.put("metadata", Map.of("name", name, "labels", Map.of("app", "load")));
    content.put(
        "spec",
        Map.of(
            "nodeName",
            node,
            "containers",
            List.of(
                Map.of(
                    "name",
                    "app",
                    "image",
                    "nginx:1.27",
                    "resources",
                    Map.of("requests", Map.of("cpu", "10m", "memory", "16Mi"))))));
    return new Unstructured(content);
  }

  private static void await(String what, BooleanSupplier condition, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
