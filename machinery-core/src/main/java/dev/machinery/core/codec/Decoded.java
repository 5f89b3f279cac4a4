package dev.machinery.core.codec;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;

/**
 * A decoded object, the kind it was decoded as, and the warnings of {@link FieldValidation#WARN}
 * mode (empty in the other modes; at most the first 100, so that a hostile document cannot inflate
 * them).
 *
 * <p>Immutable apart from the object itself, which belongs to the caller.
 *
 * @param object the decoded object, its {@code apiVersion} and {@code kind} set
 * @param kind the kind named by the document
 * @param warnings unknown and duplicate fields, in document order
 * @param <T> the object's type
 */
public record Decoded<T>(T object, GroupVersionKind kind, List<FieldProblem> warnings) {
  /**
   * Checks for nulls and copies the warnings.
   *
   * @param object see the record description
   * @param kind see the record description
   * @param warnings see the record description
   */
  public Decoded {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(kind, "kind");
    warnings = List.copyOf(warnings);
  }
}
