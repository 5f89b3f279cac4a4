package dev.machinery.controller;

/**
 * A reconcile failure that retrying cannot fix ({@code reconcile.TerminalError}): the controller
 * logs it and forgets the request instead of requeueing it.
 *
 * <p>Immutable; thread-safe.
 */
public class TerminalException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the failure.
   *
   * @param message what went wrong
   */
  public TerminalException(String message) {
    super(message);
  }

  /**
   * Creates the failure with a cause.
   *
   * @param message what went wrong
   * @param cause the cause
   */
  public TerminalException(String message, Throwable cause) {
    super(message, cause);
  }
}
