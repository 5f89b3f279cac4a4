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

  /**
   * Returns the Kubernetes {@code Status} reason a server answers this failure with, such as {@code
   * BadRequest}: bad input by default; subtypes that mean something else (a server-side fault, an
   * entity too large, an unsupported media type) say so.
   *
   * @return the reason's wire name
   */
  public String statusReason() {
    return "BadRequest";
  }

  /**
   * Returns the HTTP status code a server answers this failure with, matching {@link
   * #statusReason()}: 400 by default.
   *
   * @return the code
   */
  public int statusCode() {
    return 400;
  }
}
