package dev.machinery.apiserver.authentication;

/**
 * Credentials were given but are not good (an unknown token, a certificate no client CA signed):
 * the request is answered 401, even where anonymous requests are allowed.
 */
public final class AuthenticationException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message why the credentials are refused (logged, not sent to the client)
   */
  public AuthenticationException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message why the credentials are refused (logged, not sent to the client)
   * @param cause the cause
   */
  public AuthenticationException(String message, Throwable cause) {
    super(message, cause);
  }
}
