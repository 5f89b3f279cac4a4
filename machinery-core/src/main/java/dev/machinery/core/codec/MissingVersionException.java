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

  private MissingVersionException(MissingVersionException e, int index, int count) {
    super(e.inDocumentMessage(index, count), e.fieldPath(), e.line(), e.column(), e, index + 1);
  }

  @Override
  MissingVersionException inDocument(int index, int count) {
    return new MissingVersionException(this, index, count);
  }
}
