package dev.machinery.unversioned.intstr;

import dev.machinery.MachineryException;

/**
 * An {@link IntOrString} that cannot be read the way the caller asked: a string that is not a
 * percentage where one was expected, or a percentage that is not a whole number. The message is
 * Kubernetes' ({@code invalid value for IntOrString: ...}).
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class InvalidIntOrStringException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient IntOrString value;

  InvalidIntOrStringException(IntOrString value, String problem) {
    super("invalid value for IntOrString: " + problem);
    this.value = value;
  }

  /**
   * Returns the value that could not be read.
   *
   * @return the value
   */
  public IntOrString value() {
    return value;
  }
}
