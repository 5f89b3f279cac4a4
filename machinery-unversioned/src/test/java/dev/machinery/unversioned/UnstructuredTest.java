package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.testapi.TestSchemes;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.unstructured.UnstructuredConverter;
import dev.machinery.unversioned.unstructured.UnstructuredFieldException;
import dev.machinery.unversioned.unstructured.UnstructuredList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UnstructuredTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestSchemes.SCHEME);
  private static final Codec JSON = CODECS.json();
  private static final String DEPLOYMENT =
      "{\"apiVersion\":\"apps/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"web\","
          + "\"namespace\":\"prod\",\"labels\":{\"app\":\"web\"},\"generation\":3},"
          + "\"spec\":{\"replicas\":3,\"ratio\":0.25,\"big\":123456789012345678901234567890,"
          + "\"paused\":false,\"template\":null,\"ports\":[{\"port\":80},\"x\",[1,2]]},"
          + "\"x-unknown\":{\"kept\":true}}";

  @Test
  void keepsEveryFieldOfAKindTheSchemeDoesNotKnow() throws Exception {
    Unstructured object = JSON.decode(DEPLOYMENT, Unstructured.class).object();
    assertEquals("Widget", object.getKind());
    assertEquals(
        new ObjectMapper().readTree(DEPLOYMENT), new ObjectMapper().readTree(JSON.encode(object)));
    assertEquals(DEPLOYMENT, JSON.encodeToString(object));
    Unstructured fromYaml =
        CODECS.yaml().decode(CODECS.yaml().encode(object), Unstructured.class).object();
    assertEquals(object, fromYaml);
  }

  @Test
  void readsAndWritesFieldsByPath() {
    Unstructured object = JSON.decode(DEPLOYMENT, Unstructured.class).object();
    assertEquals("web", object.getName());
    assertEquals("prod", object.getNamespace());
    assertEquals(3, object.getGeneration());
    assertEquals(Map.of("app", "web"), object.getLabels());
    assertEquals(Optional.of(3L), object.nestedLong("spec", "replicas"));
    assertEquals(Optional.of(false), object.nestedBoolean("spec", "paused"));
    assertEquals(Optional.empty(), object.nested("spec", "template"));
    assertEquals(Optional.empty(), object.nestedString("status", "phase"));
    assertEquals(3, object.nestedList("spec", "ports").orElseThrow().size());
    object.setNested(5L, "spec", "replicas");
    object.setNested(Map.of("phase", "Running"), "status");
    object.setAnnotations(Map.of("note", "x"));
    object.removeNested("x-unknown");
    assertEquals(Optional.of(5L), object.nestedLong("spec", "replicas"));
    assertEquals(Optional.of("Running"), object.nestedString("status", "phase"));
    assertEquals(Map.of("note", "x"), object.getAnnotations());
    assertTrue(object.nested("x-unknown").isEmpty());
    Unstructured fresh = new Unstructured();
    fresh.setName("made");
    assertEquals(Map.of("metadata", Map.of("name", "made")), fresh.content());
  }

  @Test
  void aFieldOfAnotherTypeIsATypedErrorWithItsPath() {
    Unstructured object = JSON.decode(DEPLOYMENT, Unstructured.class).object();
    UnstructuredFieldException wrong =
        assertThrows(
            UnstructuredFieldException.class, () -> object.nestedString("spec", "replicas"));
    assertEquals("field spec.replicas holds the long 3, expected a string", wrong.getMessage());
    assertEquals("spec.replicas", wrong.path());
    assertEquals(
        "field spec.replicas holds the long 3, expected an object",
        assertThrows(
                UnstructuredFieldException.class,
                () -> object.setNested("x", "spec", "replicas", "deep"))
            .getMessage());
    assertEquals(
        "field spec.ratio holds the double 0.25, expected an integer",
        assertThrows(UnstructuredFieldException.class, () -> object.nestedLong("spec", "ratio"))
            .getMessage());
    object.setNested(Map.of("app", 7L), "metadata", "labels");
    assertEquals(
        "field metadata.labels.app holds the long 7, expected a string",
        assertThrows(UnstructuredFieldException.class, object::getLabels).getMessage());
    Map<String, Object> nullValue = new java.util.HashMap<>();
    nullValue.put("app", null);
    object.setNested(nullValue, "metadata", "annotations");
    assertEquals(
        "field metadata.annotations.app holds null, expected a string",
        assertThrows(UnstructuredFieldException.class, object::getAnnotations).getMessage());
    assertEquals(
        "field spec.when holds a java.time.Instant, expected a JSON value (map, list, string,"
            + " number, boolean or null)",
        assertThrows(
                UnstructuredFieldException.class,
                () -> object.setNested(java.time.Instant.EPOCH, "spec", "when"))
            .getMessage());
  }

  @Test
  void convertsToTypedStrictly() {
    UnstructuredConverter converter = new UnstructuredConverter(CODECS);
    Unstructured partial = new Unstructured();
    partial.setApiVersion("meta.k8s.io/v1");
    partial.setKind("PartialObjectMetadata");
    partial.setName("web");
    PartialObjectMetadata typed = converter.fromUnstructured(partial, PartialObjectMetadata.class);
    assertEquals("web", typed.getMetadata().getName());
    partial.setNested("surprise", "metadata", "colour");
    StrictDecodingException error =
        assertThrows(
            StrictDecodingException.class,
            () -> converter.fromUnstructured(partial, PartialObjectMetadata.class));
    assertTrue(
        error.getMessage().contains("unknown field \"metadata.colour\""), error.getMessage());
  }

  @Test
  void anUnstructuredObjectMustNameItsKindToBeEncoded() {
    Unstructured nameless = new Unstructured(Map.of("spec", Map.of()));
    EncodeException error = assertThrows(EncodeException.class, () -> JSON.encode(nameless));
    assertEquals(
        "cannot encode dev.machinery.unversioned.unstructured.Unstructured: the class is not"
            + " registered in the scheme and the object does not name its apiVersion and kind",
        error.getMessage());
  }

  @Test
  void listsKeepTheirItemsAndFields() {
    String list =
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"WidgetList\",\"metadata\":{\"resourceVersion\":\"9\"},"
            + "\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"kind\":\"Widget\",\"metadata\":{\"name\":\"b\"}}]}";
    UnstructuredList decoded = JSON.decode(list, UnstructuredList.class).object();
    assertEquals(2, decoded.getItems().size());
    assertEquals("a", decoded.getItems().get(0).getName());
    assertEquals(list, JSON.encodeToString(decoded));
    List<Unstructured> typed = decoded.itemsWithKind();
    assertEquals("Widget", typed.get(0).getKind());
    assertEquals("apps/v1", typed.get(0).getApiVersion());
    assertEquals(Map.of("resourceVersion", "9"), decoded.getMetadata());
  }
}
