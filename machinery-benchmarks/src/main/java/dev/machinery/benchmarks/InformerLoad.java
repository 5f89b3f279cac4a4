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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

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
        Subject[] subjects = {
          machineryInformer(machinery),
          fabric8Informer(fabric8),
          machineryList(machinery),
          fabric8List(fabric8)
        };
        String[] names = {
          "Machinery SharedIndexInformer",
          "fabric8 7.4.0 SharedIndexInformer",
          "baseline: Machinery's client, one LIST, the items held",
          "baseline: fabric8's client, one LIST, the items held"
        };
        // warm-up: each informer synced twice, unmeasured (the first sync also makes what the
        // server builds on a first list and watch), the second with the classes it retains printed
        for (Subject subject : subjects) {
          run(subject, objects, false);
        }
        for (int which = 0; which < subjects.length; which++) {
          System.out.println("What " + names[which] + " retains, by class (top 12):");
          run(subjects[which], objects, true);
        }
        List<List<Result>> results = new ArrayList<>();
        for (int which = 0; which < subjects.length; which++) {
          results.add(new ArrayList<>());
        }
        for (int round = 0; round < rounds; round++) {
          for (int k = 0; k < subjects.length; k++) {
            int which = round % 2 == 0 ? k : subjects.length - 1 - k;
            results.get(which).add(run(subjects[which], objects, false));
          }
        }
        int size =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create(
                                url + "/api/v1/namespaces/" + NAMESPACE + "/configmaps/cm-00000"))
                        .build(),
                    HttpResponse.BodyHandlers.ofByteArray())
                .body()
                .length;
        System.out.printf(
            "%n%,d ConfigMaps (%,d bytes of JSON each as the server answers a GET), %d rounds;"
                + " mean (min–max)%n%n",
            objects, size, rounds);
        System.out.println(
            "| informer | sync ms | retained bytes/object | × fabric8 (sync) | × fabric8 (bytes) |");
        System.out.println("| --- | ---: | ---: | ---: | ---: |");
        for (int which = 0; which < subjects.length; which++) {
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

  private static Result run(Subject subject, int objects, boolean histogram) throws Exception {
    Map<String, long[]> classesBefore = histogram ? histogram() : Map.of();
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
    if (histogram) {
      printGrowth(classesBefore, histogram(), objects);
    }
    Reference.reachabilityFence(started);
    subject.stop(started);
    return new Result(syncMillis, (after - before) / (double) objects);
  }

  /** Live instances and bytes a class, from the JVM's class histogram (after a full collection). */
  private static Map<String, long[]> histogram() throws Exception {
    String text =
        (String)
            ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {null},
                    new String[] {String[].class.getName()});
    Map<String, long[]> classes = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields.length >= 4 && fields[0].endsWith(":")) {
        classes.put(fields[3], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
      }
    }
    return classes;
  }

  private static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int n) {
    List<Map.Entry<String, long[]>> growth = new ArrayList<>();
    for (Map.Entry<String, long[]> entry : after.entrySet()) {
      long[] was = before.getOrDefault(entry.getKey(), new long[2]);
      growth.add(
          Map.entry(
              entry.getKey(),
              new long[] {entry.getValue()[0] - was[0], entry.getValue()[1] - was[1]}));
    }
    growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    for (Map.Entry<String, long[]> entry : growth.subList(0, Math.min(12, growth.size()))) {
      System.out.printf(
          "  %-70s %8.1f instances/object %8.1f bytes/object%n",
          entry.getKey(), entry.getValue()[0] / (double) n, entry.getValue()[1] / (double) n);
    }
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

  /** The baseline: the objects alone, as one LIST of the client hands them out, held in a list. */
  private static Subject machineryList(Client client) {
    return new Subject() {
      @Override
      public Object start(CountDownLatch adds) {
        List<?> items =
            client
                .resources(dev.machinery.api.core.v1.ConfigMap.class)
                .inNamespace(NAMESPACE)
                .list(new dev.machinery.unversioned.meta.v1.ListOptions())
                .items();
        for (int i = 0; i < items.size(); i++) {
          adds.countDown();
        }
        return items;
      }

      @Override
      public int stored(Object started) {
        return ((List<?>) started).size();
      }

      @Override
      public void stop(Object started) {}
    };
  }

  /** The baseline for fabric8: one LIST, the items held. */
  private static Subject fabric8List(KubernetesClient client) {
    return new Subject() {
      @Override
      public Object start(CountDownLatch adds) {
        List<?> items = client.configMaps().inNamespace(NAMESPACE).list().getItems();
        for (int i = 0; i < items.size(); i++) {
          adds.countDown();
        }
        return items;
      }

      @Override
      public int stored(Object started) {
        return ((List<?>) started).size();
      }

      @Override
      public void stop(Object started) {}
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
