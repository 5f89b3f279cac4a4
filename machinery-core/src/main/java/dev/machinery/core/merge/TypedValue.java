package dev.machinery.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.machinery.core.typed.SchemaType;
import java.util.Objects;

/**
 * A JSON value with the type it is read by, as structured-merge-diff's {@code TypedValue}. The tree
 * is not copied: callers must not change it while the value is in use.
 *
 * @param type the type
 * @param value the value (JSON null for nothing)
 */
public record TypedValue(SchemaType type, JsonNode value) {
  /**
   * Checks the parts; a Java null value is a JSON null.
   *
   * @param type the type
   * @param value the value
   */
  public TypedValue {
    Objects.requireNonNull(type, "type");
    value = value == null ? NullNode.getInstance() : value;
  }

  /**
   * Returns another value of the same type.
   *
   * @param other the value
   * @return the typed value
   */
  public TypedValue with(JsonNode other) {
    return new TypedValue(type, other);
  }
}
