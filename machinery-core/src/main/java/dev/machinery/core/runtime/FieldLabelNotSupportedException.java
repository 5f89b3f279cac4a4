package dev.machinery.core.runtime;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Objects;

/** A field selector names a label that its kind does not support. Immutable. */
public final class FieldLabelNotSupportedException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient GroupVersionKind kind;
  private final String label;

  /**
   * Creates the exception.
   *
   * @param kind the kind
   * @param label the unsupported label
   * @param message the message, naming both
   */
  public FieldLabelNotSupportedException(GroupVersionKind kind, String label, String message) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.label = Objects.requireNonNull(label, "label");
  }

  /**
   * Returns the kind.
   *
   * @return the kind
   */
  public GroupVersionKind kind() {
    return kind;
  }

  /**
   * Returns the unsupported label.
   *
   * @return the label
   */
  public String label() {
    return label;
  }
}
