package dev.machinery.client;

import dev.machinery.MachineryException;

/**
 * The server could not be reached, or the exchange broke before a response arrived (after the
 * client's retries), or the calling thread was interrupted while waiting. Names the request.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class TransportException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the method and path
   * @param cause the failure
   */
  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String statusReason() {
    return "ServiceUnavailable";
  }

  @Override
  public int statusCode() {
    return 503;
  }
}
