package dev.machinery.examples.core;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * A {@code v1 Event}: a report of something that happened to an object, with Kubernetes' JSON names
 * and order and the protobuf field numbers of its {@code generated.proto}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "metadata",
  "involvedObject",
  "reason",
  "message",
  "source",
  "firstTimestamp",
  "lastTimestamp",
  "count",
  "type",
  "eventTime",
  "action",
  "reportingComponent",
  "reportingInstance"
})
// The sample leaves out series (11) and related (13).
@ProtoReserved({11, 13})
public final class Event extends TypeMeta {
  private ObjectMeta metadata;
  private ObjectReference involvedObject;
  private String reason;
  private String message;
  private EventSource source;
  private Time firstTimestamp;
  private Time lastTimestamp;
  private Integer count;
  private String type;
  private MicroTime eventTime;
  private String action;
  private String reportingComponent;
  private String reportingInstance;

  /** Creates an empty Event. */
  public Event() {}

  /**
   * Returns the metadata.
   *
   * @return the value
   */
  @ProtoField(1)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the value
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the object the event is about.
   *
   * @return the value
   */
  @ProtoField(2)
  public ObjectReference getInvolvedObject() {
    return involvedObject;
  }

  /**
   * Sets the object the event is about.
   *
   * @param involvedObject the value
   */
  public void setInvolvedObject(ObjectReference involvedObject) {
    this.involvedObject = involvedObject;
  }

  /**
   * Returns the machine-readable reason.
   *
   * @return the value
   */
  @ProtoField(3)
  public String getReason() {
    return reason;
  }

  /**
   * Sets the machine-readable reason.
   *
   * @param reason the value
   */
  public void setReason(String reason) {
    this.reason = reason;
  }

  /**
   * Returns the human-readable description.
   *
   * @return the value
   */
  @ProtoField(4)
  public String getMessage() {
    return message;
  }

  /**
   * Sets the human-readable description.
   *
   * @param message the value
   */
  public void setMessage(String message) {
    this.message = message;
  }

  /**
   * Returns the component that reported it.
   *
   * @return the value
   */
  @ProtoField(5)
  public EventSource getSource() {
    return source;
  }

  /**
   * Sets the component that reported it.
   *
   * @param source the value
   */
  public void setSource(EventSource source) {
    this.source = source;
  }

  /**
   * Returns when it was first seen.
   *
   * @return the value
   */
  @ProtoField(6)
  public Time getFirstTimestamp() {
    return firstTimestamp;
  }

  /**
   * Sets when it was first seen.
   *
   * @param firstTimestamp the value
   */
  public void setFirstTimestamp(Time firstTimestamp) {
    this.firstTimestamp = firstTimestamp;
  }

  /**
   * Returns when it was last seen.
   *
   * @return the value
   */
  @ProtoField(7)
  public Time getLastTimestamp() {
    return lastTimestamp;
  }

  /**
   * Sets when it was last seen.
   *
   * @param lastTimestamp the value
   */
  public void setLastTimestamp(Time lastTimestamp) {
    this.lastTimestamp = lastTimestamp;
  }

  /**
   * Returns how many times it was seen.
   *
   * @return the value
   */
  @ProtoField(8)
  public Integer getCount() {
    return count;
  }

  /**
   * Sets how many times it was seen.
   *
   * @param count the value
   */
  public void setCount(Integer count) {
    this.count = count;
  }

  /**
   * Returns {@code Normal} or {@code Warning}.
   *
   * @return the value
   */
  @ProtoField(9)
  public String getType() {
    return type;
  }

  /**
   * Sets {@code Normal} or {@code Warning}.
   *
   * @param type the value
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns when it was first observed, in microseconds.
   *
   * @return the value
   */
  @ProtoField(10)
  public MicroTime getEventTime() {
    return eventTime;
  }

  /**
   * Sets when it was first observed, in microseconds.
   *
   * @param eventTime the value
   */
  public void setEventTime(MicroTime eventTime) {
    this.eventTime = eventTime;
  }

  /**
   * Returns what was done or failed.
   *
   * @return the value
   */
  @ProtoField(12)
  public String getAction() {
    return action;
  }

  /**
   * Sets what was done or failed.
   *
   * @param action the value
   */
  public void setAction(String action) {
    this.action = action;
  }

  /**
   * Returns the controller that emitted it.
   *
   * @return the value
   */
  @ProtoField(14)
  public String getReportingComponent() {
    return reportingComponent;
  }

  /**
   * Sets the controller that emitted it.
   *
   * @param reportingComponent the value
   */
  public void setReportingComponent(String reportingComponent) {
    this.reportingComponent = reportingComponent;
  }

  /**
   * Returns the instance of that controller.
   *
   * @return the value
   */
  @ProtoField(15)
  public String getReportingInstance() {
    return reportingInstance;
  }

  /**
   * Sets the instance of that controller.
   *
   * @param reportingInstance the value
   */
  public void setReportingInstance(String reportingInstance) {
    this.reportingInstance = reportingInstance;
  }
}
