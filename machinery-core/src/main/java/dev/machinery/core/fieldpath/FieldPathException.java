package dev.machinery.core.fieldpath;

import dev.machinery.MachineryException;

/**
 * A field set or path element that cannot be read: malformed {@code FieldsV1} JSON, a path element
 * key that is not one of the {@code f:}, {@code k:}, {@code v:}, {@code i:} forms, or input beyond
 * the {@link FieldsV1Limits}. The message says what was expected, what was found and where: the
 * character offset in the input and, inside a field set, the path of the entry being read.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class FieldPathException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** What kind of failure this is. */
  public enum Kind {
    /** The input is malformed: {@code BadRequest}, 400. */
    MALFORMED("BadRequest", 400),
    /** The input is beyond the limits: {@code RequestEntityTooLarge}, 413. */
    TOO_LARGE("RequestEntityTooLarge", 413);

    private final String reason;
    private final int code;

    Kind(String reason, int code) {
      this.reason = reason;
      this.code = code;
    }
  }

  private final Kind kind;
  private final int offset;

  FieldPathException(Kind kind, int offset, String message) {
    super(message);
    this.kind = kind;
    this.offset = offset;
  }

  /**
   * Returns what kind of failure this is.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns the offset in characters into the input where the problem is, or -1 where the input is
   * not text read by this library.
   *
   * @return the offset, or -1
   */
  public int offset() {
    return offset;
  }

  @Override
  public String statusReason() {
    return kind.reason;
  }

  @Override
  public int statusCode() {
    return kind.code;
  }
}
