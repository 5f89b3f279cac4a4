package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.ItemStream;
import dev.machinery.core.patch.JsonMergePatch;
import dev.machinery.core.patch.OpenApiPatchSchemas;
import dev.machinery.core.patch.PatchType;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.patch.StrategicMergePatch;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.examples.apps.AppsV1;
import dev.machinery.examples.apps.Deployment;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import dev.machinery.unversioned.watch.WatchDecoder;
import dev.machinery.unversioned.watch.WatchEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The examples of docs/patches.md and docs/watch.md, compiled and run. */
class PatchAndWatchGuideTest {
  private static final Codec JSON =
      CodecFactory.create(AppsV1.addToScheme(Scheme.builder()).build()).json();

  private static Deployment deployment() throws IOException {
    try (InputStream in =
        PatchAndWatchGuideTest.class.getResourceAsStream("/apps/deployment.json")) {
      return JSON.decode(in, Deployment.class).object();
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void patchATypedObject() throws IOException {
    Deployment deployment = deployment();
    byte[] patch = bytes("{\"spec\":{\"replicas\":5}}");
    Deployment scaled = Patches.apply(JSON, deployment, patch, PatchType.MERGE_PATCH);
    assertEquals(5, scaled.getSpec().replicas());
    assertEquals(3, deployment.getSpec().replicas()); // the original is not changed
  }

  @Test
  void strategicPatches() {
    JsonNode original =
        Patches.readTree(bytes("{\"tags\":[{\"name\":\"a\",\"v\":1}]}"), "original");
    JsonNode modified =
        Patches.readTree(
            bytes("{\"tags\":[{\"name\":\"a\",\"v\":2},{\"name\":\"b\"}]}"), "modified");
    JsonNode patch = StrategicMergePatch.createTwoWay(original, modified, Tagged.class);
    assertEquals(
        "{\"tags\":[{\"v\":2,\"name\":\"a\"},{\"name\":\"b\"}],"
            + "\"$setElementOrder/tags\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
        patch.toString());
    assertEquals(modified, StrategicMergePatch.apply(original, patch, Tagged.class));
  }

  @Test
  void strategicPatchesFromOpenApi() throws IOException {
    JsonNode swagger;
    try (InputStream in =
        PatchAndWatchGuideTest.class.getResourceAsStream("/kube-api/v1.33/swagger.json")) {
      // 3.7 MB, beyond the codec limits Patches.readTree keeps to: a document the server trusts.
      swagger = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
    }
    OpenApiPatchSchemas kube = OpenApiPatchSchemas.of(swagger);
    StrategicMergeSchema deployment =
        kube.forKind(GroupVersionKind.of("apps", "v1", "Deployment")).orElseThrow();
    JsonNode live =
        Patches.readTree(
            bytes(
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":["
                    + "{\"name\":\"app\",\"image\":\"app:1\"},"
                    + "{\"name\":\"proxy\",\"image\":\"proxy:1\"}]}}}}"),
            "live");
    JsonNode patch =
        Patches.readTree(
            bytes(
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":["
                    + "{\"name\":\"app\",\"image\":\"app:2\"}]}}}}"),
            "patch");
    assertEquals(
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":["
            + "{\"name\":\"app\",\"image\":\"app:2\"},"
            + "{\"name\":\"proxy\",\"image\":\"proxy:1\"}]}}}}",
        StrategicMergePatch.apply(live, patch, deployment).toString());
  }

  /** A type whose list merges by name, as a Pod's containers do. */
  public record Tagged(
      @dev.machinery.core.patch.PatchStrategy("merge")
          @dev.machinery.core.patch.PatchMergeKey("name")
          java.util.List<Tag> tags) {}

  /** An element of the list. */
  public record Tag(String name, Integer v) {}

  @Test
  void threeWayMergePatch() {
    JsonNode lastApplied = Patches.readTree(bytes("{\"a\":1,\"b\":2}"), "last applied");
    JsonNode manifest = Patches.readTree(bytes("{\"a\":1}"), "manifest");
    JsonNode live = Patches.readTree(bytes("{\"a\":3,\"b\":2,\"c\":4}"), "live");
    JsonNode patch = JsonMergePatch.createThreeWay(lastApplied, manifest, live);
    assertEquals("{\"b\":null,\"a\":1}", patch.toString()); // c, set by someone else, stays
  }

  @Test
  void watchFrames() throws IOException {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    WatchEncoder encoder = new WatchEncoder(JSON);
    encoder.write(new Event(EventType.ADDED, deployment()), wire);
    encoder.write(new Event(EventType.DELETED, deployment()), wire);

    InputStream in = new ByteArrayInputStream(wire.toByteArray());
    try (WatchDecoder events = new WatchDecoder(JSON, in, CodecLimits.DEFAULTS)) {
      for (Optional<Event> event = events.next(); event.isPresent(); event = events.next()) {
        Deployment object = (Deployment) event.get().object();
        assertEquals("web", object.getMetadata().getName());
      }
    }
  }

  @Test
  void streamAList() throws IOException {
    String list =
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"DeploymentList\",\"items\":["
            + new String(JSON.encode(deployment()), StandardCharsets.UTF_8)
            + "]}";
    InputStream in = new ByteArrayInputStream(bytes(list));
    int replicas = 0;
    try (ItemStream<Deployment> items = JSON.decodeItems(in, Deployment.class)) {
      while (items.hasNext()) {
        Decoded<Deployment> item = items.next();
        replicas += item.object().getSpec().replicas();
      }
    }
    assertEquals(3, replicas);
  }
}
