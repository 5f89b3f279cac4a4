package dev.machinery.core.codec;

/**
 * Thrown when a document breaks one of the {@link CodecLimits}: its size, nesting depth, the length
 * of a string, number or field name, its token count, or its YAML alias expansion.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class LimitExceededException extends DecodeException {
  private static final long serialVersionUID = 1L;

  private final String limit;
  private final long maximum;

  /**
   * Creates the exception.
   *
   * @param limit the name of the limit, as in {@link CodecLimits}, such as {@code maxNestingDepth}
   * @param maximum the limit's value
   * @param message the full message
   * @param fieldPath the path where the limit was reached, or empty
   * @param line the 1-based line, or 0
   * @param column the 1-based column, or 0
   */
  public LimitExceededException(
      String limit, long maximum, String message, String fieldPath, int line, int column) {
    super(message, fieldPath, line, column, null);
    this.limit = limit;
    this.maximum = maximum;
  }

  private LimitExceededException(LimitExceededException e, String where, int document) {
    super(e.located(where), e.fieldPath(), e.line(), e.column(), e, document);
    this.limit = e.limit;
    this.maximum = e.maximum;
  }

  @Override
  LimitExceededException in(String where, int document) {
    return new LimitExceededException(this, where, document);
  }

  /**
   * Returns the name of the limit that was reached, such as {@code maxDocumentBytes}.
   *
   * @return the limit's name
   */
  public String limit() {
    return limit;
  }

  /**
   * Returns the limit's value.
   *
   * @return the maximum allowed
   */
  public long maximum() {
    return maximum;
  }

  /**
   * {@code RequestEntityTooLarge} for a limit on bytes (a document or a stream too large), as
   * kube-apiserver answers a body over its limit; {@code BadRequest} for the others (depth, string
   * and number lengths, tokens, aliases).
   *
   * @return the reason's wire name
   */
  @Override
  public String statusReason() {
    return limit.endsWith("Bytes") ? "RequestEntityTooLarge" : "BadRequest";
  }

  /**
   * 413 for a limit on bytes, else 400.
   *
   * @return the code
   */
  @Override
  public int statusCode() {
    return limit.endsWith("Bytes") ? 413 : 400;
  }
}
