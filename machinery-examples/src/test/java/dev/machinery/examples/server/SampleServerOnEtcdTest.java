package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The sample server with its objects in a real etcd (started for this class), storing the built-in
 * kinds in protobuf as its {@code --storage-media-type} does by default (kube-apiserver's): the
 * kubectl suite of {@link SampleServerKubectlTest} passes unchanged; two replicas on one etcd share
 * objects and watches, each client going through its own replica, also when one stores JSON and the
 * other protobuf; a server restarted on the same etcd serves every object it had.
 */
class SampleServerOnEtcdTest {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() throws Exception {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() throws Exception {
    etcd.close();
  }

  /** A replica: a sample server on the shared etcd, served on a port of its own. */
  private record Replica(ApiServer server, JdkHttpBinding binding) implements AutoCloseable {
    static Replica start(String prefix) throws Exception {
      return start(prefix, SampleServerFlags.parse().storageMediaType());
    }

    static Replica start(String prefix, StorageMediaType mediaType) throws Exception {
      ApiServer server =
          SampleServer.builder(
                  Enablement.all(),
                  Duration.ofMillis(500),
                  null,
                  EtcdStorage.builder(etcd.endpoint()).prefix(prefix).build(),
                  ApiServer.DEFAULT_WATCH_CACHE_SIZE)
              .storageMediaType(mediaType)
              .build();
      SampleServer.loadSamples(server);
      return new Replica(
          server, server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
    }

    KubernetesClient client() {
      Config config =
          new ConfigBuilder()
              .withMasterUrl("http://127.0.0.1:" + binding.port())
              .withNamespace("default")
              .build();
      return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public void close() {
      binding.close();
      server.storage().close();
    }
  }

  private static String prefix() {
    return "/sample-" + PREFIXES.incrementAndGet() + "/";
  }

  private static ConfigMap configMap(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(Map.of("k", value))
        .build();
  }

  @TestFactory
  Stream<DynamicTest> theKubectlSuiteOnEtcd() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the kubectl suite on etcd");
    Replica replica = Replica.start(prefix());
    return Stream.concat(
        installed.entrySet().stream()
            .map(
                e ->
                    DynamicTest.dynamicTest(
                        e.getKey(),
                        () ->
                            SampleServerKubectlTest.scenario(
                                Kubectl.of(e.getKey(), e.getValue(), replica.binding().port())))),
        Stream.of(DynamicTest.dynamicTest("stop the replica", replica::close)));
  }

  @Test
  void twoReplicasOnOneEtcdShareObjectsAndWatches() throws Exception {
    String prefix = prefix();
    try (Replica one = Replica.start(prefix);
        Replica two = Replica.start(prefix)) {
      shareObjectsAndWatches(one, two);
    }
  }

  /** Replicas amid a change of the media type: each reads what the other writes. */
  @Test
  void replicasStoringJsonAndProtobufShareObjectsAndWatches() throws Exception {
    String prefix = prefix();
    try (Replica one = Replica.start(prefix, StorageMediaType.JSON);
        Replica two = Replica.start(prefix, StorageMediaType.PROTOBUF)) {
      shareObjectsAndWatches(one, two);
      shareObjectsAndWatches(two, one);
    }
  }

  private static void shareObjectsAndWatches(Replica one, Replica two) throws Exception {
    try (KubernetesClient first = one.client();
        KubernetesClient second = two.client()) {
      List<String> seen = new CopyOnWriteArrayList<>();
      Watch watch =
          second
              .configMaps()
              .watch(
                  new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                      seen.add(action + " " + resource.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  });
      try {
        ConfigMap created = first.configMaps().resource(configMap("shared", "1")).create();
        ConfigMap read = second.configMaps().withName("shared").get();
        assertEquals("1", read.getData().get("k"));
        assertEquals(
            created.getMetadata().getResourceVersion(), read.getMetadata().getResourceVersion());
        assertTrue(
            second.configMaps().list().getItems().stream()
                .anyMatch(c -> c.getMetadata().getName().equals("shared")));
        first
            .configMaps()
            .withName("shared")
            .edit(
                c -> {
                  c.getData().put("k", "2");
                  return c;
                });
        assertEquals("2", second.configMaps().withName("shared").get().getData().get("k"));
        assertEquals(1, second.configMaps().withName("shared").delete().size());
        assertEquals(null, first.configMaps().withName("shared").get());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!seen.contains("DELETED shared") && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertTrue(
            seen.containsAll(List.of("ADDED shared", "MODIFIED shared", "DELETED shared")),
            seen.toString());
      } finally {
        watch.close();
      }
    }
  }

  /**
   * A list at a revision etcd has compacted, as client-go's reflectors relist after a watch ends
   * (their last revision, no limit): listed, as kube-apiserver lists it (a state not older than
   * it); asked exactly ({@code resourceVersionMatch=Exact}, or with a limit) it is {@code 410} in
   * kube-apiserver's words (Kubernetes' {@code TestListOptions}). Through fabric8's client.
   */
  @Test
  void aListAtACompactedRevisionIsAnsweredAsKubeApiserverAnswersIt() throws Exception {
    try (Replica replica = Replica.start(prefix());
        KubernetesClient client = replica.client()) {
      String first =
          client
              .configMaps()
              .resource(configMap("first", "1"))
              .create()
              .getMetadata()
              .getResourceVersion();
      client.configMaps().resource(configMap("second", "2")).create();
      replica.server().storage().compact(replica.server().storage().currentRevision());

      Set<String> names = new TreeSet<>();
      client
          .configMaps()
          .list(new ListOptionsBuilder().withResourceVersion(first).build())
          .getItems()
          .forEach(c -> names.add(c.getMetadata().getName()));
      assertTrue(names.containsAll(Set.of("first", "second")), names.toString());
      assertEquals(
          2,
          client
              .configMaps()
              .list(
                  new ListOptionsBuilder()
                      .withResourceVersion(first)
                      .withResourceVersionMatch("NotOlderThan")
                      .withLimit(2L)
                      .build())
              .getItems()
              .size());
      for (var exact :
          List.of(
              new ListOptionsBuilder()
                  .withResourceVersion(first)
                  .withResourceVersionMatch("Exact")
                  .build(),
              new ListOptionsBuilder().withResourceVersion(first).withLimit(1L).build())) {
        KubernetesClientException gone =
            assertThrows(KubernetesClientException.class, () -> client.configMaps().list(exact));
        assertEquals(410, gone.getCode());
        assertTrue(
            gone.getMessage().contains("The resourceVersion for the provided list is too old."),
            gone.getMessage());
      }
    }
  }

  @Test
  void aRestartedServerServesEveryObjectItHad() throws Exception {
    String prefix = prefix();
    String version;
    try (Replica before = Replica.start(prefix);
        KubernetesClient client = before.client()) {
      version =
          client
              .configMaps()
              .resource(configMap("kept", "v"))
              .create()
              .getMetadata()
              .getResourceVersion();
    }
    try (Replica after = Replica.start(prefix);
        KubernetesClient client = after.client()) {
      ConfigMap kept = client.configMaps().withName("kept").get();
      assertNotNull(kept, "the object outlived the server");
      assertEquals(version, kept.getMetadata().getResourceVersion());
      assertNotNull(client.apps().deployments().withName("hello").get());
      assertEquals(2, client.namespaces().list().getItems().size());
    }
  }

  /**
   * The keys the server writes, read back from etcd's own API (not through the store): those
   * kube-apiserver writes for the same objects, with the prefix applied once (Kubernetes'
   * test/integration/etcd/data.go lists them).
   */
  @Test
  void objectsAreWhereKubeApiserverKeepsThem() throws Exception {
    try (Replica replica = Replica.start("/registry/");
        KubernetesClient client = replica.client()) {
      client.configMaps().resource(configMap("cm1", "v")).create();
      client
          .services()
          .resource(
              new ServiceBuilder()
                  .withNewMetadata()
                  .withName("service1")
                  .endMetadata()
                  .withNewSpec()
                  .addNewPort()
                  .withPort(10000)
                  .endPort()
                  .endSpec()
                  .build())
          .create();
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .resource(
              new CustomResourceDefinitionBuilder()
                  .withNewMetadata()
                  .withName("foos.cr.bar.com")
                  .endMetadata()
                  .withNewSpec()
                  .withGroup("cr.bar.com")
                  .withScope("Namespaced")
                  .withNewNames()
                  .withPlural("foos")
                  .withKind("Foo")
                  .endNames()
                  .addNewVersion()
                  .withName("v1")
                  .withServed(true)
                  .withStorage(true)
                  .withNewSchema()
                  .withNewOpenAPIV3Schema()
                  .withType("object")
                  .withXKubernetesPreserveUnknownFields(true)
                  .endOpenAPIV3Schema()
                  .endSchema()
                  .endVersion()
                  .endSpec()
                  .build())
          .create();
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName("foos.cr.bar.com")
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(
                              x ->
                                  x.getType().equals("Established")
                                      && x.getStatus().equals("True")),
              10,
              TimeUnit.SECONDS);
      GenericKubernetesResource foo = new GenericKubernetesResource();
      foo.setApiVersion("cr.bar.com/v1");
      foo.setKind("Foo");
      foo.setMetadata(new ObjectMetaBuilder().withName("cr1foo").build());
      client
          .genericKubernetesResources("cr.bar.com/v1", "Foo")
          .inNamespace("default")
          .resource(foo)
          .create();

      Set<String> keys = etcdKeys("/registry/");
      for (String expected :
          List.of(
              "/registry/configmaps/default/cm1",
              "/registry/services/specs/default/service1",
              "/registry/deployments/default/hello",
              "/registry/namespaces/default",
              "/registry/apiextensions.k8s.io/customresourcedefinitions/foos.cr.bar.com",
              "/registry/cr.bar.com/foos/default/cr1foo")) {
        assertTrue(keys.contains(expected), expected + " is not among etcd's keys " + keys);
      }
      for (String key : keys) {
        assertFalse(key.startsWith("/registry//"), "the prefix is applied twice: " + key);
        assertFalse(key.contains("/core/"), "a core segment kube-apiserver does not write: " + key);
      }
      // As kube-apiserver stores them: built-in kinds in protobuf, custom resources in JSON.
      for (String key :
          List.of(
              "/registry/configmaps/default/cm1",
              "/registry/services/specs/default/service1",
              "/registry/deployments/default/hello",
              "/registry/namespaces/default",
              "/registry/apiextensions.k8s.io/customresourcedefinitions/foos.cr.bar.com")) {
        String value = new String(etcdValue(key, etcd), StandardCharsets.ISO_8859_1);
        assertTrue(value.startsWith("k8s\0"), key + " is not in protobuf: " + value);
      }
      String custom =
          new String(
              etcdValue("/registry/cr.bar.com/foos/default/cr1foo", etcd), StandardCharsets.UTF_8);
      assertTrue(custom.startsWith("{\"apiVersion\":\"cr.bar.com/v1\""), custom);
    }
  }

  /** One key's value, read through etcd's JSON gateway. */
  static byte[] etcdValue(String key, EtcdProcess etcd) throws Exception {
    ObjectNode range = JSON.createObjectNode();
    range.put("key", Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)));
    HttpResponse<byte[]> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(etcd.endpoint().resolve("/v3/kv/range"))
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(range)))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    JsonNode kvs = JSON.readTree(response.body()).path("kvs");
    assertEquals(1, kvs.size(), key + " is not in etcd");
    return Base64.getDecoder().decode(kvs.get(0).path("value").asText());
  }

  /** Every key below a prefix, read through etcd's JSON gateway. */
  private static Set<String> etcdKeys(String prefix) throws Exception {
    byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
    byte[] end = start.clone();
    end[end.length - 1]++;
    ObjectNode range = JSON.createObjectNode();
    range.put("key", Base64.getEncoder().encodeToString(start));
    range.put("range_end", Base64.getEncoder().encodeToString(end));
    range.put("keys_only", true);
    HttpResponse<byte[]> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(etcd.endpoint().resolve("/v3/kv/range"))
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(range)))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    Set<String> keys = new TreeSet<>();
    for (JsonNode kv : JSON.readTree(response.body()).path("kvs")) {
      keys.add(
          new String(Base64.getDecoder().decode(kv.get("key").asText()), StandardCharsets.UTF_8));
    }
    return keys;
  }
}
