package dev.machinery.benchmarks;

import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.controller.cache.CacheIndexer;
import dev.machinery.controller.cache.ResourceEventHandler;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An informer over 10,000 ConfigMaps: Machinery's {@code SharedIndexInformer} (machinery-controller
 * -runtime, over machinery-client's {@code ResourceClient} of machinery-api's typed ConfigMap
 * through {@code ClientListerWatcher}, namespace index) against fabric8's {@code
 * SharedIndexInformer} 7.4.0 (its own ConfigMap model, default namespace index), both over plain
 * HTTP to the same sample server on the JDK binding in this JVM. For each: the time from {@code
 * start()} until one event handler has been told of all 10,000 objects, and the heap the informer
 * retains per object: the heap in use after a full collection with the informer synced, less the
 * heap in use after a full collection just before it started, divided by 10,000.
 *
 * <p>Rounds alternate which informer goes first; each informer is stopped and dropped before the
 * next is measured. Not part of the build: run with {@code java -Xmx1g -cp
 * machinery-benchmarks/target/benchmarks.jar dev.machinery.benchmarks.InformerLoad [rounds]
 * [objects]} (defaults 4 and 10,000).
 */
public final class InformerLoad {
  private static final String NAMESPACE = "inform";
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private InformerLoad() {}

  /** What one informer gave in one round. */
  private record Result(double syncMillis, double bytesPerObject) {}

  /** One informer, started, synced and stopped by a round. */
  private interface Subject {
    /** Starts the informer; the latch counts its handler's adds. Returns what must stay alive. */
    Object start(CountDownLatch adds) throws Exception;

    /** How many objects the informer's store holds. */
    int stored(Object started);

    /** Stops the informer. */
    void stop(Object started) throws Exception;
  }

  /**
   * Runs the comparison and prints a Markdown table.
   *
   * @param args rounds, objects
   * @throws Exception when the server, a client or an informer fails
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int objects = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;

    ApiServer server = SampleServer.build(Enablement.all());
    ClientLoad.post(
        server,
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
            + NAMESPACE
            + "\"}}");
    for (int i = 0; i < objects; i++) {
      ClientLoad.post(
          server,
          "/api/v1/namespaces/" + NAMESPACE + "/configmaps",
          ClientLoad.configMapJson(String.format("cm-%05d", i)));
    }
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      String url = "http://127.0.0.1:" + binding.port();
      try (Client machinery =
              Client.builder(HttpTransport.builder(URI.create(url)).build())
                  .scheme(scheme)
                  .rateLimiter(RateLimiter.unlimited())
                  .build();
          KubernetesClient fabric8 =
              new KubernetesClientBuilder()
                  .withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(url).build())
                  .build()) {
        Subject[] subjects = {machineryInformer(machinery), fabric8Informer(fabric8)};
        String[] names = {"Machinery SharedIndexInformer", "fabric8 7.4.0 SharedIndexInformer"};
        // warm-up: each informer synced once, unmeasured
        for (Subject subject : subjects) {
          run(subject, objects);
        }
        List<List<Result>> results = List.of(new ArrayList<>(), new ArrayList<>());
        for (int round = 0; round < rounds; round++) {
          for (int k = 0; k < 2; k++) {
            int which = round % 2 == 0 ? k : 1 - k;
            results.get(which).add(run(subjects[which], objects));
          }
        }
        System.out.printf(
            "%n%,d ConfigMaps (%,d bytes of JSON each as the server lists them), %d rounds;"
                + " mean (min–max)%n%n",
            objects, ClientLoad.configMapJson("cm-00000").length(), rounds);
        System.out.println(
            "| informer | sync ms | retained bytes/object | × fabric8 (sync) | × fabric8 (bytes) |");
        System.out.println("| --- | ---: | ---: | ---: | ---: |");
        for (int which = 0; which < 2; which++) {
          List<Result> rs = results.get(which);
          System.out.printf(
              "| %s | %,.0f (%,.0f–%,.0f) | %,.0f (%,.0f–%,.0f) | %.2f | %.2f |%n",
              names[which],
              mean(rs, true),
              rs.stream().mapToDouble(Result::syncMillis).min().orElse(0),
              rs.stream().mapToDouble(Result::syncMillis).max().orElse(0),
              mean(rs, false),
              rs.stream().mapToDouble(Result::bytesPerObject).min().orElse(0),
              rs.stream().mapToDouble(Result::bytesPerObject).max().orElse(0),
              mean(rs, true) / mean(results.get(1), true),
              mean(rs, false) / mean(results.get(1), false));
        }
      }
    }
  }

  private static double mean(List<Result> results, boolean sync) {
    return results.stream()
        .mapToDouble(sync ? Result::syncMillis : Result::bytesPerObject)
        .average()
        .orElse(0);
  }

  private static Result run(Subject subject, int objects) throws Exception {
    long before = usedAfterGc();
    CountDownLatch adds = new CountDownLatch(objects);
    long start = System.nanoTime();
    Object started = subject.start(adds);
    if (!adds.await(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the informer did not sync in five minutes");
    }
    double syncMillis = (System.nanoTime() - start) / 1e6;
    long after = usedAfterGc();
    int stored = subject.stored(started);
    if (stored != objects) {
      throw new IllegalStateException("the informer holds " + stored + ", not " + objects);
    }
    Reference.reachabilityFence(started);
    subject.stop(started);
    return new Result(syncMillis, (after - before) / (double) objects);
  }

  /** The heap in use after full collections, once it stops shrinking. */
  private static long usedAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      Thread.sleep(50);
      long now = MEMORY.getHeapMemoryUsage().getUsed();
      if (now >= used - 64 * 1024) {
        return Math.min(now, used);
      }
      used = now;
    }
    return used;
  }

  private static Subject machineryInformer(Client client) {
    return new Subject() {
      @Override
      public Object start(CountDownLatch adds) {
        SharedIndexInformer<dev.machinery.api.core.v1.ConfigMap> informer =
            new SharedIndexInformer<>(
                "configmaps",
                new ClientListerWatcher<>(
                    client
                        .resources(dev.machinery.api.core.v1.ConfigMap.class)
                        .inNamespace(NAMESPACE)),
                Duration.ZERO,
                CacheIndexer.namespaceIndexers(),
                Clock.system());
        informer.addEventHandler(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(dev.machinery.api.core.v1.ConfigMap object, boolean initial) {
                adds.countDown();
              }
            });
        informer.start();
        return informer;
      }

      @Override
      public int stored(Object started) {
        return ((SharedIndexInformer<?>) started).indexer().list().size();
      }

      @Override
      public void stop(Object started) throws InterruptedException {
        ((SharedIndexInformer<?>) started).stop();
      }
    };
  }

  private static Subject fabric8Informer(KubernetesClient client) {
    return new Subject() {
      @Override
      public Object start(CountDownLatch adds) {
        io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap> informer =
            client.configMaps().inNamespace(NAMESPACE).runnableInformer(0);
        informer.addEventHandler(
            new io.fabric8.kubernetes.client.informers.ResourceEventHandler<ConfigMap>() {
              @Override
              public void onAdd(ConfigMap object) {
                adds.countDown();
              }

              @Override
              public void onUpdate(ConfigMap before, ConfigMap after) {}

              @Override
              public void onDelete(ConfigMap object, boolean finalStateUnknown) {}
            });
        informer.start();
        return informer;
      }

      @Override
      public int stored(Object started) {
        return ((io.fabric8.kubernetes.client.informers.SharedIndexInformer<?>) started)
            .getStore()
            .list()
            .size();
      }

      @Override
      public void stop(Object started) {
        ((io.fabric8.kubernetes.client.informers.SharedIndexInformer<?>) started).stop();
      }
    };
  }
}
