package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import java.util.Objects;

/**
 * One cause of a failure: a reason, a message and the field at fault.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"reason", "message", "field"})
public final class StatusCause {
  private String reason;
  private String message;
  private String field;

  /** Creates an empty StatusCause. */
  public StatusCause() {}

  /**
   * Returns the machine-readable cause, such as {@code FieldValueInvalid}.
   *
   * @return the machine-readable cause, such as {@code FieldValueInvalid}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
  public String getReason() {
    return reason;
  }

  /**
   * Sets the machine-readable cause, such as {@code FieldValueInvalid}.
   *
   * @param reason the machine-readable cause, such as {@code FieldValueInvalid}
   */
  public void setReason(String reason) {
    this.reason = reason;
  }

  /**
   * Returns the human-readable message.
   *
   * @return the human-readable message
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
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
   * Returns the path of the field at fault, such as {@code spec.replicas}.
   *
   * @return the path of the field at fault, such as {@code spec.replicas}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public String getField() {
    return field;
  }

  /**
   * Sets the path of the field at fault, such as {@code spec.replicas}.
   *
   * @param field the path of the field at fault, such as {@code spec.replicas}
   */
  public void setField(String field) {
    this.field = field;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof StatusCause)) {
      return false;
    }
    StatusCause that = (StatusCause) other;
    return true
        && Objects.equals(reason, that.reason)
        && Objects.equals(message, that.message)
        && Objects.equals(field, that.field);
  }

  @Override
  public int hashCode() {
    return Objects.hash(reason, message, field);
  }

  @Override
  public String toString() {
    return "StatusCause{" + "reason=" + reason + ", message=" + message + ", field=" + field + "}";
  }
}
