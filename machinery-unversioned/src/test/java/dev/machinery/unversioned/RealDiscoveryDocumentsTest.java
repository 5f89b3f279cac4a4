package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.APIVersions;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The discovery documents of real Kubernetes API servers (test resources, copied from
 * kubernetes/kubernetes api/discovery) decode strictly and re-encode without loss.
 */
class RealDiscoveryDocumentsTest {
  static final Scheme SCHEME =
      DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  private static final ObjectMapper TREES = new ObjectMapper();

  static Stream<String> documents() {
    List<String> names = new ArrayList<>();
    try (InputStream index = resource("index.txt")) {
      for (String line :
          new String(index.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          names.add(line.strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names.stream();
  }

  static InputStream resource(String name) {
    InputStream in = RealDiscoveryDocumentsTest.class.getResourceAsStream("/discovery/" + name);
    if (in == null) {
      throw new IllegalStateException("missing test resource discovery/" + name);
    }
    return in;
  }

  static byte[] bytes(String name) {
    try (InputStream in = resource(name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @MethodSource("documents")
  void decodesStrictlyAndReencodesWithoutLoss(String name) throws IOException {
    byte[] original = bytes(name);
    // A client knows what it asked for: /api is APIVersions, /apis/{g}/{v} an APIResourceList.
    Decoded<? extends ApiObject> decoded = CODECS.json().decode(original, expectedType(name));
    JsonNode expected = TREES.readTree(original);
    JsonNode again = TREES.readTree(CODECS.json().encode(decoded.object()));
    if (!expected.has("apiVersion")) {
      // Older servers left apiVersion out of these documents; it is the only field added.
      assertEquals(decoded.kind().apiVersion(), again.get("apiVersion").asText(), name);
      ((ObjectNode) again).remove("apiVersion");
    }
    assertEquals(expected, again, name);
  }

  static Class<? extends ApiObject> expectedType(String name) {
    if (name.startsWith("aggregated_")) {
      return APIGroupDiscoveryList.class;
    }
    String[] path = name.substring(0, name.length() - ".json".length()).split("__");
    if (path[0].equals("api")) {
      return path.length == 1 ? APIVersions.class : APIResourceList.class;
    }
    return path.length == 1
        ? APIGroupList.class
        : path.length == 2 ? APIGroup.class : APIResourceList.class;
  }

  @Test
  void everyCopiedDocumentIsListed() {
    assertEquals(83, documents().count());
  }

  @Test
  void readsTheTypedContent() {
    APIResourceList apps =
        CODECS.json().decode(bytes("apis__apps__v1.json"), APIResourceList.class).object();
    assertEquals("apps/v1", apps.getGroupVersion());
    APIResource deployments =
        apps.getResources().stream()
            .filter(r -> r.getName().equals("deployments"))
            .findFirst()
            .orElseThrow();
    assertEquals("Deployment", deployments.getKind());
    assertEquals(List.of("deploy"), deployments.getShortNames());
    assertTrue(deployments.isNamespaced());
    APIVersions api = CODECS.json().decode(bytes("api.json"), APIVersions.class).object();
    assertEquals(List.of("v1"), api.getVersions());
    APIGroupDiscoveryList aggregated =
        CODECS.json().decode(bytes("aggregated_v2.json"), APIGroupDiscoveryList.class).object();
    assertEquals(22, aggregated.getItems().size());
    assertEquals("apiregistration.k8s.io", aggregated.getItems().get(0).getMetadata().getName());
  }
}
