package dev.machinery;

/**
 * The root of every unchecked exception that Machinery throws for bad input or an unsatisfiable
 * request.
 *
 * <p>Subtypes name the condition and carry its data (the offending identifier, the field path, the
 * candidates), so that a caller can react without parsing the message. An instance is not changed
 * once it reaches the caller, and is then safe to share between threads.
 */
public class MachineryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what went wrong, where, and what was expected
   */
  public MachineryException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and the underlying cause.
   *
   * @param message what went wrong, where, and what was expected
   * @param cause the underlying failure, or {@code null}
   */
  public MachineryException(String message, Throwable cause) {
    super(message, cause);
  }
}
