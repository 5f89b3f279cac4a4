package dev.machinery.core.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * JSON patch (RFC 6902): a list of {@code add}, {@code remove}, {@code replace}, {@code move},
 * {@code copy} and {@code test} operations on JSON pointers, applied in order, all or nothing.
 * Errors name the operation's index, its op and its path ({@code operation 2 (replace
 * /spec/replicas): ...}). The empty pointer {@code ""} is the whole document (RFC 6902): {@code
 * add} and {@code replace} there replace it, {@code remove} there is refused. Bounded by {@link
 * PatchLimits}: the number of operations, and the values copies may create.
 *
 * <p>Stateless and safe to use from any thread; inputs are never changed.
 */
public final class JsonPatch {
  private JsonPatch() {}

  /**
   * Applies a JSON patch with the {@linkplain PatchLimits#DEFAULTS default limits}.
   *
   * @param target the document (not changed)
   * @param patch the patch: a JSON array of operations
   * @return the patched document
   * @throws PatchException naming the operation that failed
   */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    return apply(target, patch, PatchLimits.DEFAULTS);
  }

  /**
   * Applies a JSON patch.
   *
   * @param target the document (not changed)
   * @param patch the patch: a JSON array of operations
   * @param limits the limits
   * @return the patched document
   * @throws PatchException naming the operation that failed
   */
  public static JsonNode apply(JsonNode target, JsonNode patch, PatchLimits limits) {
    if (!patch.isArray()) {
      throw new PatchException(
          PatchException.Kind.MALFORMED, "a JSON patch is a JSON array of operations");
    }
    if (patch.size() > limits.maxOperations()) {
      throw new PatchException(
          PatchException.Kind.TOO_LARGE,
          "The allowed maximum operations in a JSON patch is "
              + limits.maxOperations()
              + ", got "
              + patch.size());
    }
    JsonNode document = target.deepCopy();
    long copied = 0;
    for (int index = 0; index < patch.size(); index++) {
      JsonNode operation = patch.get(index);
      String op = text(operation, "op", index, null);
      String path = text(operation, "path", index, op);
      String where = "operation " + index + " (" + op + " " + JsonPointer.show(path) + ")";
      JsonPointer pointer = pointer(path, where);
      try {
        switch (op) {
          case "add" -> document = add(document, pointer, value(operation, where).deepCopy());
          case "remove" -> document = remove(document, pointer);
          case "replace" -> {
            JsonNode value = value(operation, where).deepCopy();
            if (pointer.isRoot()) {
              document = value; // the root always exists: replacing it replaces the document
            } else {
              document = remove(document, pointer);
              document = add(document, pointer, value);
            }
          }
          case "move" -> {
            JsonPointer from = pointer(text(operation, "from", index, op), where);
            if (from.isProperPrefixOf(pointer)) {
              throw new IllegalStateException("cannot move a value into one of its own children");
            }
            JsonNode value = get(document, from);
            if (!from.equals(pointer)) { // a move to where the value is changes nothing
              document = remove(document, from);
              document = add(document, pointer, value);
            }
          }
          case "copy" -> {
            JsonPointer from = pointer(text(operation, "from", index, op), where);
            JsonNode value = get(document, from).deepCopy();
            copied += JsonValues.count(value);
            if (copied > limits.maxCopiedValues()) {
              throw new PatchException(
                  PatchException.Kind.TOO_LARGE,
                  where
                      + ": copies would create more than "
                      + limits.maxCopiedValues()
                      + " JSON values");
            }
            document = add(document, pointer, value);
          }
          case "test" -> {
            JsonNode expected = value(operation, where);
            JsonNode actual = get(document, pointer);
            if (!JsonValues.same(expected, actual)) {
              throw new IllegalStateException(
                  "testing value " + pointer + " failed: found " + actual);
            }
          }
          default ->
              throw new PatchException(
                  PatchException.Kind.MALFORMED,
                  "operation "
                      + index
                      + ": unknown op \""
                      + op
                      + "\" (expected add, remove, replace,"
                      + " move, copy or test)");
        }
      } catch (IllegalStateException e) {
        throw new PatchException(PatchException.Kind.NOT_APPLICABLE, where + ": " + e.getMessage());
      }
    }
    return document;
  }

  private static String text(JsonNode operation, String field, int index, String op) {
    if (!operation.isObject()) {
      throw new PatchException(
          PatchException.Kind.MALFORMED, "operation " + index + " is not a JSON object");
    }
    JsonNode value = operation.get(field);
    if (value == null || !value.isTextual()) {
      throw new PatchException(
          PatchException.Kind.MALFORMED,
          "operation "
              + index
              + (op == null ? "" : " (" + op + ")")
              + ": \""
              + field
              + "\" is missing or not a string");
    }
    return value.textValue();
  }

  private static JsonNode value(JsonNode operation, String where) {
    JsonNode value = operation.get("value");
    if (value == null) {
      throw new PatchException(PatchException.Kind.MALFORMED, where + ": \"value\" is missing");
    }
    return value;
  }

  private static JsonPointer pointer(String path, String where) {
    try {
      return JsonPointer.parse(path);
    } catch (IllegalArgumentException e) {
      throw new PatchException(
          PatchException.Kind.MALFORMED, where + ": bad JSON pointer: " + e.getMessage());
    }
  }

  /** The value at a pointer; IllegalStateException names the missing part. */
  static JsonNode get(JsonNode document, JsonPointer pointer) {
    JsonNode current = document;
    for (String token : pointer.tokens()) {
      current = child(current, token);
      if (current == null) {
        throw new IllegalStateException("path " + pointer + " does not exist");
      }
    }
    return current;
  }

  private static JsonNode child(JsonNode node, String token) {
    if (node.isObject()) {
      return node.get(token);
    }
    if (node.isArray()) {
      int index = index(token, node.size() - 1);
      return index < 0 ? null : node.get(index);
    }
    return null;
  }

  /** An array index token: digits without leading zeros, at most {@code max}; else -1. */
  private static int index(String token, int max) {
    if (token.isEmpty() || token.length() > 9 || (token.length() > 1 && token.charAt(0) == '0')) {
      return -1;
    }
    for (int i = 0; i < token.length(); i++) {
      if (token.charAt(i) < '0' || token.charAt(i) > '9') {
        return -1;
      }
    }
    int index = Integer.parseInt(token);
    return index <= max ? index : -1;
  }

  private static JsonNode add(JsonNode document, JsonPointer pointer, JsonNode value) {
    if (pointer.isRoot()) {
      return value;
    }
    List<String> tokens = pointer.tokens();
    JsonNode parent = parentOf(document, pointer);
    String last = tokens.get(tokens.size() - 1);
    if (parent.isObject()) {
      ((ObjectNode) parent).set(last, value);
    } else if (parent.isArray()) {
      ArrayNode array = (ArrayNode) parent;
      if (last.equals("-")) {
        array.add(value);
      } else {
        int index = index(last, array.size());
        if (index < 0) {
          throw new IllegalStateException(
              "index " + last + " is out of the array's bounds (0 to " + array.size() + ")");
        }
        array.insert(index, value);
      }
    } else {
      throw new IllegalStateException("the parent of " + pointer + " is not an object or array");
    }
    return document;
  }

  private static JsonNode remove(JsonNode document, JsonPointer pointer) {
    if (pointer.isRoot()) {
      throw new IllegalStateException("the whole document cannot be removed");
    }
    List<String> tokens = pointer.tokens();
    JsonNode parent = parentOf(document, pointer);
    String last = tokens.get(tokens.size() - 1);
    if (parent.isObject() && parent.has(last)) {
      ((ObjectNode) parent).remove(last);
    } else if (parent.isArray() && index(last, parent.size() - 1) >= 0) {
      ((ArrayNode) parent).remove(index(last, parent.size() - 1));
    } else {
      throw new IllegalStateException("path " + pointer + " does not exist");
    }
    return document;
  }

  private static JsonNode parentOf(JsonNode document, JsonPointer pointer) {
    List<String> tokens = pointer.tokens();
    JsonNode current = document;
    for (int i = 0; i < tokens.size() - 1; i++) {
      current = child(current, tokens.get(i));
      if (current == null) {
        throw new IllegalStateException("path " + pointer + " does not exist");
      }
    }
    return current;
  }
}
