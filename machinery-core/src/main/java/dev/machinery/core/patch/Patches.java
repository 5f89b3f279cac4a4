package dev.machinery.core.patch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.ObjectJson;
import java.io.IOException;
import java.util.Objects;

/**
 * Applies a patch to a typed object as a server does: the object encoded by a codec, patched as
 * JSON, and decoded again by the same codec into its class (so the codec's field validation decides
 * what a patch may add). The object is never changed. Patch documents are read under the codec
 * limits, with duplicate keys refused.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class Patches {
  private static final ObjectMapper TREES = trees(CodecLimits.DEFAULTS);
  private static final ObjectMapper DOCUMENTS =
      TREES.copy().disable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
  private static final ObjectMapper SORTED =
      TREES.copy().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private Patches() {}

  /**
   * Applies a JSON patch, a JSON merge patch or a strategic merge patch to a typed object (the
   * strategies read from the object's class; a class without declared properties, such as an
   * unstructured object, takes a strategic patch as a JSON merge patch). A strategic merge patch
   * that is not a JSON object is refused as Go's {@code strategicpatch.StrategicMergePatch} refuses
   * it, with the message {@code invalid JSON document}; a {@code null} one changes nothing.
   *
   * @param codec the codec that encodes the object and decodes the result
   * @param object the object (not changed)
   * @param patch the patch document
   * @param type the patch's format ({@link PatchType#APPLY_PATCH} is refused)
   * @param <T> the object's class
   * @return the patched object, a new instance of the same class
   * @throws PatchException when the patch is malformed, does not apply, or is of another type
   * @throws dev.machinery.core.codec.DecodeException when the patched document is not a valid
   *     object of the class
   */
  public static <T> T apply(Codec codec, T object, byte[] patch, PatchType type) {
    Objects.requireNonNull(object, "object");
    return apply(codec, object, patch, type, StrategicMergeSchema.ofType(object.getClass()));
  }

  /**
   * Applies a JSON patch, a JSON merge patch or a strategic merge patch to an object, a strategic
   * merge patch with the strategies of a given schema rather than of the object's class: how a
   * server patches unstructured objects of kinds it has OpenAPI schemas for ({@link
   * OpenApiPatchSchemas}). A schema that knows no fields ({@link StrategicMergeSchema#isEmpty()})
   * takes a strategic merge patch as a JSON merge patch.
   *
   * @param codec the codec that encodes the object and decodes the result
   * @param object the object (not changed)
   * @param patch the patch document
   * @param type the patch's format ({@link PatchType#APPLY_PATCH} is refused)
   * @param schema the strategies of a strategic merge patch
   * @param <T> the object's class
   * @return the patched object, a new instance of the same class
   * @throws PatchException when the patch is malformed, does not apply, or is of another type
   * @throws dev.machinery.core.codec.DecodeException when the patched document is not a valid
   *     object of the class
   */
  public static <T> T apply(
      Codec codec, T object, byte[] patch, PatchType type, StrategicMergeSchema schema) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(schema, "schema");
    JsonNode document = readTree(codec.encode(object), "the object");
    JsonNode patchDocument =
        type == PatchType.STRATEGIC_MERGE_PATCH
            ? readGoDocument(patch)
            : readTree(patch, "the patch");
    JsonNode patched =
        switch (type) {
          case JSON_PATCH -> JsonPatch.apply(document, patchDocument);
          case MERGE_PATCH -> JsonMergePatch.apply(document, patchDocument);
          case STRATEGIC_MERGE_PATCH ->
              schema.isEmpty()
                  ? JsonMergePatch.apply(document, patchDocument)
                  : StrategicMergePatch.apply(document, patchDocument, schema);
          case APPLY_PATCH ->
              throw new PatchException(
                  PatchException.Kind.MALFORMED,
                  "server-side apply is not a patch Patches.apply computes: it needs field"
                      + " management, which the library does not have; send "
                      + PatchType.STRATEGIC_MERGE_PATCH.contentType()
                      + " or "
                      + PatchType.MERGE_PATCH.contentType());
        };
    @SuppressWarnings("unchecked")
    Class<T> kind = (Class<T>) object.getClass();
    try {
      return codec.decode(TREES.writeValueAsBytes(patched), kind).object();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }

  /**
   * Reads a JSON document into a tree under the default codec limits, refusing duplicate keys.
   *
   * @param json the document
   * @param what what it is, for the message
   * @return the tree
   * @throws PatchException when it is not JSON
   */
  public static JsonNode readTree(byte[] json, String what) {
    try {
      JsonNode tree = TREES.readTree(json);
      if (tree == null || tree.isMissingNode()) {
        throw new PatchException(PatchException.Kind.MALFORMED, what + " is empty");
      }
      return tree;
    } catch (IOException e) {
      throw new PatchException(
          PatchException.Kind.MALFORMED, what + " is not valid JSON: " + e.getMessage());
    }
  }

  /**
   * Reads a document as Go's {@code strategicpatch} reads one into a map: a JSON object (duplicate
   * keys allowed, the last one kept, as Go's decoder keeps it), {@code null} or no document at all
   * being an empty object; anything else, malformed JSON included, is {@code invalid JSON document}
   * ({@code mergepatch.ErrBadJSONDoc}).
   */
  static ObjectNode readGoDocument(byte[] json) {
    if (json == null) {
      return DOCUMENTS.createObjectNode();
    }
    JsonNode tree;
    try {
      tree = DOCUMENTS.readTree(json);
    } catch (IOException e) {
      throw badDocument();
    }
    if (tree == null || tree.isMissingNode() || !(tree.isObject() || tree.isNull())) {
      throw badDocument();
    }
    return tree.isNull() ? DOCUMENTS.createObjectNode() : (ObjectNode) tree;
  }

  /**
   * Writes a document as Go's {@code json.Marshal} writes a map: compact, the keys of every object
   * sorted.
   */
  static byte[] writeGoDocument(JsonNode document) {
    try {
      return SORTED.writeValueAsBytes(DOCUMENTS.treeToValue(document, Object.class));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }

  private static PatchException badDocument() {
    return new PatchException(PatchException.Kind.MALFORMED, "invalid JSON document");
  }

  private static ObjectMapper trees(CodecLimits limits) {
    JsonFactory factory =
        ObjectJson.factory(
            new JsonFactoryBuilder().streamReadConstraints(limits.jsonReadConstraints()));
    return JsonMapper.builder(factory)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
  }
}
