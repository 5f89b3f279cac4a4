package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.fieldpath.FieldSet;
import java.util.List;
import java.util.Objects;

/**
 * A type of a {@link Schema}, to check values against and to compute their field sets, as
 * structured-merge-diff's {@code ParseableType} and {@code TypedValue}. Values are JSON trees as
 * Jackson reads them. Immutable and safe to share between threads.
 *
 * @param schema the schema the type belongs to
 * @param ref the type
 */
public record SchemaType(Schema schema, TypeRef ref) {
  /** A value of unknown type: maps granular, lists atomic, as Kubernetes treats unknown kinds. */
  public static final SchemaType DEDUCED = Schema.builder().build().type(Schema.DEDUCED);

  /**
   * Checks the parts.
   *
   * @param schema the schema the type belongs to
   * @param ref the type
   */
  public SchemaType {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(ref, "ref");
  }

  /**
   * Checks a value against the type, duplicates in associative lists included.
   *
   * @param value the value ({@code null} or JSON null is a valid value of any type)
   * @throws TypedException listing every error, each with its path
   */
  public void validate(JsonNode value) {
    validate(value, false);
  }

  /**
   * Checks a value against the type.
   *
   * @param value the value
   * @param allowDuplicates whether two elements of an associative list may have the same key (as
   *     kube-apiserver allows in objects it already stores)
   * @throws TypedException listing every error, each with its path
   */
  public void validate(JsonNode value, boolean allowDuplicates) {
    List<ValidationError> errors = new TypedWalker(schema, allowDuplicates).validate(ref, value);
    if (!errors.isEmpty()) {
      throw new TypedException(errors);
    }
  }

  /**
   * Returns the set of fields the value holds, after checking it (duplicates refused): every
   * scalar, every atomic list or map as one member, every element of an associative list as a
   * member with its fields below it, every field of a map not declared by a struct, and every null
   * or empty map.
   *
   * @param value the value
   * @return the field set
   * @throws TypedException if the value does not fit the type
   */
  public FieldSet toFieldSet(JsonNode value) {
    return toFieldSet(value, false);
  }

  /**
   * Returns the set of fields the value holds, after checking it. Elements of an associative list
   * that share a key (allowed only when asked) are together one member, with nothing below it.
   *
   * @param value the value
   * @param allowDuplicates whether two elements of an associative list may have the same key
   * @return the field set
   * @throws TypedException if the value does not fit the type
   */
  public FieldSet toFieldSet(JsonNode value, boolean allowDuplicates) {
    validate(value, allowDuplicates);
    return new TypedWalker(schema, allowDuplicates).toFieldSet(ref, value);
  }
}
