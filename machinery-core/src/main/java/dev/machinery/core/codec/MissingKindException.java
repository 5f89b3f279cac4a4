package dev.machinery.core.codec;

/**
 * Thrown when a document has no {@code kind} (or an empty one), so its type cannot be told.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class MissingKindException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the full message
   */
  public MissingKindException(String message) {
    super(message, "kind");
  }

  private MissingKindException(MissingKindException e, String where, int document) {
    super(e.located(where), e.fieldPath(), e.line(), e.column(), e, document);
  }

  @Override
  MissingKindException in(String where, int document) {
    return new MissingKindException(this, where, document);
  }
}
