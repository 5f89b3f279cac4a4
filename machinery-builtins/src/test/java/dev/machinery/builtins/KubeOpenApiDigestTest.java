package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.schema.GroupVersion;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
  void theDigestLeavesOutWhatStructuralSchemasDoNotRead() {
    JsonNode pod = digest.definition("io.k8s.api.core.v1.PodSpec");
    assertFalse(pod.toString().contains("\"description\""), "no descriptions");
    assertFalse(pod.has("x-kubernetes-patch-strategy"));
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
