package dev.machinery.core.codec;

/**
 * Thrown when a document has no {@code apiVersion} (or an empty one), so its type cannot be told.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class MissingVersionException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the full message
   */
  public MissingVersionException(String message) {
    super(message, "apiVersion");
  }

  private MissingVersionException(MissingVersionException e, String where, int document) {
    super(e.located(where), e.fieldPath(), e.line(), e.column(), e, document);
  }

  @Override
  MissingVersionException in(String where, int document) {
    return new MissingVersionException(this, where, document);
  }
}
