package dev.machinery.unversioned.errors;

import dev.machinery.unversioned.meta.v1.Status;

/**
 * A failure that carries the whole {@code Status} a server answers it with ({@code
 * errors.APIStatus}): {@link StatusException}, or a caller's own exception type. {@link
 * ApiErrors#statusFor(Throwable)} and the checks read it wherever it sits among a failure's causes.
 *
 * <p>Implementations must return a Status the caller may change (a copy).
 */
public interface APIStatus {
  /**
   * Returns the Status.
   *
   * @return a Status the caller may change
   */
  Status status();
}
