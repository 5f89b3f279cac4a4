package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A condition of a {@link TableRow}, such as {@code Completed}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"type", "status", "reason", "message"})
public final class TableRowCondition {
  private String type;
  private String status;
  private String reason;
  private String message;

  /** Creates an empty TableRowCondition. */
  public TableRowCondition() {}

  /**
   * Returns the condition type.
   *
   * @return the condition type
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getType() {
    return type;
  }

  /**
   * Sets the condition type.
   *
   * @param type the condition type
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns {@code True}, {@code False} or {@code Unknown}.
   *
   * @return {@code True}, {@code False} or {@code Unknown}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getStatus() {
    return status;
  }

  /**
   * Sets {@code True}, {@code False} or {@code Unknown}.
   *
   * @param status {@code True}, {@code False} or {@code Unknown}
   */
  public void setStatus(String status) {
    this.status = status;
  }

  /**
   * Returns the reason.
   *
   * @return the reason
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getReason() {
    return reason;
  }

  /**
   * Sets the reason.
   *
   * @param reason the reason
   */
  public void setReason(String reason) {
    this.reason = reason;
  }

  /**
   * Returns the message.
   *
   * @return the message
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getMessage() {
    return message;
  }

  /**
   * Sets the message.
   *
   * @param message the message
   */
  public void setMessage(String message) {
    this.message = message;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof TableRowCondition)) {
      return false;
    }
    TableRowCondition that = (TableRowCondition) other;
    return true
        && Objects.equals(type, that.type)
        && Objects.equals(status, that.status)
        && Objects.equals(reason, that.reason)
        && Objects.equals(message, that.message);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, status, reason, message);
  }

  @Override
  public String toString() {
    return "TableRowCondition{"
        + "type="
        + type
        + ", status="
        + status
        + ", reason="
        + reason
        + ", message="
        + message
        + "}";
  }
}
