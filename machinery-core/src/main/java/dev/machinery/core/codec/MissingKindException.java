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

  private MissingKindException(MissingKindException e, int index, int count) {
    super(e.inDocumentMessage(index, count), e.fieldPath(), e.line(), e.column(), e, index + 1);
  }

  @Override
  MissingKindException inDocument(int index, int count) {
    return new MissingKindException(this, index, count);
  }
}
