package dev.machinery.unversioned.fields;

import dev.machinery.MachineryException;

/**
 * A field selector Kubernetes would refuse: a term with no operator, or a value with a bad escape
 * or an unescaped {@code ,} or {@code =}. The message is Kubernetes'; the selector text is kept.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class FieldSelectorParseException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String selector;

  FieldSelectorParseException(String selector, String message) {
    super(message);
    this.selector = selector;
  }

  /**
   * Returns the selector text that failed.
   *
   * @return the text
   */
  public String selector() {
    return selector;
  }
}
