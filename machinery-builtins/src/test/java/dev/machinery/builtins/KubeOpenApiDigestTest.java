package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.schema.GroupVersion;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The digest of Kubernetes' OpenAPI document that the server reads at start: it is what {@link
 * KubeOpenApiDigest#write} makes of the bundled document (so it cannot go stale silently), it gives
 * the same resources and the same structural schemas as the whole document, and a start does not
 * parse the document.
 */
class KubeOpenApiDigestTest {
  private static final String RELEASE = BuiltinKinds.RELEASE;
  private static ObjectNode document;
  private static KubeOpenApiDigest digest;

  @BeforeAll
  static void read() throws IOException {
    document = KubeOpenApi.document(RELEASE);
    try (InputStream in = bundled()) {
      digest = KubeOpenApiDigest.read(in, "digest.txt");
    }
  }

  private static InputStream bundled() {
    InputStream in = KubeOpenApi.class.getResourceAsStream("kube-api/" + RELEASE + "/digest.txt");
    assertNotNull(in, "the digest is bundled");
    return in;
  }

  @Test
  void theBundledDigestIsWhatTheBundledDocumentGives() throws IOException {
    String expected = KubeOpenApiDigest.write(RELEASE, document);
    String actual;
    try (InputStream in = bundled()) {
      actual = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!expected.equals(actual)) {
      Path written = Path.of("target", "kube-api-digest", RELEASE, "digest.txt");
      Files.createDirectories(written.getParent());
      Files.writeString(written, expected);
      assertEquals(
          expected,
          actual,
          "the bundled digest does not match swagger.json: copy "
              + written.toAbsolutePath()
              + " to src/main/resources/dev/machinery/builtins/kube-api/"
              + RELEASE
              + "/digest.txt");
    }
  }

  @Test
  void theDigestsResourcesAreThoseOfTheDocumentsPaths() {
    List<BuiltinResource> fromPaths = BuiltinResource.fromPaths(document.path("paths"));
    assertEquals(fromPaths, digest.resources());
    BuiltinResource deployments =
        digest.resources().stream()
            .filter(r -> r.resource().equals("deployments") && r.version().version().equals("v1"))
            .findFirst()
            .orElseThrow();
    assertEquals(GroupVersion.of("apps", "v1"), deployments.version());
    assertEquals("Deployment", deployments.kind());
    assertEquals("io.k8s.api.apps.v1.Deployment", deployments.definition());
    assertEquals("io.k8s.api.apps.v1.DeploymentList", deployments.listDefinition());
    assertTrue(deployments.namespaced());
    assertEquals(
        Set.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"),
        deployments.verbs());
    assertEquals(Set.of("scale", "status"), deployments.subresources());
    assertFalse(deployments.deleteReturnsObject());
  }

  @Test
  void everyKindsStructuralSchemaIsTheSameFromTheDigestAsFromTheDocument() {
    JsonNode definitions = document.path("definitions");
    int compared = 0;
    for (BuiltinResource resource : digest.resources()) {
      ObjectNode fromDigest = KubeOpenApi.inlined(resource.definition(), digest::definition);
      ObjectNode fromDocument = KubeOpenApi.inlined(resource.definition(), definitions::get);
      assertEquals(fromDocument, fromDigest, resource.definition());
      compared++;
    }
    assertTrue(compared > 50, "the resources of every group version: " + compared);
    // The key defaults of associative lists are carried into the digest.
    assertEquals(
        "TCP",
        digest
            .definition("io.k8s.api.core.v1.ContainerPort")
            .at("/properties/protocol/default")
            .asText());
  }

  @Test
  void everyKindsInlinedSchemaReadsAsJacksonBindsIt() throws Exception {
    ObjectMapper json = new ObjectMapper();
    for (BuiltinResource resource : digest.resources()) {
      ObjectNode inlined = KubeOpenApi.inlined(resource.definition(), digest::definition);
      assertEquals(
          json.treeToValue(inlined, JSONSchemaProps.class),
          InlinedSchemas.read(inlined, resource.definition()),
          resource.definition());
    }
  }

  @Test
  void anInlinedSchemaWithAKeywordItDoesNotReadIsRefusedNamingThePath() throws Exception {
    JsonNode schema =
        new ObjectMapper()
            .readTree(
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
                    + "\"properties\":{\"n\":{\"type\":\"integer\",\"maximum\":3}}}}}");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> InlinedSchemas.read(schema, "x.Thing"));
    assertEquals(
        "x.Thing.properties.spec.properties.n: the keyword \"maximum\" is not read from an inlined"
            + " schema",
        e.getMessage());
    JsonNode notText = new ObjectMapper().readTree("{\"type\":3}");
    assertEquals(
        "x.Thing.type: a string is expected, not 3",
        assertThrows(IllegalStateException.class, () -> InlinedSchemas.read(notText, "x.Thing"))
            .getMessage());
  }

  @Test
  void applysSchemaIsTheSameFromTheDigestAsFromTheDocument() {
    KubeOpenApi openApi = KubeOpenApi.load(RELEASE);
    assertEquals(openApi.applySchemaOfTheDocument(), openApi.applySchema());
    assertNotNull(openApi.applySchema().type("io.k8s.api.apps.v1.Deployment"));
  }

  @Test
  void theDigestLeavesOutWhatStructuralSchemasAndApplyDoNotRead() {
    JsonNode pod = digest.definition("io.k8s.api.core.v1.PodSpec");
    assertFalse(pod.toString().contains("\"description\""), "no descriptions");
    assertFalse(pod.has("x-kubernetes-group-version-kind"));
    assertEquals("name", pod.at("/properties/containers/x-kubernetes-patch-merge-key").asText());
    assertEquals(
        "#/definitions/io.k8s.api.core.v1.Container",
        pod.at("/properties/containers/items/$ref").asText());
    assertEquals(List.of("containers"), List.of(pod.get("required").get(0).asText()));
  }

  @Test
  void aStructuralSchemaIsBuiltWithoutParsingTheDocument() {
    KubeOpenApi openApi = KubeOpenApi.load(RELEASE);
    assertNotNull(openApi.structural("io.k8s.api.core.v1.Namespace"));
    assertNotNull(openApi.structural("io.k8s.api.apps.v1.Deployment"));
    assertFalse(openApi.documentRead());
    assertTrue(openApi.components().containsKey("io.k8s.api.core.v1.Namespace"));
    assertTrue(openApi.documentRead());
  }

  @Test
  void aServerIsBuiltAndWritesWithoutParsingTheDocumentUntilOpenApiIsRead() {
    KubeOpenApi openApi = KubeOpenApi.load(RELEASE);
    ApiServer server =
        BuiltinKinds.apiServer(new BuiltinKinds(openApi), DefaultAdmission.kubernetes()).build();
    try {
      assertEquals(
          201,
          send(
                  server,
                  "POST",
                  "/api/v1/namespaces",
                  "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"a\"}}")
              .status());
      assertEquals(
          201,
          send(
                  server,
                  "POST",
                  "/apis/apps/v1/namespaces/a/deployments",
                  "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
                      + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"d\"}},\"template\":{"
                      + "\"metadata\":{\"labels\":{\"app\":\"d\"}},\"spec\":{\"containers\":["
                      + "{\"name\":\"c\",\"image\":\"nginx\",\"bogus\":1}]}}}}")
              .status());
      assertEquals(
          200, send(server, "GET", "/apis/apps/v1/namespaces/a/deployments/d", null).status());
      assertFalse(openApi.documentRead(), "the document is not parsed for a start and writes");
      ApiResponse openApiV3 = send(server, "GET", "/openapi/v3/apis/apps/v1", null);
      assertEquals(200, openApiV3.status());
      assertTrue(
          new String(openApiV3.body(), StandardCharsets.UTF_8)
              .contains("io.k8s.api.apps.v1.DeploymentSpec"));
      assertTrue(openApi.documentRead(), "OpenAPI is read from the whole document");
    } finally {
      server.close();
    }
  }

  private static ApiResponse send(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void aMalformedDigestIsRefusedNamingTheLine() {
    String text = "# comment\nR\tapps\tv1\tdeployments\nD\tx\t{}\n";
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                KubeOpenApiDigest.read(
                    new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "bad.txt"));
    assertEquals(
        "bad.txt, line 2: not a record of a digest: \"R\tapps\tv1\tdeployments\"", e.getMessage());
  }

  @Test
  void aSchemaThatIsNotJsonIsRefusedNamingIt() {
    KubeOpenApiDigest bad =
        KubeOpenApiDigest.read(
            new ByteArrayInputStream(
                "D\tio.example.Thing\t{\"type\":\n".getBytes(StandardCharsets.UTF_8)),
            "bad.txt");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> bad.definition("io.example.Thing"));
    assertEquals("the digest's schema io.example.Thing is not JSON", e.getMessage());
  }
}
