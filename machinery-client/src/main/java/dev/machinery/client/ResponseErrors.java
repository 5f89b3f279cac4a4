package dev.machinery.client;

import dev.machinery.core.codec.Decoded;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Turns an answer other than 2xx into the library's typed error, as client-go's {@code
 * transformResponse} does: a {@code Status} body is the error's Status (its code taken from the
 * answer when it has none, its {@code retryAfterSeconds} from {@code Retry-After}); any other body
 * gives the Status {@code errors.NewGenericServerResponse} builds from the code, with the body as
 * the {@code UnexpectedServerResponse} cause. 410 is a {@link ResourceExpiredException}; all else a
 * {@link StatusException}. Stateless.
 */
final class ResponseErrors {
  private static final int MAX_BODY_CHARS = 1024;

  private ResponseErrors() {}

  static RuntimeException from(
      int code,
      String contentType,
      String retryAfter,
      byte[] body,
      String method,
      Requests.Target target,
      Codecs codecs) {
    Status decoded = decodeStatus(contentType, body, codecs);
    Status status =
        decoded != null ? decoded : generic(code, method, target, serverMessage(contentType, body));
    if (status.getCode() == 0) {
      status.setCode(code);
    }
    Requests.retryAfterSeconds(retryAfter)
        .ifPresent(
            seconds -> {
              if (status.getDetails() == null) {
                status.setDetails(new StatusDetails());
              }
              status.getDetails().setRetryAfterSeconds(seconds);
            });
    return of(status);
  }

  /** The typed error of a Status. */
  static RuntimeException of(Status status) {
    return status.getCode() == 410
        ? new ResourceExpiredException(status)
        : new StatusException(status);
  }

  private static Status decodeStatus(String contentType, byte[] body, Codecs codecs) {
    if (body.length == 0) {
      return null;
    }
    String media = mediaType(contentType);
    try {
      if (media.equals(ProtobufCodec.MEDIA_TYPE)) {
        if (codecs.protobuf().isEmpty()) {
          return null;
        }
        Decoded<Object> decoded = codecs.protobuf().get().decode(body);
        return statusOrNull(decoded.object());
      }
      if (media.isEmpty() || media.equals("application/json")) {
        return statusOrNull(codecs.metaJson.decode(body).object());
      }
    } catch (RuntimeException notAStatus) {
      return null;
    }
    return null;
  }

  private static Status statusOrNull(Object object) {
    return Status.class.equals(object.getClass()) ? Status.class.cast(object) : null;
  }

  static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .trim()
        .toLowerCase(Locale.ROOT);
  }

  /** The body as text for a message, when it is text; {@code unknown} otherwise. */
  private static String serverMessage(String contentType, byte[] body) {
    String media = mediaType(contentType);
    boolean textual =
        media.isEmpty()
            || media.startsWith("text/")
            || media.equals("application/json")
            || media.endsWith("+json")
            || media.equals("application/yaml");
    if (!textual || body.length == 0) {
      return "unknown";
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString()
              .trim();
    } catch (CharacterCodingException e) {
      return "unknown";
    }
    return text.length() > MAX_BODY_CHARS ? text.substring(0, MAX_BODY_CHARS) + "…" : text;
  }

  /** {@code errors.NewGenericServerResponse} for an unexpected answer. */
  static Status generic(int code, String method, Requests.Target target, String serverMessage) {
    String reason = "";
    String message =
        "the server responded with the status code "
            + code
            + " but did not return more information";
    switch (code) {
      case 409 -> {
        reason = method.equals("POST") ? "AlreadyExists" : "Conflict";
        message = "the server reported a conflict";
      }
      case 404 -> {
        reason = "NotFound";
        message = "the server could not find the requested resource";
      }
      case 400 -> {
        reason = "BadRequest";
        message = "the server rejected our request for an unknown reason";
      }
      case 401 -> {
        reason = "Unauthorized";
        message = "the server has asked for the client to provide credentials";
      }
      case 403 -> {
        reason = "Forbidden";
        message = serverMessage;
      }
      case 406 -> {
        reason = "NotAcceptable";
        message =
            serverMessage.isEmpty() || serverMessage.equals("unknown")
                ? "the server was unable to respond with a content type that the client supports"
                : serverMessage;
      }
      case 415 -> {
        reason = "UnsupportedMediaType";
        message = serverMessage;
      }
      case 405 -> {
        reason = "MethodNotAllowed";
        message = "the server does not allow this method on the requested resource";
      }
      case 422 -> {
        reason = "Invalid";
        message = "the server rejected our request due to an error in our request";
      }
      case 503 -> {
        reason = "ServiceUnavailable";
        message = "the server is currently unable to handle the request";
      }
      case 504 -> {
        reason = "Timeout";
        message =
            "the server was unable to return a response in the time allotted, but may still be"
                + " processing the request";
      }
      case 429 -> {
        reason = "TooManyRequests";
        message = "the server has received too many requests and has asked us to try again later";
      }
      default -> {
        if (code >= 500) {
          reason = "InternalError";
          message =
              "an error on the server (\""
                  + serverMessage.replace("\\", "\\\\").replace("\"", "\\\"")
                  + "\") has prevented the request from succeeding";
        }
      }
    }
    StatusCause cause = new StatusCause();
    cause.setReason("UnexpectedServerResponse");
    cause.setMessage(serverMessage);
    StatusDetails details = new StatusDetails();
    details.setCauses(List.of(cause));
    if (target.resource() != null) {
      details.setGroup(target.resource().group());
      details.setKind(target.resource().resource());
      details.setName(target.name());
      message +=
          " ("
              + method.toLowerCase(Locale.ROOT)
              + " "
              + target.resource()
              + (target.name().isEmpty() ? "" : " " + target.name())
              + ")";
    }
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setCode(code);
    status.setReason(reason);
    status.setMessage(message);
    status.setDetails(details);
    return status;
  }
}
