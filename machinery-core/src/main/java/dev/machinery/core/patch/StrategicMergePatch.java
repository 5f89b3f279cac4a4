package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch, applied to JSON with the schema of a Java type or of an
 * OpenAPI definition ({@link StrategicMergeSchema}): objects merge field by field ({@code null}
 * removes a field); lists replace unless their property is marked {@code @PatchStrategy("merge")},
 * when elements merge by their {@link PatchMergeKey} (objects) or as a set (values);
 * {@code @PatchStrategy("replace")} replaces an object whole; {@code "retainKeys"} clears the
 * fields a patch's {@code $retainKeys} does not list. The directives: {@code $patch: replace |
 * delete | merge} on an object or as a list element, {@code $deleteFromPrimitiveList/<field>},
 * {@code $setElementOrder/<field>} and {@code $retainKeys}. A value whose type the schema does not
 * know (an {@code Object}, an unstructured object) merges as a JSON merge patch does, as
 * kube-apiserver treats custom resources; a field a class does not declare is, as in Kubernetes, an
 * error where its strategy is needed (an object or list under it diffed or merged).
 *
 * <p>Stateless and safe to use from any thread; inputs are never changed.
 */
public final class StrategicMergePatch {
  private static final String PATCH = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
  private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private StrategicMergePatch() {}

  /**
   * Applies a strategic merge patch to a document of a type ({@code StrategicMergePatch}).
   *
   * @param original the document (not changed)
   * @param patch the patch: a JSON object
   * @param type the Java type whose properties carry the patch strategies
   * @return the patched document
   * @throws PatchException for a malformed patch or directive (a {@code $setElementOrder} list that
   *     does not match its patch list among them), or an object or list merged into a field the
   *     type does not declare; the message names the field
   */
  public static JsonNode apply(JsonNode original, JsonNode patch, Type type) {
    return apply(original, patch, StrategicMergeSchema.ofType(type));
  }

  /**
   * Applies a strategic merge patch to a JSON document, as Go's {@code
   * strategicpatch.StrategicMergePatch} applies one to bytes: both are read as JSON objects ({@code
   * null} being an empty one, and so is no original at all), and the result is written as Go writes
   * a map, compact with its keys sorted.
   *
   * @param original the document, or {@code null} for an empty one (not changed)
   * @param patch the patch: a JSON object, or {@code null} for none
   * @param schema the strategies and merge keys of the document's fields
   * @return the patched document, as UTF-8 JSON
   * @throws PatchException {@code invalid JSON document} when the original or the patch is not a
   *     JSON object (Go's {@code mergepatch.ErrBadJSONDoc}); otherwise as {@link #apply(JsonNode,
   *     JsonNode, StrategicMergeSchema)}
   */
  public static byte[] apply(byte[] original, byte[] patch, StrategicMergeSchema schema) {
    ObjectNode document = original == null ? NODES.objectNode() : Patches.readGoDocument(original);
    ObjectNode changes = Patches.readGoDocument(patch);
    return Patches.writeGoDocument(apply(document, changes, schema));
  }

  /**
   * Applies a strategic merge patch to a document with a schema's strategies, such as one read from
   * OpenAPI ({@link OpenApiPatchSchemas}) for an object without a Java class.
   *
   * @param original the document (not changed)
   * @param patch the patch: a JSON object
   * @param schema the strategies and merge keys of the document's fields
   * @return the patched document
   * @throws PatchException for a malformed patch or directive, or an object or list merged into a
   *     field the schema does not declare; the message names the field
   */
  public static JsonNode apply(JsonNode original, JsonNode patch, StrategicMergeSchema schema) {
    if (!patch.isObject()) {
      throw malformed("", "a strategic merge patch is a JSON object");
    }
    ObjectNode start =
        original != null && original.isObject()
            ? ((ObjectNode) original).deepCopy()
            : NODES.objectNode();
    JsonNode merged = mergeObject(start, (ObjectNode) patch, schema.root(), "");
    return merged == null ? NODES.objectNode() : merged;
  }

  /**
   * Creates the strategic merge patch that turns one document into another ({@code
   * CreateTwoWayMergePatch}), with Kubernetes' directives.
   *
   * @param original the document before
   * @param modified the document after
   * @param type the Java type whose properties carry the patch strategies
   * @return the patch; {@code {}} when they are equal
   * @throws PatchException when either is not an object, a merged list lacks its merge key, or two
   *     different objects or lists are under a field the type does not declare
   */
  public static ObjectNode createTwoWay(JsonNode original, JsonNode modified, Type type) {
    return createTwoWay(original, modified, StrategicMergeSchema.ofType(type));
  }

  /**
   * Creates the strategic merge patch that turns one document into another with a schema's
   * strategies ({@code CreateTwoWayMergePatchUsingLookupPatchMeta}).
   *
   * @param original the document before
   * @param modified the document after
   * @param schema the strategies and merge keys of the documents' fields
   * @return the patch; {@code {}} when they are equal
   * @throws PatchException when either is not an object, a merged list lacks its merge key, or two
   *     different objects or lists are under a field the schema does not declare
   */
  public static ObjectNode createTwoWay(
      JsonNode original, JsonNode modified, StrategicMergeSchema schema) {
    return new StrategicDiff(false, false)
        .diffObjects(object(original), object(modified), schema.root(), false, "");
  }

  /**
   * Creates the three-way strategic merge patch {@code kubectl apply} sends ({@code
   * CreateThreeWayMergePatch}): the changes and additions that turn the live object into the new
   * manifest, and the deletions of what the last applied manifest had and the new one has not; what
   * others set on the live object stays. Changes made on the server to the same fields are
   * overwritten (Kubernetes' {@code overwrite=true}, what {@code kubectl apply} uses).
   *
   * @param original the last applied configuration, or null
   * @param modified the new manifest
   * @param current the live object
   * @param type the Java type whose properties carry the patch strategies
   * @return the patch: the deletions and the changes merged into one with the type's strategies,
   *     exactly as Kubernetes makes it
   * @throws PatchException when a document is not an object, a merged list lacks its merge key, or
   *     two different objects or lists are under a field the type does not declare
   */
  public static ObjectNode createThreeWay(
      JsonNode original, JsonNode modified, JsonNode current, Type type) {
    return createThreeWay(original, modified, current, StrategicMergeSchema.ofType(type));
  }

  /**
   * Creates the three-way strategic merge patch {@code kubectl apply} sends, with a schema's
   * strategies ({@code CreateThreeWayMergePatch} with a lookup of patch metadata, as kubectl makes
   * it from the server's OpenAPI).
   *
   * @param original the last applied configuration, or null
   * @param modified the new manifest
   * @param current the live object
   * @param strategies the strategies and merge keys of the documents' fields
   * @return the patch
   * @throws PatchException when a document is not an object, a merged list lacks its merge key, or
   *     two different objects or lists are under a field the schema does not declare
   */
  public static ObjectNode createThreeWay(
      JsonNode original, JsonNode modified, JsonNode current, StrategicMergeSchema strategies) {
    PatchSchema schema = strategies.root();
    ObjectNode changes =
        new StrategicDiff(true, false)
            .diffObjects(object(current), object(modified), schema, false, "");
    ObjectNode deletions =
        new StrategicDiff(false, true)
            .diffObjects(object(original), object(modified), schema, false, "");
    return ThreeWayUnion.union(deletions, changes, schema);
  }

  private static ObjectNode object(JsonNode node) {
    if (node == null || node.isNull()) {
      return NODES.objectNode();
    }
    if (!node.isObject()) {
      throw malformed("", "a strategic merge patch is made between JSON objects");
    }
    return (ObjectNode) node;
  }

  /** Merges a patch object into an original object (a copy, changed in place); null deletes it. */
  private static JsonNode mergeObject(
      ObjectNode original, ObjectNode patch, PatchSchema schema, String path) {
    JsonNode directive = patch.get(PATCH);
    if (directive != null) {
      String kind = directive.asText();
      switch (kind) {
        case "replace":
          return strip(patch, schema, path);
        case "delete":
          return null;
        case "merge":
          break;
        default:
          throw malformed(
              path, "unknown patch type \"" + kind + "\" (expected replace, delete or merge)");
      }
    }
    JsonNode retain = patch.get(RETAIN_KEYS);
    if (retain != null) {
      if (!retain.isArray()) {
        throw malformed(path, "$retainKeys must be a list of field names");
      }
      Set<String> keep = new HashSet<>();
      retain.forEach(name -> keep.add(name.asText()));
      for (Map.Entry<String, JsonNode> entry : patch.properties()) {
        String name = entry.getKey();
        if (!name.startsWith("$") && !entry.getValue().isNull() && !keep.contains(name)) {
          throw malformed(
              path, "patch content doesn't match retainKeys list: " + name + " is not in it");
        }
      }
      original.retain(keep);
    }
    // $setElementOrder lists first, as Kubernetes merges them: the field's list merged, then
    // ordered by the directive.
    Set<String> ordered = new HashSet<>();
    for (Map.Entry<String, JsonNode> entry : patch.properties()) {
      if (entry.getKey().startsWith(SET_ELEMENT_ORDER)) {
        String name = entry.getKey().substring(SET_ELEMENT_ORDER.length());
        ordered.add(name);
        applyElementOrder(
            original,
            patch,
            name,
            entry.getValue(),
            schema.fieldWithStrategy(name, join(path, name)),
            join(path, name));
      }
    }
    for (Map.Entry<String, JsonNode> entry : patch.properties()) {
      String name = entry.getKey();
      JsonNode value = entry.getValue();
      if (name.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        deleteFromPrimitiveList(
            original, name.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value, path);
      } else if (name.startsWith("$")) {
        if (!name.equals(PATCH)
            && !name.equals(RETAIN_KEYS)
            && !name.startsWith(SET_ELEMENT_ORDER)) {
          throw malformed(join(path, name), "unknown directive " + name);
        }
      } else if (ordered.contains(name)) {
        continue;
      } else if (value.isNull()) {
        original.remove(name);
      } else {
        JsonNode before = original.get(name);
        PatchSchema.Field field =
            before != null
                    && before.getNodeType() == value.getNodeType()
                    && (value.isObject() || value.isArray())
                ? schema.fieldWithStrategy(name, join(path, name))
                : schema.field(name);
        JsonNode merged = mergeValue(before, value, field, join(path, name));
        if (merged == null) {
          original.remove(name);
        } else {
          original.set(name, merged);
        }
      }
    }
    return original;
  }

  private static JsonNode mergeValue(
      JsonNode original, JsonNode patch, PatchSchema.Field field, String path) {
    if (patch.isObject()) {
      ObjectNode object = (ObjectNode) patch;
      if (field.replaces()) {
        return strip(object, field.schema(), path);
      }
      if (original == null || !original.isObject()) {
        // Nothing to merge into: the patch's value, or nothing for {$patch: delete}.
        return mergeObject(NODES.objectNode(), object, field.schema(), path);
      }
      // {$patch: delete} on an existing object leaves it empty, as Kubernetes does.
      JsonNode merged = mergeObject((ObjectNode) original, object, field.schema(), path);
      return merged == null ? NODES.objectNode() : merged;
    }
    if (patch.isArray()) {
      if (field.merges() && !field.replaces()) {
        ArrayNode start =
            original != null && original.isArray() ? (ArrayNode) original : NODES.arrayNode();
        return mergeList(start, (ArrayNode) patch, field, path);
      }
      return stripList((ArrayNode) patch, field.schema().element(), path);
    }
    return patch.deepCopy();
  }

  /** Merges a field's list and orders it by the patch's {@code $setElementOrder} list. */
  private static void applyElementOrder(
      ObjectNode original,
      ObjectNode patch,
      String name,
      JsonNode order,
      PatchSchema.Field field,
      String path) {
    if (!order.isArray()) {
      throw malformed(path, "$setElementOrder must be a list");
    }
    JsonNode before = original.get(name);
    JsonNode patchList = patch.get(name);
    if (patchList != null && patchList.isArray()) {
      checkOrder((ArrayNode) patchList, (ArrayNode) order, field.mergeKey(), path);
    }
    ArrayNode server = before != null && before.isArray() ? (ArrayNode) before : null;
    ArrayNode merged;
    if (server != null && (patchList == null || patchList.isNull())) {
      merged = server.deepCopy();
    } else if (server == null && patchList != null && patchList.isArray()) {
      merged = (ArrayNode) mergeValue(null, patchList, field, path);
    } else if (server != null && patchList.isArray()) {
      merged = (ArrayNode) mergeValue(server.deepCopy(), patchList, field, path);
    } else {
      return;
    }
    String key = field.mergeKey();
    // Kubernetes orders against the server's list as its merge leaves it in place: deleted
    // elements gone, new ones after, no longer than the list was.
    List<JsonNode> serverOrder = new ArrayList<>();
    if (server != null) {
      for (JsonNode item : server) {
        if (!deleted(patchList, item, key)) {
          serverOrder.add(item);
        }
      }
      if (serverOrder.size() < server.size() && patchList != null && patchList.isArray()) {
        for (JsonNode item : patchList) {
          if (serverOrder.size() == server.size()) {
            break;
          }
          if (!item.has(PATCH) && indexOfId(ids(serverOrder, key), id(item, key)) < 0) {
            serverOrder.add(item);
          }
        }
      }
    }
    original.set(name, normalize(merged, order, serverOrder, key, path));
  }

  /**
   * Refuses a patch list whose elements (deletions and directives aside) are not in the order of
   * its {@code $setElementOrder} list, or not all in it, as Kubernetes does.
   */
  private static void checkOrder(ArrayNode patchList, ArrayNode order, String key, String path) {
    int at = 0;
    for (JsonNode item : patchList) {
      if (item.isObject() && item.has(PATCH)) {
        continue;
      }
      JsonNode id = id(item, key);
      while (at < order.size() && (id == null || !sameId(id(order.get(at), key), id))) {
        at++;
      }
      if (at == order.size()) {
        throw malformed(
            path,
            "the order in patch list "
                + patchList
                + " doesn't match $setElementOrder list "
                + order);
      }
      at++;
    }
  }

  private static boolean sameId(JsonNode left, JsonNode right) {
    return left != null && right != null && JsonValues.same(left, right);
  }

  private static boolean deleted(JsonNode patchList, JsonNode item, String key) {
    if (patchList == null || !patchList.isArray() || key == null) {
      return false;
    }
    for (JsonNode patchItem : patchList) {
      if (patchItem.isObject()
          && "delete".equals(patchItem.path(PATCH).asText())
          && patchItem.get(key) != null
          && item.get(key) != null
          && JsonValues.same(patchItem.get(key), item.get(key))) {
        return true;
      }
    }
    return false;
  }

  /** Merges a patch list into an original list with the merge strategy. */
  private static ArrayNode mergeList(
      ArrayNode original, ArrayNode patch, PatchSchema.Field field, String path) {
    PatchSchema element = field.schema().element();
    String key = field.mergeKey();
    boolean objects = false;
    for (JsonNode item : patch) {
      if (item.isObject()) {
        objects = true;
      } else if (objects) {
        throw malformed(path, "a list mixes objects and values");
      }
    }
    if (!objects) {
      List<JsonNode> serverOrder = new ArrayList<>();
      original.forEach(serverOrder::add);
      ArrayNode merged = NODES.arrayNode();
      for (JsonNode value : original) {
        if (!contains(merged, value)) {
          merged.add(value.deepCopy());
        }
      }
      for (JsonNode value : patch) {
        if (!contains(merged, value)) {
          merged.add(value.deepCopy());
        }
      }
      return normalize(merged, patch, serverOrder, null, path);
    }
    if (key == null) {
      throw malformed(
          path,
          "a list of objects merged by a strategic merge patch needs a merge key"
              + " (@PatchMergeKey, or x-kubernetes-patch-merge-key in OpenAPI)");
    }
    ArrayNode remaining = original.deepCopy();
    ArrayNode plain = NODES.arrayNode();
    boolean replace = false;
    for (JsonNode item : patch) {
      JsonNode directive = item.get(PATCH);
      if (directive == null) {
        plain.add(item);
        continue;
      }
      switch (directive.asText()) {
        case "delete" -> {
          JsonNode id = item.get(key);
          if (id == null) {
            throw malformed(path, "map: " + item + " does not contain declared merge key: " + key);
          }
          for (int at = indexOf(remaining, key, id); at >= 0; at = indexOf(remaining, key, id)) {
            remaining.remove(at);
          }
        }
        case "replace" -> replace = true;
        case "merge" -> throw malformed(path, "merging lists cannot yet be specified in the patch");
        default ->
            throw malformed(
                path,
                "unknown patch type \""
                    + directive.asText()
                    + "\" (expected replace, delete or merge)");
      }
    }
    if (replace) {
      ArrayNode replaced = NODES.arrayNode();
      for (JsonNode item : plain) {
        replaced.add(strip((ObjectNode) item, element, path));
      }
      return replaced;
    }
    List<JsonNode> serverOrder = new ArrayList<>();
    remaining.forEach(serverOrder::add);
    ArrayNode merged = remaining.deepCopy();
    for (JsonNode item : plain) {
      JsonNode id = item.get(key);
      if (id == null) {
        throw malformed(path, "map: " + item + " does not contain declared merge key: " + key);
      }
      int at = indexOf(merged, key, id);
      JsonNode result =
          mergeObject(
              at >= 0 && merged.get(at).isObject()
                  ? (ObjectNode) merged.get(at)
                  : NODES.objectNode(),
              (ObjectNode) item,
              element,
              path + "[" + key + "=" + id.asText() + "]");
      if (at >= 0) {
        merged.set(at, result);
      } else {
        merged.add(result);
      }
    }
    return normalize(merged, plain, serverOrder, key, path);
  }

  /**
   * Orders a merged list as Kubernetes does: the elements the order names (the patch's, or its
   * {@code $setElementOrder}) in that order; the others ("server-only") in the server's order; the
   * two merged so that a server-only element comes before a named one only when both are on the
   * server and it came first there.
   */
  private static ArrayNode normalize(
      ArrayNode merged, JsonNode order, List<JsonNode> server, String key, String path) {
    List<JsonNode> ids = new ArrayList<>();
    for (JsonNode item : order) {
      if (!item.has(PATCH)) {
        ids.add(id(item, key));
      }
    }
    List<JsonNode> serverIds = ids(server, key);
    List<JsonNode> named = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    for (JsonNode item : merged) {
      (indexOfId(ids, id(item, key)) >= 0 ? named : serverOnly).add(item);
    }
    named.sort((a, b) -> Integer.compare(indexOfId(ids, id(a, key)), indexOfId(ids, id(b, key))));
    serverOnly.sort(
        (a, b) ->
            Integer.compare(
                rank(indexOfId(serverIds, id(a, key))), rank(indexOfId(serverIds, id(b, key)))));
    ArrayNode result = NODES.arrayNode();
    int i = 0;
    int j = 0;
    while (i < serverOnly.size() || j < named.size()) {
      if (j >= named.size()) {
        result.add(serverOnly.get(i++));
      } else if (i >= serverOnly.size()) {
        result.add(named.get(j++));
      } else {
        int left = indexOfId(serverIds, id(serverOnly.get(i), key));
        int right = indexOfId(serverIds, id(named.get(j), key));
        if (left >= 0 && right >= 0 && left < right) {
          result.add(serverOnly.get(i++));
        } else {
          result.add(named.get(j++));
        }
      }
    }
    return result;
  }

  private static List<JsonNode> ids(Iterable<JsonNode> items, String key) {
    List<JsonNode> ids = new ArrayList<>();
    for (JsonNode item : items) {
      ids.add(id(item, key));
    }
    return ids;
  }

  private static JsonNode id(JsonNode item, String key) {
    return key == null ? item : item.get(key);
  }

  private static int rank(int index) {
    return index < 0 ? Integer.MAX_VALUE : index;
  }

  private static int indexOfId(List<JsonNode> ids, JsonNode id) {
    if (id == null) {
      return -1;
    }
    for (int i = 0; i < ids.size(); i++) {
      if (ids.get(i) != null && JsonValues.same(ids.get(i), id)) {
        return i;
      }
    }
    return -1;
  }

  private static void deleteFromPrimitiveList(
      ObjectNode original, String name, JsonNode values, String path) {
    if (!values.isArray()) {
      throw malformed(join(path, name), "$deleteFromPrimitiveList must be a list");
    }
    JsonNode list = original.get(name);
    if (list == null || !list.isArray()) {
      return;
    }
    ArrayNode kept = NODES.arrayNode();
    for (JsonNode item : list) {
      if (!contains(values, item)) {
        kept.add(item);
      }
    }
    original.set(name, kept);
  }

  /** A value set whole: its directives applied to nothing, so none is left in the result. */
  private static JsonNode strip(ObjectNode patch, PatchSchema schema, String path) {
    ObjectNode copy = patch.deepCopy();
    copy.remove(PATCH);
    JsonNode result = mergeObject(NODES.objectNode(), copy, schema, path);
    return result == null ? NODES.objectNode() : result;
  }

  private static ArrayNode stripList(ArrayNode patch, PatchSchema element, String path) {
    ArrayNode copy = NODES.arrayNode();
    for (JsonNode item : patch) {
      copy.add(item.isObject() ? strip((ObjectNode) item, element, path) : item.deepCopy());
    }
    return copy;
  }

  private static boolean contains(JsonNode list, JsonNode value) {
    for (JsonNode item : list) {
      if (JsonValues.same(item, value)) {
        return true;
      }
    }
    return false;
  }

  private static int indexOf(ArrayNode list, String key, JsonNode id) {
    for (int i = 0; i < list.size(); i++) {
      JsonNode candidate = list.get(i).get(key);
      if (candidate != null && JsonValues.same(candidate, id)) {
        return i;
      }
    }
    return -1;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static PatchException malformed(String path, String message) {
    return new PatchException(
        PatchException.Kind.MALFORMED, (path.isEmpty() ? "" : path + ": ") + message);
  }
}
