package dev.machinery.unversioned.labels;

import dev.machinery.MachineryException;
import dev.machinery.unversioned.validation.FieldError;
import java.util.List;

/**
 * A selector string or requirement that Kubernetes would refuse: malformed syntax (with the token
 * found and what was expected, in Kubernetes' words) or a key or value that is not valid (with the
 * field errors). Carries the selector text.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class SelectorParseException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String selector;
  private final transient List<FieldError> errors;

  SelectorParseException(String selector, String message, List<FieldError> errors) {
    super(message);
    this.selector = selector;
    this.errors = List.copyOf(errors);
  }

  /**
   * Returns the selector text that failed, or null when a requirement was built directly.
   *
   * @return the text
   */
  public String selector() {
    return selector;
  }

  /**
   * Returns the field errors of invalid keys and values; empty for a syntax error.
   *
   * @return the errors
   */
  public List<FieldError> errors() {
    return errors;
  }
}
