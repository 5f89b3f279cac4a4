package dev.machinery.core.codec;

import dev.machinery.MachineryException;

/**
 * Thrown when an object cannot be encoded: a value Jackson cannot write, a non-finite number, or a
 * failing output stream.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class EncodeException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed
   * @param cause the underlying failure
   */
  public EncodeException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * A fault of the program, not of the input: {@code InternalError}.
   *
   * @return {@code InternalError}
   */
  @Override
  public String statusReason() {
    return "InternalError";
  }

  /**
   * A fault of the program, not of the input: 500.
   *
   * @return 500
   */
  @Override
  public int statusCode() {
    return 500;
  }
}
