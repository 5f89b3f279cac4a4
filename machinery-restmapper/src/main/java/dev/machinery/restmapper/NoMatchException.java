package dev.machinery.restmapper;

import dev.machinery.MachineryException;

/**
 * A lookup that found nothing: no resource ({@link NoResourceMatchException}) or no kind ({@link
 * NoKindMatchException}) matches. Catch this type where Go code asks {@code meta.IsNoMatchError}.
 * Immutable and safe to share between threads.
 */
public abstract class NoMatchException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the full message
   */
  protected NoMatchException(String message) {
    super(message);
  }

  /**
   * {@code NotFound}: the server has no such resource or kind.
   *
   * @return {@code NotFound}
   */
  @Override
  public String statusReason() {
    return "NotFound";
  }

  /**
   * 404.
   *
   * @return 404
   */
  @Override
  public int statusCode() {
    return 404;
  }
}
