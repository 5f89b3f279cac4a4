package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One aspect of an object's observed state ({@code metav1.Condition}): a type such as {@code
 * Ready}, a status ({@code True}, {@code False} or {@code Unknown}), the generation it was observed
 * at, when the status last changed, a CamelCase reason and a message. {@link Conditions} sets and
 * finds conditions in a list, keeping Kubernetes' rule for the transition time.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "type",
  "status",
  "observedGeneration",
  "lastTransitionTime",
  "reason",
  "message"
})
public final class Condition {
  /** The condition holds. */
  public static final String TRUE = "True";

  /** The condition does not hold. */
  public static final String FALSE = "False";

  /** Whether the condition holds is not known. */
  public static final String UNKNOWN = "Unknown";

  private String type;
  private String status;
  private long observedGeneration;
  private Time lastTransitionTime;
  private String reason;
  private String message;

  /** Creates an empty Condition. */
  public Condition() {}

  /**
   * Creates a condition.
   *
   * @param type the type, such as {@code Ready}
   * @param status {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}
   * @param reason a CamelCase reason
   * @param message a human-readable message
   */
  public Condition(String type, String status, String reason, String message) {
    this.type = type;
    this.status = status;
    this.reason = reason;
    this.message = message;
  }

  /**
   * Returns the type.
   *
   * @return the type
   */
  public String getType() {
    return type;
  }

  /**
   * Sets the type.
   *
   * @param type the type
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns the status.
   *
   * @return the status
   */
  public String getStatus() {
    return status;
  }

  /**
   * Sets the status.
   *
   * @param status the status
   */
  public void setStatus(String status) {
    this.status = status;
  }

  /**
   * Returns the generation the condition was set for.
   *
   * @return the generation, 0 when not set
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public long getObservedGeneration() {
    return observedGeneration;
  }

  /**
   * Sets the generation the condition was set for.
   *
   * @param observedGeneration the generation
   */
  public void setObservedGeneration(long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  /**
   * Returns when the status last changed.
   *
   * @return the time, or null
   */
  public Time getLastTransitionTime() {
    return lastTransitionTime;
  }

  /**
   * Sets when the status last changed.
   *
   * @param lastTransitionTime the time
   */
  public void setLastTransitionTime(Time lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  /**
   * Returns the reason.
   *
   * @return the reason
   */
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
    return other instanceof Condition that
        && observedGeneration == that.observedGeneration
        && Objects.equals(type, that.type)
        && Objects.equals(status, that.status)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(reason, that.reason)
        && Objects.equals(message, that.message);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, status, observedGeneration, lastTransitionTime, reason, message);
  }

  @Override
  public String toString() {
    return "Condition{type="
        + type
        + ", status="
        + status
        + ", observedGeneration="
        + observedGeneration
        + ", lastTransitionTime="
        + lastTransitionTime
        + ", reason="
        + reason
        + ", message="
        + message
        + "}";
  }
}
