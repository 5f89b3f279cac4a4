package dev.machinery.core.typed;

import dev.machinery.MachineryException;
import java.util.ArrayList;
import java.util.List;

/**
 * A value that does not fit its type, or a schema that cannot be used: a field the type does not
 * declare, a value of the wrong kind, two elements of an associative list with the same key, an
 * element without any key field. Holds every error found, each with its path; the message lists
 * them as structured-merge-diff's {@code ValidationErrors} does. {@code BadRequest}, 400.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class TypedException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** The errors; a list of records, serializable as a whole. */
  private final ArrayList<ValidationError> errors;

  /**
   * Creates the exception.
   *
   * @param errors the errors, at least one
   */
  public TypedException(List<ValidationError> errors) {
    super(message(errors));
    this.errors = new ArrayList<>(errors);
  }

  private static String message(List<ValidationError> errors) {
    if (errors.size() == 1) {
      return errors.get(0).toString();
    }
    StringBuilder text = new StringBuilder("errors:");
    for (ValidationError error : errors) {
      text.append("\n  ").append(error);
    }
    return text.toString();
  }

  /**
   * Returns the errors in the order they were found.
   *
   * @return the errors
   */
  public List<ValidationError> errors() {
    return List.copyOf(errors);
  }

  @Override
  public String statusReason() {
    return "BadRequest";
  }

  @Override
  public int statusCode() {
    return 400;
  }
}
