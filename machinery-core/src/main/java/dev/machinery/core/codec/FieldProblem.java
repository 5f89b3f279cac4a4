package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import java.util.Objects;

/**
 * An unknown or duplicate field found while decoding, with its path in the document.
 *
 * <p>Paths are written as Kubernetes writes them: {@code spec.template.spec.containers[1].name}.
 * Immutable and safe to share between threads.
 *
 * @param type what is wrong with the field
 * @param path the field's path from the document root
 */
public record FieldProblem(Type type, String path) {
  /** What is wrong with a field. */
  public enum Type {
    /** The field is not a property of the type it appears in. */
    UNKNOWN_FIELD,
    /** The field appears more than once in one object. */
    DUPLICATE_FIELD
  }

  /**
   * Checks for nulls.
   *
   * @param type see the record description
   * @param path see the record description
   */
  public FieldProblem {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(path, "path");
  }

  /** Returns {@code unknown field "spec.foo"} or {@code duplicate field "spec.foo"}. */
  @Override
  public String toString() {
    return (type == Type.UNKNOWN_FIELD ? "unknown field " : "duplicate field ") + quote(path);
  }
}
