package dev.machinery.core.patch;

import dev.machinery.MachineryException;

/**
 * A patch that cannot be read or applied. Says which, as kube-apiserver answers them: a malformed
 * patch document is {@code BadRequest} (400), a patch that does not apply to the object (a path
 * that does not exist, a failed {@code test}) is {@code Invalid} (422), a patch beyond the limits
 * is {@code RequestEntityTooLarge} (413), and a three-way patch whose changes conflict with the
 * live object is a {@code Conflict} (409). The message names the operation and the path where there
 * is one.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class PatchException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** What kind of failure this is. */
  public enum Kind {
    /** The patch document is malformed: {@code BadRequest}, 400. */
    MALFORMED("BadRequest", 400),
    /** The patch does not apply to the object: {@code Invalid}, 422. */
    NOT_APPLICABLE("Invalid", 422),
    /** The patch is beyond the limits: {@code RequestEntityTooLarge}, 413. */
    TOO_LARGE("RequestEntityTooLarge", 413),
    /** The changes conflict with the live object: {@code Conflict}, 409. */
    CONFLICT("Conflict", 409);

    private final String reason;
    private final int code;

    Kind(String reason, int code) {
      this.reason = reason;
      this.code = code;
    }
  }

  private final Kind kind;

  PatchException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  /**
   * Returns what kind of failure this is.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
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
