package dev.machinery.apiserver.negotiation;

import dev.machinery.MachineryException;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;

/**
 * Thrown when a request body's {@code Content-Type} names a format the server does not read; a
 * server answers it with {@link #status()}, a {@code 415} whose message begins with
 * kube-apiserver's own words. Immutable and safe to share between threads.
 */
public final class UnsupportedMediaTypeException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String contentType;
  private final transient List<String> accepted;

  UnsupportedMediaTypeException(String contentType, List<String> accepted, String detail) {
    super(
        "the body of the request was in an unknown format - accepted media types include: "
            + String.join(", ", accepted)
            + " ("
            + detail
            + ")");
    this.contentType = contentType;
    this.accepted = List.copyOf(accepted);
  }

  /**
   * Returns the Content-Type header as the request gave it.
   *
   * @return the header, or {@code null} when there was none
   */
  public String contentType() {
    return contentType;
  }

  /**
   * Returns the media types the server reads.
   *
   * @return the media types
   */
  public List<String> accepted() {
    return accepted;
  }

  /**
   * Returns the {@code 415 UnsupportedMediaType} Status to answer with.
   *
   * @return a new Status
   */
  public Status status() {
    return ApiErrors.newUnsupportedMediaType(getMessage()).status();
  }

  /**
   * {@code UnsupportedMediaType}.
   *
   * @return {@code UnsupportedMediaType}
   */
  @Override
  public String statusReason() {
    return "UnsupportedMediaType";
  }

  /**
   * 415.
   *
   * @return 415
   */
  @Override
  public int statusCode() {
    return 415;
  }
}
