package dev.machinery.client;

import dev.machinery.MachineryException;
import dev.machinery.unversioned.errors.APIStatus;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.Objects;

/**
 * A 410 Gone from the server: the resource version a watch or list asked for, or a {@code continue}
 * token, is older than the server keeps ({@code Expired} or {@code Gone}). The caller lists again
 * and watches from the new list's version, as an informer does. Carries the whole Status, so {@link
 * ApiErrors#isResourceExpired} and {@link ApiErrors#isGone} recognize it.
 *
 * <p>The Status is copied in and out: immutable and safe to share between threads.
 */
public final class ResourceExpiredException extends MachineryException implements APIStatus {
  private static final long serialVersionUID = 1L;

  private final transient StatusException status;

  /**
   * Wraps a Status with code 410.
   *
   * @param status the Status; copied
   */
  public ResourceExpiredException(Status status) {
    super(Objects.requireNonNull(status, "status").getMessage());
    this.status = new StatusException(status);
  }

  @Override
  public Status status() {
    return status.status();
  }

  @Override
  public String statusReason() {
    return status.statusReason();
  }

  @Override
  public int statusCode() {
    return status.statusCode();
  }
}
