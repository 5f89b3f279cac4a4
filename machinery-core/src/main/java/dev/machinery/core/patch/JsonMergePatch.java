package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * JSON merge patch (RFC 7386), as Kubernetes applies it to custom resources and as {@code kubectl}
 * computes it for kinds it does not know: an object patch merges field by field, {@code null}
 * removes a field, anything else (lists included) replaces. {@link #createThreeWay} is the patch
 * {@code kubectl apply} sends.
 *
 * <p>Stateless and safe to use from any thread; inputs are never changed.
 */
public final class JsonMergePatch {
  private JsonMergePatch() {}

  /**
   * Applies a merge patch.
   *
   * @param target the document (not changed)
   * @param patch the patch (not changed)
   * @return the patched document
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result =
        target != null && target.isObject()
            ? ((ObjectNode) target).deepCopy()
            : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
      }
    }
    return result;
  }

  /**
   * Creates the merge patch that turns one document into another ({@code CreateMergePatch}).
   *
   * @param original the document before
   * @param modified the document after
   * @return the patch: {@code {}} when they are equal
   * @throws PatchException when either is not a JSON object
   */
  public static ObjectNode create(JsonNode original, JsonNode modified) {
    if (!original.isObject() || !modified.isObject()) {
      throw new PatchException(
          PatchException.Kind.MALFORMED, "a merge patch is made between two JSON objects");
    }
    return diff((ObjectNode) original, (ObjectNode) modified);
  }

  private static ObjectNode diff(ObjectNode original, ObjectNode modified) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    for (Iterator<String> names = original.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!modified.has(name)) {
        patch.putNull(name);
      }
    }
    for (Map.Entry<String, JsonNode> field : modified.properties()) {
      JsonNode before = original.get(field.getKey());
      JsonNode after = field.getValue();
      if (before == null) {
        patch.set(field.getKey(), after.deepCopy());
      } else if (before.isObject() && after.isObject()) {
        ObjectNode nested = diff((ObjectNode) before, (ObjectNode) after);
        if (!nested.isEmpty()) {
          patch.set(field.getKey(), nested);
        }
      } else if (!JsonValues.same(before, after)) {
        patch.set(field.getKey(), after.deepCopy());
      }
    }
    return patch;
  }

  /**
   * Creates the three-way merge patch {@code kubectl apply} sends ({@code
   * CreateThreeWayJSONMergePatch}): the additions and changes that turn the live object into the
   * new manifest, and the deletions of fields the last applied manifest had and the new one has not
   * (fields others set stay). Each precondition sees the patch and may refuse it.
   *
   * @param original the last applied configuration, or null
   * @param modified the new manifest
   * @param current the live object, or null
   * @param preconditions checks the patch must pass, such as {@link #requireKeyUnchanged}
   * @return the patch
   * @throws PatchException {@code CONFLICT} when the changes and deletions disagree, or a
   *     precondition fails
   */
  @SafeVarargs
  public static ObjectNode createThreeWay(
      JsonNode original,
      JsonNode modified,
      JsonNode current,
      Predicate<ObjectNode>... preconditions) {
    JsonNode before = original == null ? JsonNodeFactory.instance.objectNode() : original;
    JsonNode live = current == null ? JsonNodeFactory.instance.objectNode() : current;
    ObjectNode changes = keepOrDropNulls(create(live, modified), false);
    ObjectNode deletions = keepOrDropNulls(create(before, modified), true);
    if (conflicts(changes, deletions)) {
      throw new PatchException(
          PatchException.Kind.CONFLICT,
          "changes to " + changes + " conflict with deletions " + deletions);
    }
    ObjectNode patch = (ObjectNode) apply(deletions, changes);
    for (Predicate<ObjectNode> precondition : preconditions) {
      if (!precondition.test(patch)) {
        throw new PatchException(PatchException.Kind.CONFLICT, "precondition failed for: " + patch);
      }
    }
    return patch;
  }

  /**
   * A precondition: the patch leaves a top-level field alone (kubectl requires {@code apiVersion}
   * and {@code kind}).
   *
   * @param key the field
   * @return the precondition
   */
  public static Predicate<ObjectNode> requireKeyUnchanged(String key) {
    return patch -> !patch.has(key);
  }

  /**
   * A precondition: the patch leaves a field of {@code metadata} alone (kubectl requires {@code
   * name}).
   *
   * @param key the field of metadata
   * @return the precondition
   */
  public static Predicate<ObjectNode> requireMetadataKeyUnchanged(String key) {
    return patch -> !(patch.get("metadata") instanceof ObjectNode meta) || !meta.has(key);
  }

  /** Keeps only the deletions ({@code keepNulls}) or only the additions and changes. */
  private static ObjectNode keepOrDropNulls(ObjectNode patch, boolean keepNulls) {
    ObjectNode filtered = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      JsonNode value = field.getValue();
      if (value.isNull()) {
        if (keepNulls) {
          filtered.putNull(field.getKey());
        }
      } else if (value.isObject()) {
        if (value.isEmpty()) {
          if (!keepNulls) {
            filtered.set(field.getKey(), value);
          }
          continue;
        }
        ObjectNode nested = keepOrDropNulls((ObjectNode) value, keepNulls);
        if (!nested.isEmpty()) {
          filtered.set(field.getKey(), nested);
        }
      } else if (!keepNulls) {
        filtered.set(field.getKey(), value);
      }
    }
    return filtered;
  }

  /** Whether two patches set a field both touch to different values ({@code HasConflicts}). */
  static boolean conflicts(JsonNode left, JsonNode right) {
    if (left.isObject()) {
      if (!right.isObject()) {
        return true;
      }
      List<String> names = new ArrayList<>();
      left.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode other = right.get(name);
        if (other != null && conflicts(left.get(name), other)) {
          return true;
        }
      }
      return false;
    }
    if (left.isArray()) {
      if (!right.isArray() || left.size() != right.size()) {
        return true;
      }
      for (int i = 0; i < left.size(); i++) {
        if (conflicts(left.get(i), right.get(i))) {
          return true;
        }
      }
      return false;
    }
    return !JsonValues.same(left, right);
  }
}
