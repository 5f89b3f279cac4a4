package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Patches applied to typed objects through a codec, as a server applies a PATCH request. */
class TypedPatchTest {
  /** A kind with a list and a number. */
  public static final class Widget implements ApiObject {
    private String apiVersion;
    private String kind;
    private String name;
    private int replicas;
    private List<String> tags;

    @Override
    public String getApiVersion() {
      return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
      return kind;
    }

    @Override
    public void setKind(String kind) {
      this.kind = kind;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getReplicas() {
      return replicas;
    }

    public void setReplicas(int replicas) {
      this.replicas = replicas;
    }

    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }
  }

  private static final CodecFactory CODECS =
      CodecFactory.create(
          Scheme.builder()
              .addKnownTypes(GroupVersion.of("example.com", "v1"), Widget.class)
              .build());

  private static Widget widget() {
    Widget widget = new Widget();
    widget.setName("w");
    widget.setReplicas(1);
    widget.setTags(List.of("a", "b"));
    return widget;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void mergeAndJsonPatchesGiveNewObjects() {
    Widget widget = widget();
    Widget merged =
        Patches.apply(
            CODECS.json(), widget, bytes("{\"replicas\":3,\"tags\":null}"), PatchType.MERGE_PATCH);
    assertEquals(3, merged.getReplicas());
    assertEquals(null, merged.getTags());
    assertEquals(1, widget.getReplicas());
    Widget patched =
        Patches.apply(
            CODECS.json(),
            widget,
            bytes(
                "[{\"op\":\"add\",\"path\":\"/tags/-\",\"value\":\"c\"},{\"op\":\"replace\",\"path\":\"/replicas\",\"value\":2}]"),
            PatchType.JSON_PATCH);
    assertEquals(List.of("a", "b", "c"), patched.getTags());
    assertEquals(2, patched.getReplicas());
    assertEquals(List.of("a", "b"), widget.getTags());
  }

  @Test
  void theCodecDecidesWhatAPatchMayAdd() {
    StrictDecodingException strict =
        assertThrows(
            StrictDecodingException.class,
            () ->
                Patches.apply(
                    CODECS.json(), widget(), bytes("{\"replcias\":3}"), PatchType.MERGE_PATCH));
    assertTrue(strict.getMessage().contains("replcias"), strict.getMessage());
    PatchException notJson =
        assertThrows(
            PatchException.class,
            () ->
                Patches.apply(
                    CODECS.json(), widget(), bytes("{\"replicas\":"), PatchType.MERGE_PATCH));
    assertEquals(400, notJson.statusCode());
    assertThrows(
        PatchException.class,
        () -> Patches.apply(CODECS.json(), widget(), bytes("{}"), PatchType.APPLY_PATCH));
    // No strategy declared on tags: a strategic patch replaces the list, as Kubernetes does.
    Widget strategic =
        Patches.apply(
            CODECS.json(), widget(), bytes("{\"tags\":[\"c\"]}"), PatchType.STRATEGIC_MERGE_PATCH);
    assertEquals(List.of("c"), strategic.getTags());
  }

  @Test
  void aMalformedStrategicMergePatchIsAnInvalidJsonDocument() {
    // Go's strategicpatch.StrategicMergePatch answers mergepatch.ErrBadJSONDoc for a patch (or an
    // original) that is not a JSON object.
    for (String patch : List.of("{\"replicas\":", "{bad}", "[{\"replicas\":3}]", "\"x\"", "")) {
      PatchException e =
          assertThrows(
              PatchException.class,
              () ->
                  Patches.apply(
                      CODECS.json(), widget(), bytes(patch), PatchType.STRATEGIC_MERGE_PATCH),
              patch);
      assertEquals("invalid JSON document", e.getMessage(), patch);
      assertEquals(400, e.statusCode());
    }
  }

  @Test
  void contentTypesNameTheFormats() {
    assertEquals(
        Optional.of(PatchType.STRATEGIC_MERGE_PATCH),
        PatchType.fromContentType("application/strategic-merge-patch+json; charset=utf-8"));
    assertEquals(Optional.empty(), PatchType.fromContentType("application/json"));
  }
}
