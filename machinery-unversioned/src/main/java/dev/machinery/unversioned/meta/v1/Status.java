package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import java.util.Objects;

/**
 * The result of an operation that returns no object, Kubernetes' {@code Status}: success or
 * failure, a {@link StatusReason}, a message and details. Unversioned: valid in every group
 * version.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "status", "message", "reason", "details", "code"})
public final class Status extends TypeMeta {
  private ListMeta metadata = new ListMeta();
  private String status;
  private String message;
  private String reason;
  private StatusDetails details;
  private int code;

  /** Creates an empty Status. */
  public Status() {}

  /**
   * Returns the list metadata.
   *
   * @return the list metadata
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @ProtoField(1)
  public ListMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the list metadata.
   *
   * @param metadata the list metadata
   */
  public void setMetadata(ListMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns {@code Success} or {@code Failure}.
   *
   * @return {@code Success} or {@code Failure}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public String getStatus() {
    return status;
  }

  /**
   * Sets {@code Success} or {@code Failure}.
   *
   * @param status {@code Success} or {@code Failure}
   */
  public void setStatus(String status) {
    this.status = status;
  }

  /**
   * Returns the human-readable message.
   *
   * @return the human-readable message
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public String getMessage() {
    return message;
  }

  /**
   * Sets the human-readable message.
   *
   * @param message the human-readable message
   */
  public void setMessage(String message) {
    this.message = message;
  }

  /**
   * Returns the machine-readable reason (see {@link StatusReason}).
   *
   * @return the machine-readable reason (see {@link StatusReason})
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(4)
  public String getReason() {
    return reason;
  }

  /**
   * Sets the machine-readable reason (see {@link StatusReason}).
   *
   * @param reason the machine-readable reason (see {@link StatusReason})
   */
  public void setReason(String reason) {
    this.reason = reason;
  }

  /**
   * Returns the details.
   *
   * @return the details
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ProtoField(value = 5, optional = true)
  public StatusDetails getDetails() {
    return details;
  }

  /**
   * Sets the details.
   *
   * @param details the details
   */
  public void setDetails(StatusDetails details) {
    this.details = details;
  }

  /**
   * Returns the HTTP status code.
   *
   * @return the HTTP status code
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  @ProtoField(6)
  public int getCode() {
    return code;
  }

  /**
   * Sets the HTTP status code.
   *
   * @param code the HTTP status code
   */
  public void setCode(int code) {
    this.code = code;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Status)) {
      return false;
    }
    Status that = (Status) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(status, that.status)
        && Objects.equals(message, that.message)
        && Objects.equals(reason, that.reason)
        && Objects.equals(details, that.details)
        && Objects.equals(code, that.code);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getApiVersion(), getKind(), metadata, status, message, reason, details, code);
  }

  @Override
  public String toString() {
    return "Status{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + ", status="
        + status
        + ", message="
        + message
        + ", reason="
        + reason
        + ", details="
        + details
        + ", code="
        + code
        + "}";
  }
}
