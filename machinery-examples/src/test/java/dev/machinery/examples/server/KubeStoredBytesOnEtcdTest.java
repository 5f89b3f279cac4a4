package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bytes kube-apiserver keeps in etcd, read and written here: Kubernetes' serialization fixtures
 * (kubernetes/api testdata v1.33.0, in machinery-test-fixtures: each kind's protobuf encoding, the
 * value kube-apiserver stores, beside its JSON) put at kube-apiserver's key in a real etcd are
 * answered by the sample server's GET, LIST and watch as the fixture's JSON, but for the
 * resourceVersion, which is etcd's revision of the key; and what the server writes is that
 * protobuf: the fixture, changed through the server, is stored as Kubernetes' encoding of the
 * changed fixture, byte for byte. The fixtures name their objects {@code nameValue} in {@code
 * namespaceValue}, which no path may name (a namespace is a DNS label); both files are read with
 * those two words in lower case, which keeps every length, so the protobuf bytes are otherwise
 * Kubernetes' own.
 */
class KubeStoredBytesOnEtcdTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaProtobufCodec KUBE = SchemaProtobufCodec.create(KubeProtos.v1_33());
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static EtcdProcess etcd;
  private static ApiServer server;
  private static JdkHttpBinding binding;

  /**
   * One fixture and where kube-apiserver keeps it: its etcd key (test/integration/etcd/data.go's
   * layout) and the path the server serves it at.
   */
  record Row(String fixture, String key, String path) {
    @Override
    public String toString() {
      return fixture;
    }
  }

  private static final String NS = "namespacevalue";
  private static final String NAME = "namevalue";

  static Stream<Row> fixtures() {
    return Stream.of(
        core("ConfigMap", "configmaps", "configmaps"),
        core("Secret", "secrets", "secrets"),
        core("Pod", "pods", "pods"),
        core("Service", "services/specs", "services"),
        core("Endpoints", "services/endpoints", "endpoints"),
        core("ServiceAccount", "serviceaccounts", "serviceaccounts"),
        core("PersistentVolumeClaim", "persistentvolumeclaims", "persistentvolumeclaims"),
        core("ReplicationController", "controllers", "replicationcontrollers"),
        new Row("core.v1.Namespace", "/registry/namespaces/" + NAME, "/api/v1/namespaces/" + NAME),
        new Row("core.v1.Node", "/registry/minions/" + NAME, "/api/v1/nodes/" + NAME),
        group("apps.v1.Deployment", "deployments", "deployments"),
        group("apps.v1.StatefulSet", "statefulsets", "statefulsets"),
        group("apps.v1.DaemonSet", "daemonsets", "daemonsets"),
        group("batch.v1.Job", "jobs", "jobs"),
        group("batch.v1.CronJob", "cronjobs", "cronjobs"),
        group("rbac.authorization.k8s.io.v1.Role", "roles", "roles"),
        group("coordination.k8s.io.v1.Lease", "leases", "leases"),
        group("networking.k8s.io.v1.Ingress", "ingress", "ingresses"),
        group("policy.v1.PodDisruptionBudget", "poddisruptionbudgets", "poddisruptionbudgets"),
        new Row(
            "rbac.authorization.k8s.io.v1.ClusterRole",
            "/registry/clusterroles/" + NAME,
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/" + NAME));
  }

  private static Row core(String kind, String keyResource, String resource) {
    return new Row(
        "core.v1." + kind,
        "/registry/" + keyResource + "/" + NS + "/" + NAME,
        "/api/v1/namespaces/" + NS + "/" + resource + "/" + NAME);
  }

  private static Row group(String fixture, String keyResource, String resource) {
    GroupVersionKind kind = kind(fixture);
    return new Row(
        fixture,
        "/registry/" + keyResource + "/" + NS + "/" + NAME,
        "/apis/"
            + kind.group()
            + "/"
            + kind.version()
            + "/namespaces/"
            + NS
            + "/"
            + resource
            + "/"
            + NAME);
  }

  @BeforeAll
  static void start() throws Exception {
    etcd = EtcdProcess.start();
    server =
        SampleServer.builder(
                Enablement.all(),
                Duration.ofMillis(500),
                null,
                EtcdStorage.builder(etcd.endpoint()).prefix("/registry/").build(),
                ApiServer.DEFAULT_WATCH_CACHE_SIZE)
            .storageMediaType(StorageMediaType.PROTOBUF)
            .build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterAll
  static void stop() throws IOException {
    if (binding != null) {
      binding.close();
      server.storage().close();
    }
    etcd.close();
  }

  private static byte[] fixture(String name) {
    try (InputStream in =
        KubeStoredBytesOnEtcdTest.class.getResourceAsStream("/k8s-api-testdata/v1.33.0/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + name + " in machinery-test-fixtures");
      }
      return lowerCaseNames(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fixture with {@code nameValue} and {@code namespaceValue} in lower case, in place. */
  private static byte[] lowerCaseNames(byte[] data) {
    for (String word : List.of("namespaceValue", "nameValue")) {
      byte[] from = word.getBytes(StandardCharsets.US_ASCII);
      byte[] to = word.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i + from.length <= data.length; i++) {
        if (java.util.Arrays.equals(data, i, i + from.length, from, 0, from.length)) {
          System.arraycopy(to, 0, data, i, to.length);
        }
      }
    }
    return data;
  }

  /** {@code apps.v1.Deployment} is {@code apps/v1, Kind=Deployment}; {@code core} is "". */
  private static GroupVersionKind kind(String name) {
    String[] parts = name.split("\\.");
    String group = String.join(".", List.of(parts).subList(0, parts.length - 2));
    return GroupVersionKind.of(
        group.equals("core") ? "" : group, parts[parts.length - 2], parts[parts.length - 1]);
  }

  /**
   * The fixture's JSON as the server answers it: at the revision etcd wrote it in; a StatefulSet's
   * claim templates with the {@code apiVersion} and {@code kind} kube-apiserver's apps/v1
   * conversion sets on every read (the fixtures are the versioned objects as marshalled, without
   * that conversion).
   */
  private static ObjectNode expected(Row row, long revision) throws IOException {
    ObjectNode expected = (ObjectNode) JSON.readTree(fixture(row.fixture() + ".json"));
    ((ObjectNode) expected.get("metadata")).put("resourceVersion", Long.toString(revision));
    if (row.fixture().equals("apps.v1.StatefulSet")) {
      for (JsonNode template : expected.path("spec").path("volumeClaimTemplates")) {
        ObjectNode claim = (ObjectNode) template;
        claim.put("apiVersion", "v1");
        claim.put("kind", "PersistentVolumeClaim");
      }
    }
    return expected;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void kubeApiserversValueIsServedAsTheFixturesJson(Row row) throws Exception {
    byte[] value = fixture(row.fixture() + ".pb");
    long revision = put(row.key(), value);
    ObjectNode expected = expected(row, revision);

    JsonNode got = get(row.path());
    assertEquals(expected, got, row.fixture());

    String collection = row.path().substring(0, row.path().lastIndexOf('/'));
    JsonNode list = get(collection + "?fieldSelector=metadata.name%3D" + NAME);
    assertEquals(1, list.path("items").size(), list.toString());
    JsonNode item = list.path("items").get(0).deepCopy();
    // A list's items carry no apiVersion and kind, as kube-apiserver writes them.
    ObjectNode typed = expected.deepCopy();
    if (!item.has("kind")) {
      typed.remove("kind");
      typed.remove("apiVersion");
    }
    assertEquals(typed, item, row.fixture() + " listed");

    List<String> events = watch(collection, revision - 1);
    JsonNode event = JSON.readTree(events.get(0));
    assertEquals("ADDED", event.path("type").asText(), events.toString());
    assertEquals(expected, event.path("object"), row.fixture() + " watched");
  }

  /**
   * The reverse: a change made through the server to kube-apiserver's value is stored as
   * Kubernetes' own encoding of the changed object, byte for byte, in the fixture's envelope.
   */
  @Test
  void aChangeThroughTheServerIsStoredAsKubernetesEncodesIt() throws Exception {
    Row at =
        new Row(
            "core.v1.ConfigMap",
            "/registry/configmaps/" + NS + "/rewritten",
            "/api/v1/namespaces/" + NS + "/configmaps/rewritten");
    ObjectNode fixture = (ObjectNode) JSON.readTree(fixture("core.v1.ConfigMap.json"));
    // Valid for an update where the fuzzer's values are not, as kube-apiserver validates them.
    ObjectNode metadata = (ObjectNode) fixture.get("metadata");
    metadata.put("name", "rewritten");
    metadata.put("generateName", "generatenamevalue");
    ((ObjectNode) metadata.get("ownerReferences").get(0)).put("apiVersion", "v1");
    fixture.put("immutable", false);
    GroupVersionKind kind = kind("core.v1.ConfigMap");
    byte[] kubeBytes = KUBE.encode(kind, tree(fixture));
    put(at.key(), kubeBytes);

    HttpResponse<byte[]> patched =
        HTTP.send(
            HttpRequest.newBuilder(uri(at.path()))
                .method(
                    "PATCH",
                    HttpRequest.BodyPublishers.ofString("{\"data\":{\"added\":\"by the server\"}}"))
                .header("Content-Type", "application/merge-patch+json")
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, patched.statusCode(), new String(patched.body(), StandardCharsets.UTF_8));
    ObjectNode answer = (ObjectNode) JSON.readTree(patched.body());

    byte[] stored = SampleServerOnEtcdTest.etcdValue(at.key(), etcd);
    assertTrue(new String(stored, StandardCharsets.ISO_8859_1).startsWith("k8s\0"));
    // What Kubernetes writes for the fixture with the server's changes: the new data entry and
    // the managed fields recorded for the patch; etcd's stored values hold no resourceVersion.
    ObjectNode changed = fixture.deepCopy();
    ((ObjectNode) changed.get("data")).put("added", "by the server");
    JsonNode managed = answer.path("metadata").path("managedFields");
    if (managed.isMissingNode()) {
      ((ObjectNode) changed.get("metadata")).remove("managedFields");
    } else {
      ((ObjectNode) changed.get("metadata")).set("managedFields", managed);
    }
    ((ObjectNode) changed.get("metadata")).remove("resourceVersion");
    assertEquals(
        JSON.readTree(JSON.writeValueAsBytes(tree(changed))),
        JSON.readTree(JSON.writeValueAsBytes(KUBE.decode(stored))),
        "the stored object");
    assertArrayEquals(KUBE.encode(kind, tree(changed)), stored);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tree(JsonNode node) {
    return JSON.convertValue(node, Map.class);
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + binding.port() + path);
  }

  private static JsonNode get(String path) throws Exception {
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(
        200,
        response.statusCode(),
        path + ": " + new String(response.body(), StandardCharsets.UTF_8));
    return JSON.readTree(response.body());
  }

  /** The first event of a watch of a collection from a resourceVersion, by the fixture's name. */
  private static List<String> watch(String collection, long from) throws Exception {
    HttpResponse<Stream<String>> response =
        HTTP.send(
            HttpRequest.newBuilder(
                    uri(
                        collection
                            + "?watch=true&fieldSelector=metadata.name%3D"
                            + NAME
                            + "&resourceVersion="
                            + from))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, response.statusCode());
    try (Stream<String> lines = response.body()) {
      return lines.filter(l -> !l.isBlank()).limit(1).toList();
    }
  }

  /**
   * Puts a value at a key through etcd's JSON gateway, as kube-apiserver would have; its revision.
   */
  private static long put(String key, byte[] value) throws Exception {
    ObjectNode put = JSON.createObjectNode();
    put.put("key", Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)));
    put.put("value", Base64.getEncoder().encodeToString(value));
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(etcd.endpoint().resolve("/v3/kv/put"))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(put)))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    return JSON.readTree(response.body()).path("header").path("revision").asLong();
  }
}
