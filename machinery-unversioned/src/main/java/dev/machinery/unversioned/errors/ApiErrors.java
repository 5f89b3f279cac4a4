package dev.machinery.unversioned.errors;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.meta.v1.GeneratedDeepCopy;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.meta.v1.StatusReason;
import dev.machinery.unversioned.validation.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' API errors ({@code k8s.io/apimachinery/pkg/api/errors}): a factory per reason that
 * words the message and sets the code and details as kube-apiserver does, checks that recognise a
 * reason on any exception (through its causes) or on a {@code Status} read from a response, and
 * {@link #statusFor(Throwable)}, the one mapping from any exception to the {@code Status} a server
 * answers with.
 *
 * <p>Stateless and safe to use from any thread; every factory returns a new exception.
 */
public final class ApiErrors {
  private ApiErrors() {}

  /**
   * {@code NotFound} (404): {@code deployments.apps "web" not found}.
   *
   * @param resource the resource
   * @param name the object's name
   * @return the exception
   */
  public static StatusException newNotFound(GroupResource resource, String name) {
    return error(
        StatusReason.NOT_FOUND,
        resource + " " + quote(name) + " not found",
        details(resource.group(), resource.resource(), name));
  }

  /**
   * {@code AlreadyExists} (409): {@code configmaps "app" already exists}.
   *
   * @param resource the resource
   * @param name the object's name
   * @return the exception
   */
  public static StatusException newAlreadyExists(GroupResource resource, String name) {
    return error(
        StatusReason.ALREADY_EXISTS,
        resource + " " + quote(name) + " already exists",
        details(resource.group(), resource.resource(), name));
  }

  /**
   * {@code Conflict} (409), for a stale resource version or a failed precondition: {@code Operation
   * cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your
   * changes to the latest version and try again}.
   *
   * @param resource the resource
   * @param name the object's name
   * @param why what conflicted
   * @return the exception
   */
  public static StatusException newConflict(GroupResource resource, String name, String why) {
    return error(
        StatusReason.CONFLICT,
        "Operation cannot be fulfilled on " + resource + " " + quote(name) + ": " + why,
        details(resource.group(), resource.resource(), name));
  }

  /**
   * {@code Conflict} (409) of a server-side apply, with one cause per conflicting field and no
   * object details, as kube-apiserver's {@code NewApplyConflict}.
   *
   * @param causes the causes, each of type {@code FieldManagerConflict}
   * @param message the message, like {@code Apply failed with 1 conflict: ...}
   * @return the exception
   */
  public static StatusException newApplyConflict(List<StatusCause> causes, String message) {
    StatusDetails details = new StatusDetails();
    details.setCauses(new ArrayList<>(causes));
    return error(StatusReason.CONFLICT, message, details);
  }

  /**
   * {@code Invalid} (422) with one cause per field error: {@code Deployment.apps "web" is invalid:
   * spec.replicas: Invalid value: -1: must be greater than or equal to 0}.
   *
   * @param kind the object's kind
   * @param name the object's name
   * @param errors the field errors
   * @return the exception
   */
  public static StatusException newInvalid(GroupKind kind, String name, List<FieldError> errors) {
    StatusDetails details = details(kind.group(), kind.kind(), name);
    List<StatusCause> causes = new ArrayList<>();
    for (FieldError error : errors) {
      causes.add(cause(error.type().wireName(), error.body(), error.field()));
    }
    details.setCauses(causes);
    String aggregate = FieldError.aggregate(errors);
    return error(
        StatusReason.INVALID,
        kind + " " + quote(name) + " is invalid" + (aggregate.isEmpty() ? "" : ": " + aggregate),
        details);
  }

  /**
   * {@code BadRequest} (400) with the given message.
   *
   * @param message what is wrong with the request
   * @return the exception
   */
  public static StatusException newBadRequest(String message) {
    return error(StatusReason.BAD_REQUEST, message, null);
  }

  /**
   * {@code Unauthorized} (401); the message defaults to {@code not authorized}.
   *
   * @param message why, or empty
   * @return the exception
   */
  public static StatusException newUnauthorized(String message) {
    return error(
        StatusReason.UNAUTHORIZED,
        message == null || message.isEmpty() ? "not authorized" : message,
        null);
  }

  /**
   * {@code Forbidden} (403): {@code pods "p" is forbidden: why}.
   *
   * @param resource the resource, or {@link GroupResource#EMPTY}
   * @param name the object's name, or empty
   * @param why why the user may not
   * @return the exception
   */
  public static StatusException newForbidden(GroupResource resource, String name, String why) {
    String message;
    if (resource.group().isEmpty() && resource.resource().isEmpty()) {
      message = "forbidden: " + why;
    } else if (name == null || name.isEmpty()) {
      message = resource + " is forbidden: " + why;
    } else {
      message = resource + " " + quote(name) + " is forbidden: " + why;
    }
    return error(
        StatusReason.FORBIDDEN, message, details(resource.group(), resource.resource(), name));
  }

  /**
   * {@code MethodNotAllowed} (405): {@code create is not supported on resources of kind
   * "tokenreviews.authentication.k8s.io"}.
   *
   * @param resource the resource
   * @param action the verb
   * @return the exception
   */
  public static StatusException newMethodNotSupported(GroupResource resource, String action) {
    return error(
        StatusReason.METHOD_NOT_ALLOWED,
        action + " is not supported on resources of kind " + quote(resource.toString()),
        details(resource.group(), resource.resource(), null));
  }

  /**
   * {@code NotAcceptable} (406) with the given message.
   *
   * @param message what the server can produce
   * @return the exception
   */
  public static StatusException newNotAcceptable(String message) {
    return error(StatusReason.NOT_ACCEPTABLE, message, null);
  }

  /**
   * {@code UnsupportedMediaType} (415) with the given message.
   *
   * @param message what the server accepts
   * @return the exception
   */
  public static StatusException newUnsupportedMediaType(String message) {
    return error(StatusReason.UNSUPPORTED_MEDIA_TYPE, message, null);
  }

  /**
   * {@code RequestEntityTooLarge} (413): {@code Request entity too large: limit is 3145728}.
   *
   * @param message the limit
   * @return the exception
   */
  public static StatusException newRequestEntityTooLarge(String message) {
    return error(
        StatusReason.REQUEST_ENTITY_TOO_LARGE, "Request entity too large: " + message, null);
  }

  /**
   * {@code Gone} (410) with the given message.
   *
   * @param message what is gone
   * @return the exception
   */
  public static StatusException newGone(String message) {
    return error(StatusReason.GONE, message, null);
  }

  /**
   * {@code Expired} (410), as for a watch or continue token whose resource version is too old.
   *
   * @param message what expired
   * @return the exception
   */
  public static StatusException newResourceExpired(String message) {
    return error(StatusReason.EXPIRED, message, null);
  }

  /**
   * {@code TooManyRequests} (429) with a suggested delay.
   *
   * @param message why
   * @param retryAfterSeconds the seconds to wait before retrying
   * @return the exception
   */
  public static StatusException newTooManyRequests(String message, int retryAfterSeconds) {
    StatusDetails details = new StatusDetails();
    details.setRetryAfterSeconds(retryAfterSeconds);
    return error(StatusReason.TOO_MANY_REQUESTS, message, details);
  }

  /**
   * {@code Timeout} (504): {@code Timeout: message}.
   *
   * @param message what timed out
   * @param retryAfterSeconds the seconds to wait before retrying
   * @return the exception
   */
  public static StatusException newTimeout(String message, int retryAfterSeconds) {
    StatusDetails details = new StatusDetails();
    details.setRetryAfterSeconds(retryAfterSeconds);
    return error(StatusReason.TIMEOUT, "Timeout: " + message, details);
  }

  /**
   * {@code ServerTimeout} (500): {@code The get operation against pods could not be completed at
   * this time, please try again.}
   *
   * @param resource the resource
   * @param operation the operation
   * @param retryAfterSeconds the seconds to wait before retrying
   * @return the exception
   */
  public static StatusException newServerTimeout(
      GroupResource resource, String operation, int retryAfterSeconds) {
    StatusDetails details = details(resource.group(), resource.resource(), operation);
    details.setRetryAfterSeconds(retryAfterSeconds);
    return error(
        StatusReason.SERVER_TIMEOUT,
        "The "
            + operation
            + " operation against "
            + resource
            + " could not be completed at this time, please try again.",
        details);
  }

  /**
   * {@code ServiceUnavailable} (503) with the given message.
   *
   * @param message why
   * @return the exception
   */
  public static StatusException newServiceUnavailable(String message) {
    return error(StatusReason.SERVICE_UNAVAILABLE, message, null);
  }

  /**
   * {@code InternalError} (500): {@code Internal error occurred: cause}, the cause's message also
   * as the one cause.
   *
   * @param cause what failed
   * @return the exception
   */
  public static StatusException newInternalError(Throwable cause) {
    String message = String.valueOf(cause.getMessage());
    StatusDetails details = new StatusDetails();
    details.setCauses(List.of(cause(null, message, null)));
    StatusException error =
        error(StatusReason.INTERNAL_ERROR, "Internal error occurred: " + message, details);
    error.initCause(cause);
    return error;
  }

  /**
   * The Status a server answers a failure with: a {@link StatusException}'s own Status; for any
   * other library exception (found through the causes), its {@link
   * MachineryException#statusReason() reason}, code and message (bad input is {@code BadRequest}, a
   * body over the size limit {@code RequestEntityTooLarge}, an unknown resource {@code NotFound}, a
   * fault of the program {@code InternalError}); for anything else an {@code InternalError}.
   *
   * @param failure the failure
   * @return a new Status
   */
  public static Status statusFor(Throwable failure) {
    APIStatus carried = carried(failure);
    if (carried != null) {
      return carried.status();
    }
    MachineryException known = find(failure);
    if (known == null) {
      return newInternalError(failure).status();
    }
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setMessage(known.getMessage());
    status.setReason(known.statusReason());
    status.setCode(known.statusCode());
    return status;
  }

  /**
   * The reason of a failure: its Status' reason, or {@code ""} when it carries none ({@code
   * ReasonForError}).
   *
   * @param failure the failure
   * @return the reason's wire name
   */
  public static String reasonFor(Throwable failure) {
    APIStatus carried = carried(failure);
    if (carried != null) {
      String reason = carried.status().getReason();
      return reason == null ? "" : reason;
    }
    MachineryException known = find(failure);
    return known == null ? "" : known.statusReason();
  }

  /**
   * Whether a failure means the object or resource does not exist (reason {@code NotFound}, or an
   * unknown reason with code 404).
   *
   * @param failure the failure
   * @return true when not found
   */
  public static boolean isNotFound(Throwable failure) {
    return is(failure, StatusReason.NOT_FOUND, true);
  }

  /**
   * Whether a Status read from a response means not found.
   *
   * @param status the Status
   * @return true when not found
   */
  public static boolean isNotFound(Status status) {
    return is(status.getReason(), status.getCode(), StatusReason.NOT_FOUND, true);
  }

  /**
   * Whether a failure means the object exists already (reason {@code AlreadyExists}).
   *
   * @param failure the failure
   * @return true when it exists
   */
  public static boolean isAlreadyExists(Throwable failure) {
    return is(failure, StatusReason.ALREADY_EXISTS, false);
  }

  /**
   * Whether a Status read from a response means the object exists already.
   *
   * @param status the Status
   * @return true when it exists
   */
  public static boolean isAlreadyExists(Status status) {
    return is(status.getReason(), status.getCode(), StatusReason.ALREADY_EXISTS, false);
  }

  /**
   * Whether a failure is a conflict (reason {@code Conflict}, or an unknown reason with 409).
   *
   * @param failure the failure
   * @return true for a conflict
   */
  public static boolean isConflict(Throwable failure) {
    return is(failure, StatusReason.CONFLICT, true);
  }

  /**
   * Whether a Status read from a response is a conflict.
   *
   * @param status the Status
   * @return true for a conflict
   */
  public static boolean isConflict(Status status) {
    return is(status.getReason(), status.getCode(), StatusReason.CONFLICT, true);
  }

  /**
   * Whether a failure means the object is invalid (reason {@code Invalid}, or an unknown reason
   * with 422).
   *
   * @param failure the failure
   * @return true when invalid
   */
  public static boolean isInvalid(Throwable failure) {
    return is(failure, StatusReason.INVALID, true);
  }

  /**
   * Whether a Status read from a response means the object is invalid.
   *
   * @param status the Status
   * @return true when invalid
   */
  public static boolean isInvalid(Status status) {
    return is(status.getReason(), status.getCode(), StatusReason.INVALID, true);
  }

  /**
   * Whether a failure is a bad request (reason {@code BadRequest}, or an unknown reason with 400).
   *
   * @param failure the failure
   * @return true for a bad request
   */
  public static boolean isBadRequest(Throwable failure) {
    return is(failure, StatusReason.BAD_REQUEST, true);
  }

  /**
   * Whether a failure means the caller is not authenticated (reason {@code Unauthorized}, or an
   * unknown reason with 401).
   *
   * @param failure the failure
   * @return true when unauthorized
   */
  public static boolean isUnauthorized(Throwable failure) {
    return is(failure, StatusReason.UNAUTHORIZED, true);
  }

  /**
   * Whether a failure means the caller may not (reason {@code Forbidden}, or an unknown reason with
   * 403).
   *
   * @param failure the failure
   * @return true when forbidden
   */
  public static boolean isForbidden(Throwable failure) {
    return is(failure, StatusReason.FORBIDDEN, true);
  }

  /**
   * Whether a failure means the verb is not supported (reason {@code MethodNotAllowed}, or an
   * unknown reason with 405).
   *
   * @param failure the failure
   * @return true when not supported
   */
  public static boolean isMethodNotSupported(Throwable failure) {
    return is(failure, StatusReason.METHOD_NOT_ALLOWED, true);
  }

  /**
   * Whether a failure means no acceptable representation exists (reason {@code NotAcceptable}, or
   * an unknown reason with 406).
   *
   * @param failure the failure
   * @return true when not acceptable
   */
  public static boolean isNotAcceptable(Throwable failure) {
    return is(failure, StatusReason.NOT_ACCEPTABLE, true);
  }

  /**
   * Whether a failure means the body's media type is not supported (reason {@code
   * UnsupportedMediaType}, or an unknown reason with 415).
   *
   * @param failure the failure
   * @return true when unsupported
   */
  public static boolean isUnsupportedMediaType(Throwable failure) {
    return is(failure, StatusReason.UNSUPPORTED_MEDIA_TYPE, true);
  }

  /**
   * Whether a failure means the body is too large (reason {@code RequestEntityTooLarge}, or an
   * unknown reason with 413).
   *
   * @param failure the failure
   * @return true when too large
   */
  public static boolean isRequestEntityTooLarge(Throwable failure) {
    return is(failure, StatusReason.REQUEST_ENTITY_TOO_LARGE, true);
  }

  /**
   * Whether a failure means the resource is gone (reason {@code Gone}, or an unknown reason with
   * 410).
   *
   * @param failure the failure
   * @return true when gone
   */
  public static boolean isGone(Throwable failure) {
    return is(failure, StatusReason.GONE, true);
  }

  /**
   * Whether a failure means a resource version or continue token expired (reason {@code Expired}).
   *
   * @param failure the failure
   * @return true when expired
   */
  public static boolean isResourceExpired(Throwable failure) {
    return is(failure, StatusReason.EXPIRED, false);
  }

  /**
   * Whether a failure asks the client to slow down (reason {@code TooManyRequests}, or an unknown
   * reason with 429).
   *
   * @param failure the failure
   * @return true when rate-limited
   */
  public static boolean isTooManyRequests(Throwable failure) {
    return is(failure, StatusReason.TOO_MANY_REQUESTS, true);
  }

  /**
   * Whether a failure is a timeout (reason {@code Timeout}, or an unknown reason with 504).
   *
   * @param failure the failure
   * @return true for a timeout
   */
  public static boolean isTimeout(Throwable failure) {
    return is(failure, StatusReason.TIMEOUT, true);
  }

  /**
   * Whether a failure is a server timeout (reason {@code ServerTimeout}).
   *
   * @param failure the failure
   * @return true for a server timeout
   */
  public static boolean isServerTimeout(Throwable failure) {
    return is(failure, StatusReason.SERVER_TIMEOUT, false);
  }

  /**
   * Whether a failure means the service is unavailable (reason {@code ServiceUnavailable}, or an
   * unknown reason with 503).
   *
   * @param failure the failure
   * @return true when unavailable
   */
  public static boolean isServiceUnavailable(Throwable failure) {
    return is(failure, StatusReason.SERVICE_UNAVAILABLE, true);
  }

  /**
   * Whether a failure is an internal error (reason {@code InternalError}, or an unknown reason with
   * 500).
   *
   * @param failure the failure
   * @return true for an internal error
   */
  public static boolean isInternalError(Throwable failure) {
    return is(failure, StatusReason.INTERNAL_ERROR, true);
  }

  private static boolean is(Throwable failure, StatusReason reason, boolean orCode) {
    APIStatus carried = carried(failure);
    if (carried != null) {
      Status status = carried.status();
      return is(status.getReason(), status.getCode(), reason, orCode);
    }
    MachineryException known = find(failure);
    return known != null && is(known.statusReason(), known.statusCode(), reason, orCode);
  }

  private static boolean is(String found, int code, StatusReason reason, boolean orCode) {
    String wire = found == null ? "" : found;
    if (wire.equals(reason.wireName())) {
      return true;
    }
    boolean unknown =
        StatusReason.fromWireName(wire).map(r -> r == StatusReason.UNKNOWN).orElse(true);
    return orCode && unknown && code == reason.code();
  }

  /** The first failure that carries a Status among a failure and its causes (32 deep at most). */
  private static APIStatus carried(Throwable failure) {
    Throwable current = failure;
    for (int depth = 0; current != null && depth < 32; depth++) {
      if (current instanceof APIStatus status) {
        return status;
      }
      current = current.getCause() == current ? null : current.getCause();
    }
    return null;
  }

  /** The first library exception among a failure and its causes (32 deep at most). */
  private static MachineryException find(Throwable failure) {
    Throwable current = failure;
    for (int depth = 0; current != null && depth < 32; depth++) {
      if (current instanceof MachineryException known) {
        return known;
      }
      current = current.getCause() == current ? null : current.getCause();
    }
    return null;
  }

  private static StatusException error(StatusReason reason, String message, StatusDetails details) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setMessage(message);
    status.setReason(reason.wireName());
    status.setCode(reason.code());
    status.setDetails(details);
    return new StatusException(status);
  }

  private static StatusDetails details(String group, String kind, String name) {
    StatusDetails details = new StatusDetails();
    details.setGroup(group == null || group.isEmpty() ? null : group);
    details.setKind(kind == null || kind.isEmpty() ? null : kind);
    details.setName(name == null || name.isEmpty() ? null : name);
    return details;
  }

  private static StatusCause cause(String reason, String message, String field) {
    StatusCause cause = new StatusCause();
    cause.setReason(reason);
    cause.setMessage(message);
    cause.setField(field);
    return cause;
  }

  static Status copy(Status status) {
    return GeneratedDeepCopy.deepCopy(status);
  }

  private static String quote(String name) {
    return FieldError.quote(name == null ? "" : name);
  }
}
