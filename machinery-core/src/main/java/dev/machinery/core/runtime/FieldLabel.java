package dev.machinery.core.runtime;

import java.util.Objects;

/**
 * A field selector's label and value, such as {@code spec.nodeName=node-1}, as a field-label
 * conversion function returns it in the internal vocabulary. Immutable.
 *
 * @param label the field label, such as {@code metadata.name}
 * @param value the value
 */
public record FieldLabel(String label, String value) {
  /**
   * Checks for nulls.
   *
   * @param label see the record description
   * @param value see the record description
   */
  public FieldLabel {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(value, "value");
  }
}
