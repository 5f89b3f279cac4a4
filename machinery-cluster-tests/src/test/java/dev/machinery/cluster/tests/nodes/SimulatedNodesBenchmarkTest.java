package dev.machinery.cluster.tests.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.client.Client;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Pods created, scheduled and {@code Running} per second on 100 simulated nodes, beside a baseline
 * measured in the same run: the same server taking the same four writes a pod (create, bind, the
 * {@code PodScheduled} condition, the kubelet's status) from a plain client without controllers.
 * Run with {@code -Dmachinery.clusterBenchmarks=true} (and {@code -Dmachinery.bench.pods=N}); it
 * prints its figures and asserts only that every pod ran.
 */
@EnabledIfSystemProperty(named = "machinery.clusterBenchmarks", matches = "true")
class SimulatedNodesBenchmarkTest {
  private static final int PODS = Integer.getInteger("machinery.bench.pods", 1000);
  private static final int THREADS = 8;

  private static Pod pod(String name) {
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("default");
    meta.setLabels(Map.of("bench", "yes"));
    pod.setMetadata(meta);
    PodSpec spec = new PodSpec();
    Container container = new Container();
    container.setName("app");
    container.setImage("nginx");
    spec.setContainers(List.of(container));
    pod.setSpec(spec);
    return pod;
  }

  private static Client client(TestApiServer server) {
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    return Client.builder(HttpTransport.builder(server.url()).build())
        .scheme(scheme)
        .rateLimit(100_000, 100_000)
        .build();
  }

  private static void inParallel(ExecutorService pool, int count, IntTask task) throws Exception {
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      futures.add(
          pool.submit(
              () -> {
                for (int i = thread; i < count; i += THREADS) {
                  task.run(i);
                }
                return null;
              }));
    }
    for (Future<?> future : futures) {
      future.get();
    }
  }

  @FunctionalInterface
  interface IntTask {
    void run(int i) throws Exception;
  }

  private static long running(ResourceClient<Pod> pods) {
    ListOptions options = new ListOptions();
    options.setLabelSelector("bench=yes");
    options.setFieldSelector("status.phase=Running");
    return pods.listAll(options).size();
  }

  @Test
  void podsToRunningOnAHundredNodes() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      double baseline = baseline(pool);
      double simulated = simulated(pool);
      System.out.printf(
          "simulated nodes benchmark: %d pods on 100 nodes: %.0f pods/s created, scheduled and"
              + " Running; baseline (same writes, plain client, no controllers): %.0f pods/s;"
              + " ratio %.2f%n",
          PODS, simulated, baseline, simulated / baseline);
    } finally {
      pool.shutdownNow();
    }
  }

  private double simulated(ExecutorService pool) throws Exception {
    try (TestApiServer server =
            TestApiServer.builder()
                .controllers(List.of("kubelet", "kube-scheduler", "node-lifecycle-controller"))
                .nodes(100)
                .start();
        Client client = client(server)) {
      ResourceClient<Pod> pods = client.resources(Pod.class).inNamespace("default");
      Poll.until(
          "100 nodes without taints",
          java.time.Duration.ofSeconds(120),
          () ->
              client
                  .resources(dev.machinery.api.core.v1.Node.class)
                  .listAll(new ListOptions())
                  .stream()
                  .filter(n -> n.getSpec().getTaints() == null || n.getSpec().getTaints().isEmpty())
                  .count(),
          count -> count == 100);
      long start = System.nanoTime();
      inParallel(pool, PODS, i -> pods.create(pod("sim-" + i)));
      long created = System.nanoTime();
      long seen = 0;
      long lastPrint = 0;
      while (seen < PODS && System.nanoTime() - start < 240_000_000_000L) {
        Thread.sleep(100);
        seen = running(pods);
        if (System.nanoTime() - lastPrint > 5_000_000_000L) {
          lastPrint = System.nanoTime();
          System.out.printf("simulated: %d Running after %.1fs%n", seen, (lastPrint - start) / 1e9);
        }
      }
      long end = System.nanoTime();
      assertEquals(PODS, seen, "pods Running");
      System.out.printf(
          "simulated: %d pods created in %.2fs, all Running after %.2fs%n",
          PODS, (created - start) / 1e9, (end - start) / 1e9);
      return PODS / ((end - start) / 1e9);
    }
  }

  private double baseline(ExecutorService pool) throws Exception {
    try (TestApiServer server = TestApiServer.builder().controllers(List.of()).nodes(0).start();
        Client client = client(server)) {
      ResourceClient<Pod> pods = client.resources(Pod.class).inNamespace("default");
      long start = System.nanoTime();
      inParallel(
          pool,
          PODS,
          i -> {
            String name = "base-" + i;
            Pod made = pods.create(pod(name));
            pods.patch(
                name,
                PatchType.MERGE,
                "{\"spec\":{\"nodeName\":\"node-" + (i % 100 + 1) + "\"}}",
                new PatchOptions());
            pods.patch(
                name,
                PatchType.STRATEGIC_MERGE,
                "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"}]}}",
                new PatchOptions(),
                "status");
            Pod current = pods.get(name);
            PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
            status.setPhase("Running");
            status.setPodIP("10.244.0." + (i % 250 + 2));
            current.setStatus(status);
            pods.updateStatus(current, new UpdateOptions());
            if (made == null) {
              throw new IllegalStateException("no pod made");
            }
          });
      long end = System.nanoTime();
      assertEquals(PODS, running(pods), "pods Running");
      System.out.printf("baseline: %d pods in %.2fs%n", PODS, (end - start) / 1e9);
      return PODS / ((end - start) / 1e9);
    }
  }
}
