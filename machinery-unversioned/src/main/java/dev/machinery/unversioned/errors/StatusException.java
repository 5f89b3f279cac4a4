package dev.machinery.unversioned.errors;

import dev.machinery.MachineryException;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.Objects;

/**
 * A failure that carries the {@code Status} a Kubernetes API server answers with ({@code
 * StatusError}): made by {@link ApiErrors}' factories on the server side, or from a {@code Status}
 * a client decoded from a response. The message is the Status' message.
 *
 * <p>The Status is copied in and out, so an instance is immutable and safe to share between
 * threads.
 */
public final class StatusException extends MachineryException implements APIStatus {
  private static final long serialVersionUID = 1L;

  private final transient Status status;

  /**
   * Wraps a Status.
   *
   * @param status the Status; copied
   */
  public StatusException(Status status) {
    super(Objects.requireNonNull(status, "status").getMessage());
    this.status = ApiErrors.copy(status);
  }

  /**
   * Returns a copy of the Status.
   *
   * @return the Status
   */
  @Override
  public Status status() {
    return ApiErrors.copy(status);
  }

  /**
   * Returns the Status' reason.
   *
   * @return the reason's wire name, such as {@code NotFound}
   */
  @Override
  public String statusReason() {
    return status.getReason() == null ? "" : status.getReason();
  }

  /**
   * Returns the Status' code.
   *
   * @return the HTTP code
   */
  @Override
  public int statusCode() {
    return status.getCode();
  }
}
