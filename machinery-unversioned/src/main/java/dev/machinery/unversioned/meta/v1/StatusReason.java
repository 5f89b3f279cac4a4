package dev.machinery.unversioned.meta.v1;

import java.util.Optional;

/**
 * Why an operation failed, as Kubernetes' {@code StatusReason} names it, with the HTTP status code
 * each reason maps to. {@link Status#getReason()} keeps the wire text, so that a reason a newer
 * server invents survives; {@link #fromWireName} maps the text back. Immutable.
 */
public enum StatusReason {
  /** The server gave no reason; 500. */
  UNKNOWN("", 500),
  /** Credentials are missing or insufficient; 401. */
  UNAUTHORIZED("Unauthorized", 401),
  /** The user may not perform the action; 403. */
  FORBIDDEN("Forbidden", 403),
  /** The resource does not exist; 404. */
  NOT_FOUND("NotFound", 404),
  /** The resource being created exists already; 409. */
  ALREADY_EXISTS("AlreadyExists", 409),
  /** The update conflicts with the stored state (for example a stale resource version); 409. */
  CONFLICT("Conflict", 409),
  /** The resource is gone and will not come back; 410. */
  GONE("Gone", 410),
  /** The object is invalid; {@link StatusDetails#getCauses()} say why; 422. */
  INVALID("Invalid", 422),
  /** The server could not complete the request in time and suggests a retry; 500. */
  SERVER_TIMEOUT("ServerTimeout", 500),
  /** The request timed out before it could be completed; 504. */
  TIMEOUT("Timeout", 504),
  /** The client is rate-limited; 429. */
  TOO_MANY_REQUESTS("TooManyRequests", 429),
  /** The request is malformed; 400. */
  BAD_REQUEST("BadRequest", 400),
  /** The verb is not supported on the resource; 405. */
  METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
  /** No acceptable representation could be produced for the Accept header; 406. */
  NOT_ACCEPTABLE("NotAcceptable", 406),
  /** The request body is too large; 413. */
  REQUEST_ENTITY_TOO_LARGE("RequestEntityTooLarge", 413),
  /** The request's Content-Type is not supported; 415. */
  UNSUPPORTED_MEDIA_TYPE("UnsupportedMediaType", 415),
  /** An internal error occurred; 500. */
  INTERNAL_ERROR("InternalError", 500),
  /** The content (for example a continue token) has expired; 410. */
  EXPIRED("Expired", 410),
  /** The service is unavailable; 503. */
  SERVICE_UNAVAILABLE("ServiceUnavailable", 503),
  /** The stored object could not be read (decoded or decrypted); 500. */
  STORE_READ_ERROR("StoreReadError", 500);

  private final String wireName;
  private final int code;

  StatusReason(String wireName, int code) {
    this.wireName = wireName;
    this.code = code;
  }

  /**
   * Returns the text written in {@code Status.reason}, such as {@code NotFound}.
   *
   * @return the wire name ({@code ""} for {@link #UNKNOWN})
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Returns the HTTP status code the reason maps to.
   *
   * @return the code
   */
  public int code() {
    return code;
  }

  /**
   * Returns the reason a wire name stands for.
   *
   * @param wireName the text of {@code Status.reason}
   * @return the reason, or empty for a name Kubernetes does not define
   */
  public static Optional<StatusReason> fromWireName(String wireName) {
    for (StatusReason reason : values()) {
      if (reason.wireName.equals(wireName)) {
        return Optional.of(reason);
      }
    }
    return Optional.empty();
  }
}
