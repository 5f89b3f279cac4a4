package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.core.CoreV1;
import dev.machinery.examples.core.Namespace;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sample server over HTTP with the JDK's client: Kubernetes' request semantics (status codes,
 * Status bodies, pages, watches, subresources, finalizers, dry runs, field validation, protobuf
 * bodies) and hostile clients (huge and deep bodies, malformed headers, patch bombs, slow and idle
 * connections, a thousand concurrent requests): the server answers each with a Status and keeps
 * serving the others.
 */
class SampleServerHttpTest {
  /** The binding under test: {@code jdk} here, {@code netty} in the subclass. */
  String httpBinding() {
    return "jdk";
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiServer server;
  private HttpBinding binding;
  private HttpClient client;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    base = "http://127.0.0.1:" + binding.port();
  }

  @AfterEach
  void stop() {
    binding.close();
    server.storage().close();
  }

  private HttpResponse<String> send(String method, String path, String contentType, String body)
      throws Exception {
    return send(method, path, contentType, body, "application/json");
  }

  private HttpResponse<String> send(
      String method, String path, String contentType, String body, String accept) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (accept != null) {
      request.header("Accept", accept);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  /** A response is a Kubernetes Status of the given code and reason. */
  private static JsonNode assertStatus(HttpResponse<String> response, int code, String reason)
      throws Exception {
    assertEquals(code, response.statusCode(), response.body());
    JsonNode status = json(response);
    assertEquals("Status", status.path("kind").asText(), response.body());
    assertEquals("v1", status.path("apiVersion").asText());
    assertEquals("Failure", status.path("status").asText());
    assertEquals(code, status.path("code").asInt());
    assertEquals(reason, status.path("reason").asText(), response.body());
    return status;
  }

  private String configMap(String name, String labels) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{"
        + labels
        + "}},\"data\":{\"k\":\"v\"}}";
  }

  private void create(String name, String labels) throws Exception {
    assertEquals(
        201,
        send(
                "POST",
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                configMap(name, labels))
            .statusCode());
  }

  @Test
  void errorsAreStatusesWithKubernetesReasonsAndWording() throws Exception {
    JsonNode notFound =
        assertStatus(
            send("GET", "/api/v1/namespaces/default/configmaps/nope", null, null), 404, "NotFound");
    assertEquals("configmaps \"nope\" not found", notFound.path("message").asText());
    assertEquals("nope", notFound.path("details").path("name").asText());
    assertEquals("configmaps", notFound.path("details").path("kind").asText());
    assertStatus(send("GET", "/apis/nope.example/v1/things", null, null), 404, "NotFound");
    JsonNode exists =
        assertStatus(
            send(
                "POST",
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                configMap("greeting", "")),
            409,
            "AlreadyExists");
    assertEquals("configmaps \"greeting\" already exists", exists.path("message").asText());
    JsonNode invalid =
        assertStatus(
            send(
                "POST",
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                configMap("Not_Valid", "")),
            422,
            "Invalid");
    assertTrue(
        invalid
            .path("message")
            .asText()
            .startsWith(
                "ConfigMap \"Not_Valid\" is invalid: metadata.name: Invalid value: \"Not_Valid\""));
    assertEquals(
        "metadata.name", invalid.path("details").path("causes").get(0).path("field").asText());
    assertStatus(
        send(
            "POST",
            "/api/v1/namespaces/missing/configmaps",
            "application/json",
            configMap("x", "")),
        404,
        "NotFound");
    assertStatus(
        send(
            "PUT",
            "/api/v1/namespaces/default/configmaps/greeting",
            "application/json",
            configMap("greeting", "")
                .replace(
                    "\"name\":\"greeting\"", "\"name\":\"greeting\",\"resourceVersion\":\"1\"")),
        409,
        "Conflict");
    assertStatus(
        send(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "application/json",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"x\"}}"),
        400,
        "BadRequest");
  }

  @Test
  void aConfigMapWrittenAsYamlReadsBackAsYamlAndJsonUnchanged() throws Exception {
    String manifest =
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata:\n"
            + "  name: yaml-trip\n"
            + "  labels:\n"
            + "    tier: \"1_000\"\n"
            + "data:\n"
            + "  script: |\n"
            + "    #!/bin/sh\n"
            + "    echo \"hello: world\"\n"
            + "  version: \"1.10\"\n"
            + "  answer: 'yes'\n"
            + "  date: \"2026-11-25\"\n"
            + "  empty: \"\"\n"
            + "  unicode: \"tab\\there \\u00e9 😀\"\n";
    HttpResponse<String> created =
        send("POST", "/api/v1/namespaces/default/configmaps", "application/yaml", manifest);
    assertEquals(201, created.statusCode(), created.body());
    HttpResponse<String> yaml =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps/yaml-trip",
            null,
            null,
            "application/yaml");
    assertEquals(200, yaml.statusCode(), yaml.body());
    JsonNode asJson =
        json(send("GET", "/api/v1/namespaces/default/configmaps/yaml-trip", null, null));
    JsonNode data = asJson.path("data");
    assertEquals("#!/bin/sh\necho \"hello: world\"\n", data.path("script").asText());
    assertEquals("1.10", data.path("version").asText());
    assertEquals("yes", data.path("answer").asText());
    assertEquals("2026-11-25", data.path("date").asText());
    assertEquals("", data.path("empty").asText());
    assertEquals("tab\there é 😀", data.path("unicode").asText());
    assertEquals("1_000", asJson.path("metadata").path("labels").path("tier").asText());
    // The YAML the server wrote reads back (through another YAML parser) as the JSON it serves.
    JsonNode fromYaml =
        new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml.body());
    assertEquals(asJson.path("data"), fromYaml.path("data"), yaml.body());
    assertEquals(asJson.path("metadata").path("labels"), fromYaml.path("metadata").path("labels"));
    assertTrue(yaml.body().contains("  script: |\n    #!/bin/sh\n"), yaml.body());
  }

  @Test
  void negotiationRefusesWhatItCannotServeOrRead() throws Exception {
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps", null, null, "application/xml"),
        406,
        "NotAcceptable");
    assertStatus(
        send("POST", "/api/v1/namespaces/default/configmaps", "text/plain", "name: x"),
        415,
        "UnsupportedMediaType");
    HttpResponse<String> yaml =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps/greeting",
            null,
            null,
            "application/yaml");
    assertEquals(200, yaml.statusCode());
    assertTrue(yaml.body().contains("kind: ConfigMap"), yaml.body());
    HttpResponse<String> partial =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps",
            null,
            null,
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1");
    assertEquals(200, partial.statusCode(), partial.body());
    assertEquals("PartialObjectMetadataList", json(partial).path("kind").asText());
    HttpResponse<String> table =
        send(
            "GET",
            "/apis/demo.example.dev/v1beta1/namespaces/default/rollouts",
            null,
            null,
            "application/json;as=Table;v=v1;g=meta.k8s.io");
    assertEquals("Table", json(table).path("kind").asText());
    assertEquals("Ready", json(table).path("columnDefinitions").get(1).path("name").asText());
    assertEquals("0/2", json(table).path("rows").get(0).path("cells").get(1).asText());
  }

  @Test
  void listsPageAtTheRevisionOfTheFirstPage() throws Exception {
    create("page-a", "\"page\":\"yes\"");
    create("page-b", "\"page\":\"yes\"");
    create("page-c", "\"page\":\"yes\"");
    JsonNode first =
        json(
            send(
                "GET",
                "/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&limit=2",
                null,
                null));
    assertEquals(2, first.path("items").size());
    String token = first.path("metadata").path("continue").asText();
    assertFalse(token.isEmpty());
    assertEquals(
        200,
        send("DELETE", "/api/v1/namespaces/default/configmaps/page-c", null, null).statusCode());
    JsonNode second =
        json(
            send(
                "GET",
                "/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&limit=2&continue="
                    + token,
                null,
                null));
    assertEquals(1, second.path("items").size());
    assertEquals("page-c", second.path("items").get(0).path("metadata").path("name").asText());
    assertEquals(
        first.path("metadata").path("resourceVersion"),
        second.path("metadata").path("resourceVersion"));
    assertTrue(
        second.path("metadata").path("continue").isMissingNode()
            || second.path("metadata").path("continue").isNull());
    server.storage().compact(server.storage().currentRevision());
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps?limit=2&continue=" + token, null, null),
        410,
        "Expired");
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps?continue=not-a-token", null, null),
        400,
        "BadRequest");
  }

  @Test
  void watchesStreamFromAResourceVersionWithBookmarksAndTimeouts() throws Exception {
    String rv =
        json(send("GET", "/api/v1/namespaces/default/configmaps", null, null))
            .path("metadata")
            .path("resourceVersion")
            .asText();
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    base
                        + "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                        + rv
                        + "&timeoutSeconds=5"))
            .build();
    HttpResponse<InputStream> response =
        client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(200, response.statusCode());
    create("watched", "");
    send(
        "PATCH",
        "/api/v1/namespaces/default/configmaps/watched",
        "application/merge-patch+json",
        "{\"data\":{\"k\":\"w\"}}");
    send("DELETE", "/api/v1/namespaces/default/configmaps/watched", null, null);
    List<String> types = new ArrayList<>();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        JsonNode event = JSON.readTree(line);
        types.add(
            event.path("type").asText()
                + " "
                + event.path("object").path("metadata").path("name").asText());
      }
    }
    assertEquals(List.of("ADDED watched", "MODIFIED watched", "DELETED watched"), types);

    server.storage().compact(server.storage().currentRevision());
    HttpResponse<String> expired =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv,
            null,
            null);
    JsonNode error = JSON.readTree(expired.body().lines().findFirst().orElseThrow());
    assertEquals("ERROR", error.path("type").asText());
    assertEquals(410, error.path("object").path("code").asInt());
    assertTrue(
        error
            .path("object")
            .path("message")
            .asText()
            .startsWith("too old resource version: " + rv));
  }

  @Test
  void bookmarksCarryTheCurrentResourceVersion() throws Exception {
    binding.close();
    server = SampleServer.build(Enablement.all(), Duration.ofMillis(200));
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
    base = "http://127.0.0.1:" + binding.port();
    HttpResponse<String> response =
        send(
            "GET",
            "/apis/apps/v1/deployments?watch=true&allowWatchBookmarks=true&timeoutSeconds=3",
            null,
            null);
    List<String> types = new ArrayList<>();
    String bookmarkVersion = null;
    for (String line : response.body().lines().toList()) {
      JsonNode event = JSON.readTree(line);
      types.add(event.path("type").asText());
      if (event.path("type").asText().equals("BOOKMARK")) {
        bookmarkVersion = event.path("object").path("metadata").path("resourceVersion").asText();
        assertEquals("Deployment", event.path("object").path("kind").asText());
      }
    }
    assertEquals("ADDED", types.get(0));
    assertTrue(types.contains("BOOKMARK"), types.toString());
    assertEquals(Long.toString(server.storage().currentRevision()), bookmarkVersion);
  }

  @Test
  void statusAndScaleSubresourcesChangeOnlyTheirPart() throws Exception {
    String path = "/apis/demo.example.dev/v1/namespaces/default/rollouts/hello";
    HttpResponse<String> status =
        send(
            "PATCH",
            path + "/status",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":9},\"status\":{\"replicas\":2,\"readyReplicas\":2}}");
    assertEquals(200, status.statusCode(), status.body());
    JsonNode deployment = json(send("GET", path, null, null));
    assertEquals(2, deployment.path("spec").path("replicas").asInt());
    assertEquals(2, deployment.path("status").path("readyReplicas").asInt());
    assertEquals(1, deployment.path("metadata").path("generation").asInt());
    HttpResponse<String> main =
        send(
            "PATCH",
            path,
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":4},\"status\":{\"replicas\":0}}");
    assertEquals(200, main.statusCode(), main.body());
    deployment = json(main);
    assertEquals(4, deployment.path("spec").path("replicas").asInt());
    assertEquals(2, deployment.path("status").path("replicas").asInt());
    assertEquals(2, deployment.path("metadata").path("generation").asInt());
    JsonNode scale = json(send("GET", path + "/scale", null, null));
    assertEquals("autoscaling/v1", scale.path("apiVersion").asText());
    assertEquals("Scale", scale.path("kind").asText());
    assertEquals(4, scale.path("spec").path("replicas").asInt());
    assertEquals("app=hello,tier in (web)", scale.path("status").path("selector").asText());
    HttpResponse<String> scaled =
        send(
            "PUT",
            path + "/scale",
            "application/json",
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"hello\",\"namespace\":\"default\"},\"spec\":{\"replicas\":6}}");
    assertEquals(200, scaled.statusCode(), scaled.body());
    assertEquals(6, json(send("GET", path, null, null)).path("spec").path("replicas").asInt());
    for (String version : List.of("v1", "v1beta1")) {
      HttpResponse<String> asScale =
          send(
              "GET",
              "/apis/demo.example.dev/" + version + "/namespaces/default/rollouts/hello",
              null,
              null,
              "application/json;as=Scale;g=meta.k8s.io;v=v1");
      assertEquals(200, asScale.statusCode(), asScale.body());
      assertEquals("Scale", json(asScale).path("kind").asText());
      assertEquals("hello", json(asScale).path("metadata").path("name").asText());
      assertEquals("default", json(asScale).path("metadata").path("namespace").asText());
      assertEquals(6, json(asScale).path("spec").path("replicas").asInt());
    }
  }

  @Test
  void aDeleteAnswersAStatusOfSuccessExceptForKindsThatReturnTheObject() throws Exception {
    HttpResponse<String> created =
        send(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "application/json",
            configMap("deleted-status", ""));
    assertEquals(201, created.statusCode(), created.body());
    String uid = json(created).path("metadata").path("uid").asText();
    HttpResponse<String> deleted =
        send("DELETE", "/api/v1/namespaces/default/configmaps/deleted-status", null, null);
    assertEquals(200, deleted.statusCode(), deleted.body());
    JsonNode status = json(deleted);
    assertEquals("Status", status.path("kind").asText());
    assertEquals("v1", status.path("apiVersion").asText());
    assertEquals("Success", status.path("status").asText());
    assertEquals("deleted-status", status.at("/details/name").asText());
    assertEquals("configmaps", status.at("/details/kind").asText());
    assertEquals(uid, status.at("/details/uid").asText());
    assertTrue(status.at("/details/group").isMissingNode(), status.toString());
    HttpResponse<String> apps =
        send(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments",
            "application/json",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"gone\"},"
                + "\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":"
                + "{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}");
    assertEquals(201, apps.statusCode(), apps.body());
    JsonNode appsStatus =
        json(send("DELETE", "/apis/apps/v1/namespaces/default/deployments/gone", null, null));
    assertEquals("apps", appsStatus.at("/details/group").asText());
    assertEquals("deployments", appsStatus.at("/details/kind").asText());
    assertEquals(
        201,
        send(
                "POST",
                "/api/v1/namespaces",
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"returned\"}}")
            .statusCode());
    JsonNode namespace = json(send("DELETE", "/api/v1/namespaces/returned", null, null));
    assertEquals("Namespace", namespace.path("kind").asText(), namespace.toString());
  }

  @Test
  void finalizersHoldDeletionAndDryRunsStoreNothing() throws Exception {
    String path = "/api/v1/namespaces/default/configmaps/held";
    assertEquals(
        201,
        send(
                "POST",
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}")
            .statusCode());
    // A delete that finalizers hold answers the object, with 200 as kube-apiserver does (202 only
    // for orphanDependents=false).
    assertEquals(200, send("DELETE", path + "?dryRun=All", null, null).statusCode());
    assertTrue(
        json(send("GET", path, null, null))
            .path("metadata")
            .path("deletionTimestamp")
            .isMissingNode());
    HttpResponse<String> held =
        send("DELETE", path, "application/json", "{\"propagationPolicy\":\"Background\"}");
    assertEquals(200, held.statusCode(), held.body());
    assertEquals("ConfigMap", json(held).path("kind").asText());
    assertFalse(
        json(send("GET", path, null, null))
            .path("metadata")
            .path("deletionTimestamp")
            .isMissingNode());
    assertEquals(
        200,
        send("PATCH", path, "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
            .statusCode());
    assertStatus(send("GET", path, null, null), 404, "NotFound");
    assertEquals(
        201,
        send(
                "POST",
                "/api/v1/namespaces/default/configmaps?dryRun=All",
                "application/json",
                configMap("dry", ""))
            .statusCode());
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps/dry", null, null), 404, "NotFound");
    create("bulk-1", "\"bulk\":\"yes\"");
    create("bulk-2", "\"bulk\":\"yes\"");
    HttpResponse<String> bulk =
        send("DELETE", "/api/v1/namespaces/default/configmaps?labelSelector=bulk", null, null);
    assertEquals(2, json(bulk).path("items").size(), bulk.body());
    assertNotNull(
        json(send("GET", "/api/v1/namespaces/default/configmaps/greeting", null, null))
            .path("metadata"));
  }

  @Test
  void fieldValidationWarnsOrRefusesUnknownFields() throws Exception {
    String body =
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"warned\"},\"extra\":1}";
    HttpResponse<String> warned =
        send(
            "POST",
            "/api/v1/namespaces/default/configmaps?fieldValidation=Warn",
            "application/json",
            body);
    assertEquals(201, warned.statusCode());
    assertEquals(
        List.of("299 - \"unknown field \\\"extra\\\"\""), warned.headers().allValues("Warning"));
    assertStatus(
        send(
            "POST",
            "/api/v1/namespaces/default/configmaps?fieldValidation=Strict",
            "application/json",
            body.replace("warned", "strict")),
        400,
        "BadRequest");
    assertEquals(
        201,
        send(
                "POST",
                "/api/v1/namespaces/default/configmaps?fieldValidation=Ignore",
                "application/json",
                body.replace("warned", "ignored"))
            .statusCode());
  }

  /**
   * A Namespace modelled in Java with its protobuf field numbers (the examples' {@code core}
   * classes), written by the library's codec, is read by the server's built-in Namespace through
   * Kubernetes' own message, and its answer in protobuf decodes back into the class.
   */
  @Test
  void protobufBodiesAreRead() throws Exception {
    Namespace namespace = new Namespace();
    namespace.setApiVersion("v1");
    namespace.setKind("Namespace");
    ObjectMeta meta = new ObjectMeta();
    meta.setName("from-protobuf");
    namespace.setMetadata(meta);
    byte[] body =
        ProtobufCodec.create(CoreV1.addToScheme(Scheme.builder()).build()).encode(namespace);
    HttpResponse<String> created =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces"))
                .header("Content-Type", ProtobufCodec.MEDIA_TYPE)
                .header("Accept", "application/vnd.kubernetes.protobuf,application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(201, created.statusCode(), created.body());
    assertEquals(
        ProtobufCodec.MEDIA_TYPE, created.headers().firstValue("Content-Type").orElseThrow());
    HttpResponse<byte[]> read =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/from-protobuf"))
                .header("Accept", "application/vnd.kubernetes.protobuf, application/json")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    Namespace back =
        ProtobufCodec.create(CoreV1.addToScheme(Scheme.builder()).build())
            .decode(read.body(), Namespace.class)
            .object();
    assertEquals("from-protobuf", back.getMetadata().getName());
    assertEquals("Active", back.getStatus().phase());
    assertNotNull(back.getMetadata().getUid());
    HttpResponse<String> asJson = send("GET", "/api/v1/namespaces/from-protobuf", null, null);
    assertEquals("Active", json(asJson).path("status").path("phase").asText());
  }

  @Test
  void theRequestLogHasOneLineARequestAndAStreamWhenItEnds() throws Exception {
    binding.close();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    server = SampleServer.build(Enablement.all(), Duration.ofMinutes(1), lines::add);
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
    base = "http://127.0.0.1:" + binding.port();
    HttpResponse<String> list =
        send("GET", "/api/v1/namespaces/default/configmaps?limit=1", null, null);
    assertRequestLine(
        "GET /api/v1/namespaces/default/configmaps?limit=1 200 "
            + list.body().getBytes(StandardCharsets.UTF_8).length
            + " bytes",
        lines.poll(10, TimeUnit.SECONDS));
    HttpResponse<String> missing =
        send("GET", "/api/v1/namespaces/default/configmaps/nope", null, null);
    assertRequestLine(
        "GET /api/v1/namespaces/default/configmaps/nope 404 "
            + missing.body().getBytes(StandardCharsets.UTF_8).length
            + " bytes",
        lines.poll(10, TimeUnit.SECONDS));
    send("HEAD", "/api", null, null);
    assertRequestLine("HEAD /api 200 0 bytes", lines.poll(10, TimeUnit.SECONDS));
    HttpResponse<String> watch =
        send(
            "GET", "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1", null, null);
    assertEquals(200, watch.statusCode());
    assertRequestLine(
        "GET /api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1 200 "
            + watch.body().getBytes(StandardCharsets.UTF_8).length
            + " bytes",
        lines.poll(10, TimeUnit.SECONDS));
    assertEquals(null, lines.poll());
  }

  /** A request log line is the expected text, then the time taken in whole milliseconds. */
  private static void assertRequestLine(String expected, String line) {
    assertNotNull(line, "no request log line for " + expected);
    assertTrue(line.startsWith(expected + " "), line);
    assertTrue(line.substring(expected.length() + 1).matches("[0-9]+ ms"), line);
  }

  @Test
  void aThousandMediaRangesAreReadToTheLast() throws Exception {
    HttpResponse<String> answer =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps/greeting",
            null,
            null,
            "application/x-a;v=1, ".repeat(999) + "application/json");
    assertEquals(200, answer.statusCode(), answer.body());
    assertEquals("application/json", answer.headers().firstValue("Content-Type").orElseThrow());
    assertEquals("greeting", json(answer).path("metadata").path("name").asText());
    HttpResponse<String> bare =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps/greeting",
            null,
            null,
            "application/json;foo");
    assertEquals(200, bare.statusCode(), bare.body());
    assertEquals("greeting", json(bare).path("metadata").path("name").asText());
  }

  @Test
  void hostileBodiesAreRefusedWithStatusesAndTheServerGoesOn() throws Exception {
    String big =
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\""
            + "x".repeat(10 * 1024 * 1024)
            + "\"}}";
    assertStatus(
        send("POST", "/api/v1/namespaces/default/configmaps", "application/json", big),
        413,
        "RequestEntityTooLarge");
    String deep =
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"deep\"},\"data\":"
            + "[".repeat(10_000)
            + "]".repeat(10_000)
            + "}";
    assertStatus(
        send("POST", "/api/v1/namespaces/default/configmaps", "application/json", deep),
        400,
        "BadRequest");
    StringBuilder ops = new StringBuilder("[");
    for (int i = 0; i < 20_000; i++) {
      ops.append(i == 0 ? "" : ",")
          .append("{\"op\":\"add\",\"path\":\"/data/k")
          .append(i)
          .append("\",\"value\":\"v\"}");
    }
    ops.append(']');
    HttpResponse<String> bomb =
        send(
            "PATCH",
            "/api/v1/namespaces/default/configmaps/greeting",
            "application/json-patch+json",
            ops.toString());
    assertTrue(
        bomb.statusCode() >= 400 && bomb.statusCode() < 500, bomb.statusCode() + " " + bomb.body());
    assertEquals("Status", json(bomb).path("kind").asText());
    HttpResponse<String> doubling =
        send(
            "PATCH",
            "/api/v1/namespaces/default/configmaps/greeting",
            "application/json-patch+json",
            doublingPatch(40));
    assertTrue(doubling.statusCode() >= 400 && doubling.statusCode() < 500, doubling.body());
    HttpResponse<String> malformed =
        send(
            "GET",
            "/api/v1/namespaces/default/configmaps",
            null,
            null,
            "application/json;;q=x,,;;=,*/*;q=");
    assertTrue(malformed.statusCode() == 200 || malformed.statusCode() == 406, malformed.body());
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps?limit=abc", null, null),
        400,
        "BadRequest");
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps?labelSelector=a%20in%20(", null, null),
        400,
        "BadRequest");
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps?fieldSelector=spec.x%3D1", null, null),
        400,
        "BadRequest");
    String cm = "/api/v1/namespaces/default/configmaps/greeting";
    assertStatus(send("PATCH", cm, "application/apply-patch+yaml", "{}"), 422, "Invalid");
    String apply = cm + "?fieldManager=hostile";
    assertStatus(
        send("PATCH", apply, "application/apply-patch+yaml", "- a\n- b\n"), 400, "BadRequest");
    assertStatus(
        send("PATCH", apply, "application/apply-patch+yaml", "a: [1\n"), 400, "BadRequest");
    assertStatus(
        send("PATCH", apply, "application/apply-patch+yaml", "a: 1\na: 2\n"), 400, "BadRequest");
    StringBuilder laughs = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (int i = 0; i < 12; i++) {
      char c = (char) ('b' + i);
      char p = (char) ('a' + i);
      laughs
          .append(c)
          .append(": &")
          .append(c)
          .append(" [*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append("]\n");
    }
    assertStatus(
        send("PATCH", apply, "application/apply-patch+yaml", laughs.toString()), 400, "BadRequest");
    assertStatus(
        send("PATCH", apply, "application/apply-patch+yaml", "[".repeat(5000) + "]".repeat(5000)),
        400,
        "BadRequest");
    assertStatus(
        send(
            "PATCH",
            apply,
            "application/apply-patch+yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n"),
        400,
        "BadRequest");
    assertEquals(
        200,
        send("GET", "/api/v1/namespaces/default/configmaps/greeting", null, null).statusCode());
  }

  private static String doublingPatch(int copies) {
    StringBuilder patch =
        new StringBuilder("[{\"op\":\"add\",\"path\":\"/data/a0\",\"value\":\"x\"}");
    patch
        .append(",{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"a\":\"")
        .append("y".repeat(1000))
        .append("\"}}");
    for (int i = 0; i < copies; i++) {
      patch
          .append(",{\"op\":\"copy\",\"from\":\"/metadata\",\"path\":\"/metadata/annotations/c")
          .append(i)
          .append("\"}");
    }
    return patch.append(']').toString();
  }

  @Test
  void slowAndIdleConnectionsDoNotStopOthers() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 50; i++) {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), binding.port());
        socket
            .getOutputStream()
            .write(
                "GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Slow: "
                    .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        slow.add(socket);
      }
      Socket idleWatcher = new Socket(InetAddress.getLoopbackAddress(), binding.port());
      slow.add(idleWatcher);
      OutputStream out = idleWatcher.getOutputStream();
      out.write(
          "GET /api/v1/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String big = "x".repeat(100_000);
      for (int i = 0; i < 30; i++) {
        assertEquals(
            201,
            send(
                    "POST",
                    "/api/v1/namespaces/default/configmaps",
                    "application/json",
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fill-"
                        + i
                        + "\"},\"data\":{\"k\":\""
                        + big
                        + "\"}}")
                .statusCode());
      }
      assertEquals(200, send("GET", "/api/v1/namespaces", null, null).statusCode());
    } finally {
      for (Socket socket : slow) {
        socket.close();
      }
    }
  }

  @Test
  void aThousandConnectionsOpenAtOnceAreAllAnswered() throws Exception {
    List<Socket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 1000; i++) {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), binding.port());
        socket.setSoTimeout(60_000);
        sockets.add(socket);
      }
      for (Socket socket : sockets) {
        socket
            .getOutputStream()
            .write(
                ("GET /api/v1/namespaces/default/configmaps/greeting HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
      }
      int answered = 0;
      for (Socket socket : sockets) {
        String response =
            new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (response.startsWith("HTTP/1.1 200") && response.contains("\"name\": \"greeting\"")
            || response.contains("\"name\":\"greeting\"")) {
          answered++;
        }
      }
      assertEquals(1000, answered);
    } finally {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }

  /** A namespace or name that no object can have is a 400, not an empty answer (issue 21). */
  @Test
  void namespacesAndNamesThatCannotExistAreBadRequests_issue21() throws Exception {
    JsonNode nul =
        assertStatus(
            send("GET", "/api/v1/namespaces/%00/configmaps", null, null), 400, "BadRequest");
    assertEquals(
        "invalid namespace \"\\x00\": a lowercase RFC 1123 label must consist of lower case"
            + " alphanumeric characters or '-', and must start and end with an alphanumeric"
            + " character (e.g. 'my-name',  or '123-abc', regex used for validation is"
            + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        nul.path("message").asText());
    assertStatus(
        send("GET", "/api/v1/namespaces/Not_Valid/configmaps/x", null, null), 400, "BadRequest");
    assertStatus(
        send("GET", "/api/v1/namespaces/default/configmaps/a%25b", null, null), 400, "BadRequest");
    assertEquals(
        "invalid name (..): [may not be '..']",
        assertStatus(
                send("GET", "/api/v1/namespaces/default/configmaps/%2E%2E", null, null),
                400,
                "BadRequest")
            .path("message")
            .asText());
    // A valid namespace that does not exist still lists nothing, as in kube-apiserver.
    assertEquals(
        0,
        json(send("GET", "/api/v1/namespaces/absent/configmaps", null, null)).path("items").size());
    // The server goes on serving.
    assertEquals(
        200, send("GET", "/api/v1/namespaces/default/configmaps", null, null).statusCode());
  }

  /** Too many header fields are answered 431 with a Status, not a reset connection (issue 21). */
  @Test
  void tooManyHeaderFieldsAre431_issue21() throws Exception {
    StringBuilder request =
        new StringBuilder("GET /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n");
    for (int i = 0; i < 500; i++) {
      request.append("X-Filler-").append(i).append(": ").append(i).append("\r\n");
    }
    request.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), binding.port())) {
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 431"), answer);
      JsonNode status = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
      assertEquals("Status", status.path("kind").asText());
      assertEquals(431, status.path("code").asInt());
      assertEquals(
          "the request has 502 header fields; at most 256 are read",
          status.path("message").asText());
    }
    assertEquals(
        200, send("GET", "/api/v1/namespaces/default/configmaps", null, null).statusCode());
  }

  @Test
  void aWatcherThatNeverReadsDoesNotStopTheOthers() throws Exception {
    Socket idle = new Socket(InetAddress.getLoopbackAddress(), binding.port());
    idle.setReceiveBufferSize(4096);
    try {
      idle.getOutputStream()
          .write(
              "GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      idle.getOutputStream().flush();
      String rv =
          json(send("GET", "/api/v1/namespaces/default/configmaps", null, null))
              .path("metadata")
              .path("resourceVersion")
              .asText();
      HttpResponse<InputStream> reader =
          client.send(
              HttpRequest.newBuilder(
                      URI.create(
                          base
                              + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=20&resourceVersion="
                              + rv))
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      String big = "x".repeat(200_000);
      int events = 40;
      for (int i = 0; i < events; i++) {
        assertEquals(
            201,
            send(
                    "POST",
                    "/api/v1/namespaces/default/configmaps",
                    "application/json",
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big-"
                        + i
                        + "\"},\"data\":{\"k\":\""
                        + big
                        + "\"}}")
                .statusCode());
      }
      int seen = 0;
      try (BufferedReader lines =
          new BufferedReader(new InputStreamReader(reader.body(), StandardCharsets.UTF_8))) {
        while (seen < events && lines.readLine() != null) {
          seen++;
        }
      }
      assertEquals(events, seen, "the reading watcher got every event");
      assertEquals(200, send("GET", "/api/v1/namespaces", null, null).statusCode());
    } finally {
      idle.close();
    }
  }

  @Test
  void frobberParamsSurviveStorageInV6AsApiChangesAsks() throws Exception {
    HttpResponse<String> created =
        send(
            "POST",
            "/apis/frobbers.example.dev/v7beta1/namespaces/default/frobbers",
            "application/json",
            "{\"apiVersion\":\"frobbers.example.dev/v7beta1\",\"kind\":\"Frobber\","
                + "\"metadata\":{\"name\":\"f\"},\"height\":10,\"width\":5,\"params\":[\"a\",\"b\",\"c\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode beta =
        json(
            send(
                "GET",
                "/apis/frobbers.example.dev/v7beta1/namespaces/default/frobbers/f",
                null,
                null));
    assertEquals("[\"a\",\"b\",\"c\"]", beta.path("params").toString());
    JsonNode stable =
        json(
            send("GET", "/apis/frobbers.example.dev/v6/namespaces/default/frobbers/f", null, null));
    assertEquals("a", stable.path("param").asText());
    assertEquals("[\"b\",\"c\"]", stable.path("params").toString());
    assertEquals(10, stable.path("height").asInt());
    HttpResponse<String> patched =
        send(
            "PATCH",
            "/apis/frobbers.example.dev/v6/namespaces/default/frobbers/f",
            "application/merge-patch+json",
            "{\"param\":\"z\"}");
    assertEquals(200, patched.statusCode(), patched.body());
    beta =
        json(
            send(
                "GET",
                "/apis/frobbers.example.dev/v7beta1/namespaces/default/frobbers/f",
                null,
                null));
    assertEquals("[\"z\",\"b\",\"c\"]", beta.path("params").toString());
  }

  /** Reads the length-delimited fields of one protobuf message: number → values in order. */
  private static Map<Integer, List<byte[]>> fields(byte[] message) {
    Map<Integer, List<byte[]>> fields = new java.util.TreeMap<>();
    int at = 0;
    while (at < message.length) {
      long key = 0;
      int shift = 0;
      byte b;
      do {
        b = message[at++];
        key |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      int wire = (int) (key & 7);
      int number = (int) (key >>> 3);
      long value = 0;
      shift = 0;
      do {
        b = message[at++];
        value |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      if (wire == 2) {
        fields
            .computeIfAbsent(number, n -> new ArrayList<>())
            .add(java.util.Arrays.copyOfRange(message, at, at + (int) value));
        at += (int) value;
      } else {
        fields
            .computeIfAbsent(number, n -> new ArrayList<>())
            .add(Long.toString(value).getBytes(StandardCharsets.UTF_8));
      }
    }
    return fields;
  }

  /** The object message inside a {@code k8s\\0} envelope, after checking the envelope's type. */
  private static Map<Integer, List<byte[]>> unwrap(byte[] body, String apiVersion, String kind) {
    assertEquals("k8s\0", new String(body, 0, 4, StandardCharsets.US_ASCII));
    Map<Integer, List<byte[]>> unknown = fields(java.util.Arrays.copyOfRange(body, 4, body.length));
    Map<Integer, List<byte[]>> typeMeta = fields(unknown.get(1).get(0));
    assertEquals(apiVersion, new String(typeMeta.get(1).get(0), StandardCharsets.UTF_8));
    assertEquals(kind, new String(typeMeta.get(2).get(0), StandardCharsets.UTF_8));
    return fields(unknown.get(2).get(0));
  }

  @Test
  void listsAndWatchesInProtobufForClientsThatPreferIt() throws Exception {
    HttpResponse<byte[]> list =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces"))
                .header("Accept", "application/vnd.kubernetes.protobuf, application/json")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(ProtobufCodec.MEDIA_TYPE, list.headers().firstValue("Content-Type").orElseThrow());
    Map<Integer, List<byte[]>> namespaces = unwrap(list.body(), "v1", "NamespaceList");
    assertEquals(2, namespaces.get(2).size(), "items (field 2): default and kube-system");
    Map<Integer, List<byte[]>> listMeta = fields(namespaces.get(1).get(0));
    assertEquals(
        Long.toString(server.storage().currentRevision()),
        new String(listMeta.get(2).get(0), StandardCharsets.UTF_8),
        "ListMeta.resourceVersion (field 2)");
    HttpResponse<String> frobbers =
        send(
            "GET",
            "/apis/frobbers.example.dev/v6/frobbers",
            null,
            null,
            "application/vnd.kubernetes.protobuf, application/json");
    assertTrue(
        frobbers.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"),
        "a kind without field numbers is answered in JSON");

    String rv = Long.toString(server.storage().currentRevision());
    HttpResponse<InputStream> watch =
        client.send(
            HttpRequest.newBuilder(
                    URI.create(
                        base
                            + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=3&resourceVersion="
                            + rv))
                .header("Accept", "application/vnd.kubernetes.protobuf;stream=watch")
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertEquals(
        "application/vnd.kubernetes.protobuf;stream=watch",
        watch.headers().firstValue("Content-Type").orElseThrow());
    create("framed", "");
    try (InputStream in = watch.body()) {
      byte[] length = in.readNBytes(4);
      int size =
          ((length[0] & 0xff) << 24)
              | ((length[1] & 0xff) << 16)
              | ((length[2] & 0xff) << 8)
              | (length[3] & 0xff);
      Map<Integer, List<byte[]>> event = fields(in.readNBytes(size));
      assertEquals("ADDED", new String(event.get(1).get(0), StandardCharsets.UTF_8));
      byte[] raw = fields(event.get(2).get(0)).get(1).get(0);
      Map<Integer, List<byte[]>> configMap = unwrap(raw, "v1", "ConfigMap");
      Map<Integer, List<byte[]>> meta = fields(configMap.get(1).get(0));
      assertEquals("framed", new String(meta.get(1).get(0), StandardCharsets.UTF_8));
    }
  }
}
