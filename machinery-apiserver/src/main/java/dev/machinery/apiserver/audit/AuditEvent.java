package dev.machinery.apiserver.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.authentication.UserInfo;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One audit event ({@code audit.k8s.io/v1 Event}): a request at one {@link Stage}, recorded at its
 * policy's {@link Level}. {@link #toJson()} writes it as kube-apiserver's log backend does, on one
 * line, with kube-apiserver's field names and order, empty parts left out.
 *
 * <p>Immutable (the objects are trees the event owns; do not change them); safe to share between
 * threads.
 *
 * @param level the level it was recorded at
 * @param auditId the request's audit ID (a UUID unless the client sent an {@code Audit-ID} header);
 *     every event of a request has the same
 * @param stage the stage
 * @param requestUri the request's URI: path and query, as sent
 * @param verb the verb: {@code get}, {@code list}, {@code watch}, {@code create}, {@code update},
 *     {@code patch}, {@code delete}, {@code deletecollection}, or the HTTP method in lower case for
 *     a non-resource request
 * @param user who made the request (as authenticated); a user named {@code ""} when authentication
 *     refused it
 * @param impersonatedUser the user it was made as, or {@code null} without impersonation
 * @param sourceIps where it came from: the {@code X-Forwarded-For} addresses, then the {@code
 *     X-Real-Ip}, then the connection's peer
 * @param userAgent the {@code User-Agent}, or {@code ""}
 * @param objectRef what resource it was about, or {@code null} for a non-resource request
 * @param responseStatus how it was answered, or {@code null} at {@link Stage#REQUEST_RECEIVED}
 * @param requestObject the request's object, at {@link Level#REQUEST} and above; or {@code null}
 * @param responseObject the response's object, at {@link Level#REQUEST_RESPONSE}; or {@code null}
 * @param requestReceivedTimestamp when the request was received
 * @param stageTimestamp when this stage was reached
 * @param annotations what the server added, such as {@code authorization.k8s.io/decision}, by key
 *     in order (as Go writes a map)
 */
public record AuditEvent(
    Level level,
    String auditId,
    Stage stage,
    String requestUri,
    String verb,
    UserInfo user,
    UserInfo impersonatedUser,
    List<String> sourceIps,
    String userAgent,
    ObjectReference objectRef,
    ResponseStatus responseStatus,
    JsonNode requestObject,
    JsonNode responseObject,
    Instant requestReceivedTimestamp,
    Instant stageTimestamp,
    Map<String, String> annotations) {
  /** The Kubernetes {@code apiVersion} of events. */
  public static final String API_VERSION = "audit.k8s.io/v1";

  /** The request and response header that carries a request's audit ID. */
  public static final String AUDIT_ID_HEADER = "Audit-ID";

  private static final JsonFactory JSON = new ObjectMapper().getFactory();

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /**
   * Checks the parts and copies the collections.
   *
   * @param level see the record description
   * @param auditId see the record description
   * @param stage see the record description
   * @param requestUri see the record description
   * @param verb see the record description
   * @param user see the record description
   * @param impersonatedUser see the record description
   * @param sourceIps see the record description
   * @param userAgent see the record description
   * @param objectRef see the record description
   * @param responseStatus see the record description
   * @param requestObject see the record description
   * @param responseObject see the record description
   * @param requestReceivedTimestamp see the record description
   * @param stageTimestamp see the record description
   * @param annotations see the record description
   */
  public AuditEvent {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(auditId, "auditId");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(requestUri, "requestUri");
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(user, "user");
    sourceIps = List.copyOf(sourceIps);
    userAgent = Objects.requireNonNullElse(userAgent, "");
    Objects.requireNonNull(requestReceivedTimestamp, "requestReceivedTimestamp");
    Objects.requireNonNull(stageTimestamp, "stageTimestamp");
    annotations = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(annotations));
  }

  /**
   * What a resource request was about ({@code ObjectReference}); strings are {@code ""} when
   * unknown.
   *
   * @param resource the resource, such as {@code pods}
   * @param namespace the namespace
   * @param name the object's name (from the path, or the request's object on create)
   * @param uid the object's uid, from the request's object
   * @param apiGroup the API group, {@code ""} for core
   * @param apiVersion the version
   * @param resourceVersion the object's resource version, from the request's object
   * @param subresource the subresource, such as {@code status}
   */
  public record ObjectReference(
      String resource,
      String namespace,
      String name,
      String uid,
      String apiGroup,
      String apiVersion,
      String resourceVersion,
      String subresource) {
    /**
     * Turns nulls into empty strings.
     *
     * @param resource see the record description
     * @param namespace see the record description
     * @param name see the record description
     * @param uid see the record description
     * @param apiGroup see the record description
     * @param apiVersion see the record description
     * @param resourceVersion see the record description
     * @param subresource see the record description
     */
    public ObjectReference {
      resource = Objects.requireNonNullElse(resource, "");
      namespace = Objects.requireNonNullElse(namespace, "");
      name = Objects.requireNonNullElse(name, "");
      uid = Objects.requireNonNullElse(uid, "");
      apiGroup = Objects.requireNonNullElse(apiGroup, "");
      apiVersion = Objects.requireNonNullElse(apiVersion, "");
      resourceVersion = Objects.requireNonNullElse(resourceVersion, "");
      subresource = Objects.requireNonNullElse(subresource, "");
    }
  }

  /**
   * How a request was answered: the code and, for a {@code Status} answer (every failure), its
   * status, reason, message and details.
   *
   * @param code the HTTP status code
   * @param status {@code Success}, {@code Failure} or {@code ""}
   * @param reason the Status reason, such as {@code Forbidden}, or {@code ""}
   * @param message the Status message, or {@code ""}
   * @param details the Status details, or {@code null}
   */
  public record ResponseStatus(
      int code, String status, String reason, String message, JsonNode details) {
    /**
     * Turns nulls into empty strings.
     *
     * @param code see the record description
     * @param status see the record description
     * @param reason see the record description
     * @param message see the record description
     * @param details see the record description
     */
    public ResponseStatus {
      status = Objects.requireNonNullElse(status, "");
      reason = Objects.requireNonNullElse(reason, "");
      message = Objects.requireNonNullElse(message, "");
    }

    /**
     * A status of a code alone.
     *
     * @param code the HTTP status code
     * @return the status
     */
    public static ResponseStatus of(int code) {
      return new ResponseStatus(code, "", "", "", null);
    }
  }

  /**
   * Formats a time as events write it: RFC 3339 in UTC with microseconds, as Kubernetes' {@code
   * MicroTime}.
   *
   * @param time the time
   * @return the text, such as {@code 2026-11-25T23:47:31.123456Z}
   */
  public static String formatTime(Instant time) {
    return MICROS.format(time.truncatedTo(ChronoUnit.MICROS));
  }

  /**
   * Writes the event as one line of JSON (without the line's end), as kube-apiserver's log backend
   * writes it in its JSON format.
   *
   * @return the JSON text
   */
  public String toJson() {
    StringWriter out = new StringWriter(512);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      writeJson(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private void writeJson(JsonGenerator json) throws IOException {
    json.writeStartObject();
    json.writeStringField("kind", "Event");
    json.writeStringField("apiVersion", API_VERSION);
    json.writeStringField("level", level.wireName());
    json.writeStringField("auditID", auditId);
    json.writeStringField("stage", stage.wireName());
    json.writeStringField("requestURI", requestUri);
    json.writeStringField("verb", verb);
    json.writeFieldName("user");
    writeUser(json, user);
    if (impersonatedUser != null) {
      json.writeFieldName("impersonatedUser");
      writeUser(json, impersonatedUser);
    }
    if (!sourceIps.isEmpty()) {
      json.writeArrayFieldStart("sourceIPs");
      for (String ip : sourceIps) {
        json.writeString(ip);
      }
      json.writeEndArray();
    }
    if (!userAgent.isEmpty()) {
      json.writeStringField("userAgent", userAgent);
    }
    if (objectRef != null) {
      json.writeObjectFieldStart("objectRef");
      optional(json, "resource", objectRef.resource());
      optional(json, "namespace", objectRef.namespace());
      optional(json, "name", objectRef.name());
      optional(json, "uid", objectRef.uid());
      optional(json, "apiGroup", objectRef.apiGroup());
      optional(json, "apiVersion", objectRef.apiVersion());
      optional(json, "resourceVersion", objectRef.resourceVersion());
      optional(json, "subresource", objectRef.subresource());
      json.writeEndObject();
    }
    if (responseStatus != null) {
      json.writeObjectFieldStart("responseStatus");
      json.writeObjectFieldStart("metadata");
      json.writeEndObject();
      optional(json, "status", responseStatus.status());
      optional(json, "message", responseStatus.message());
      optional(json, "reason", responseStatus.reason());
      if (responseStatus.details() != null) {
        json.writeFieldName("details");
        json.writeTree(responseStatus.details());
      }
      json.writeNumberField("code", responseStatus.code());
      json.writeEndObject();
    }
    if (requestObject != null) {
      json.writeFieldName("requestObject");
      json.writeTree(requestObject);
    }
    if (responseObject != null) {
      json.writeFieldName("responseObject");
      json.writeTree(responseObject);
    }
    json.writeStringField("requestReceivedTimestamp", formatTime(requestReceivedTimestamp));
    json.writeStringField("stageTimestamp", formatTime(stageTimestamp));
    if (!annotations.isEmpty()) {
      json.writeObjectFieldStart("annotations");
      for (Map.Entry<String, String> each : annotations.entrySet()) {
        json.writeStringField(each.getKey(), each.getValue());
      }
      json.writeEndObject();
    }
    json.writeEndObject();
  }

  private static void writeUser(JsonGenerator json, UserInfo user) throws IOException {
    json.writeStartObject();
    optional(json, "username", user.name());
    optional(json, "uid", user.uid());
    if (!user.groups().isEmpty()) {
      json.writeArrayFieldStart("groups");
      for (String group : user.groups()) {
        json.writeString(group);
      }
      json.writeEndArray();
    }
    if (!user.extra().isEmpty()) {
      json.writeObjectFieldStart("extra");
      for (Map.Entry<String, List<String>> each : user.extra().entrySet()) {
        json.writeArrayFieldStart(each.getKey());
        for (String value : each.getValue()) {
          json.writeString(value);
        }
        json.writeEndArray();
      }
      json.writeEndObject();
    }
    json.writeEndObject();
  }

  private static void optional(JsonGenerator json, String name, String value) throws IOException {
    if (!value.isEmpty()) {
      json.writeStringField(name, value);
    }
  }
}
