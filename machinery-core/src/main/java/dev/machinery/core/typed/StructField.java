package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A field of a struct: its name on the wire, its type and its default (the value a key field of an
 * associative list takes when an element omits it, as {@code protocol: TCP} in a container's
 * ports).
 *
 * @param name the field's name
 * @param type the field's type
 * @param defaultValue the default, or null when the field has none
 */
public record StructField(String name, TypeRef type, JsonNode defaultValue) {
  /**
   * Checks and copies the parts.
   *
   * @param name the field's name
   * @param type the field's type
   * @param defaultValue the default, or null when the field has none
   */
  public StructField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    defaultValue = defaultValue == null ? null : defaultValue.deepCopy();
  }

  /**
   * Returns a field without a default.
   *
   * @param name the field's name
   * @param type the field's type
   * @return the field
   */
  public static StructField of(String name, TypeRef type) {
    return new StructField(name, type, null);
  }

  /**
   * Returns a copy of the default.
   *
   * @return the default, or null when the field has none
   */
  @Override
  public JsonNode defaultValue() {
    return defaultValue == null ? null : defaultValue.deepCopy();
  }
}
