package dev.machinery.cluster.tests.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.ResourceClient;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Benchmarks, run with {@code -Dmachinery.clusterBenchmarks=true}: the garbage collection of 10,000
 * dependents of one owner, and the deletion of a namespace holding 10,000 ConfigMaps, each beside a
 * baseline measured in the same run (a plain client deleting the same objects itself). The
 * controllers' clients have no rate limit here; the figures go to standard output.
 */
@EnabledIfSystemProperty(named = "machinery.clusterBenchmarks", matches = "true")
class ClusterDeletionBenchmarkTest {
  private static final int COUNT = Integer.getInteger("machinery.clusterBenchmarks.count", 10_000);
  private static final GroupVersionResource CONFIGMAPS =
      GroupVersionResource.of("", "v1", "configmaps");

  private static Client admin(NamespaceCluster cluster) {
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    return Client.builder(
            InProcessTransport.as(
                cluster.server::handleAs, UserInfo.of("admin", List.of("system:masters"))))
        .scheme(scheme)
        .rateLimiter(RateLimiter.unlimited())
        .build();
  }

  private static Unstructured configMap(String ns, String name, String ownerUid) {
    Unstructured map = new Unstructured();
    map.setApiVersion("v1");
    map.setKind("ConfigMap");
    map.setNamespace(ns);
    map.setName(name);
    map.setField("data", Map.of("key", "value-" + name));
    if (ownerUid != null) {
      OwnerReference ref = new OwnerReference();
      ref.setApiVersion("v1");
      ref.setKind("ConfigMap");
      ref.setName("owner");
      ref.setUid(ownerUid);
      map.setOwnerReferences(List.of(ref));
    }
    return map;
  }

  private static void createMany(Client client, String ns, String prefix, String ownerUid)
      throws Exception {
    ResourceClient<Unstructured> maps = client.resources(CONFIGMAPS).inNamespace(ns);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int first = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = first; i < COUNT; i += 8) {
                    maps.create(configMap(ns, prefix + i, ownerUid));
                  }
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static int count(Client client, String ns, String prefix) {
    ListOptions options = new ListOptions();
    options.setLimit(5000L);
    return (int)
        client.resources(CONFIGMAPS).inNamespace(ns).listAll(options).stream()
            .filter(m -> m.getName().startsWith(prefix))
            .count();
  }

  private static double await(String what, BooleanSupplier condition) throws Exception {
    long start = System.nanoTime();
    long end = start + 1_800_000_000_000L;
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return (System.nanoTime() - start) / 1e9;
      }
      Thread.sleep(100);
    }
    return fail("never: " + what);
  }

  private static void namespace(Client client, String name) {
    Unstructured ns = new Unstructured();
    ns.setApiVersion("v1");
    ns.setKind("Namespace");
    ns.setName(name);
    client.resources(GroupVersionResource.of("", "v1", "namespaces")).create(ns);
  }

  @Test
  @Timeout(3600)
  void garbageCollectionOfDependentsBesideAClientDeletingThem() throws Exception {
    try (NamespaceCluster cluster =
            new NamespaceCluster(List.of("garbage-collector-controller"), true);
        Client client = admin(cluster)) {
      namespace(client, "bench-gc");
      ResourceClient<Unstructured> maps = client.resources(CONFIGMAPS).inNamespace("bench-gc");

      long start = System.nanoTime();
      createMany(client, "bench-gc", "plain-", null);
      double created = (System.nanoTime() - start) / 1e9;
      start = System.nanoTime();
      for (int i = 0; i < COUNT; i++) {
        maps.delete("plain-" + i, new DeleteOptions());
      }
      double baseline = (System.nanoTime() - start) / 1e9;

      Unstructured owner = maps.create(configMap("bench-gc", "owner", null));
      createMany(client, "bench-gc", "dependent-", owner.getUid());
      maps.delete("owner", new DeleteOptions());
      double collected =
          await("every dependent collected", () -> count(client, "bench-gc", "dependent-") == 0);
      assertEquals(0, count(client, "bench-gc", "dependent-"));
      System.out.printf(
          java.util.Locale.ROOT,
          "GC benchmark: %d ConfigMaps created by 8 client threads in %.1f s (%.0f/s); baseline,"
              + " one client deleting them one by one: %.1f s (%.0f/s); the garbage collector"
              + " collecting %d dependents of a deleted owner: %.1f s (%.0f/s)%n",
          COUNT,
          created,
          COUNT / created,
          baseline,
          COUNT / baseline,
          COUNT,
          collected,
          COUNT / collected);
    }
  }

  @Test
  @Timeout(3600)
  void namespaceDeletionBesideAClientDeletingItsContent() throws Exception {
    try (NamespaceCluster cluster = new NamespaceCluster(List.of("namespace-controller"), true);
        Client client = admin(cluster)) {
      namespace(client, "bench-baseline");
      createMany(client, "bench-baseline", "map-", null);
      long start = System.nanoTime();
      DeleteOptions background = new DeleteOptions();
      background.setPropagationPolicy("Background");
      client
          .resources(CONFIGMAPS)
          .inNamespace("bench-baseline")
          .deleteCollection(background, new ListOptions());
      double baseline = (System.nanoTime() - start) / 1e9;
      assertEquals(0, count(client, "bench-baseline", "map-"));

      namespace(client, "bench-ns");
      createMany(client, "bench-ns", "map-", null);
      start = System.nanoTime();
      client.resources(GroupVersionResource.of("", "v1", "namespaces")).delete("bench-ns");
      double gone =
          await(
              "the namespace removed",
              () -> {
                try {
                  client.resources(GroupVersionResource.of("", "v1", "namespaces")).get("bench-ns");
                  return false;
                } catch (RuntimeException e) {
                  return dev.machinery.unversioned.errors.ApiErrors.isNotFound(e);
                }
              });
      System.out.printf(
          java.util.Locale.ROOT,
          "Namespace benchmark: baseline, one deletecollection of %d ConfigMaps: %.2f s; the"
              + " namespace controller removing a namespace of %d ConfigMaps: %.2f s from the"
              + " DELETE to the namespace gone, of which %d s is kube's delay before it acts%n",
          COUNT,
          baseline,
          COUNT,
          gone,
          5);
    }
  }
}
