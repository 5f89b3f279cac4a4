package dev.machinery.unversioned.protobuf;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Map;

/**
 * ConfigMap, Namespace and Event of core/v1, with the JSON names and order of Kubernetes' Go types
 * and the protobuf field numbers of its generated.proto.
 */
final class CoreV1 {
  private CoreV1() {}

  /** {@code v1 ConfigMap}. */
  @JsonPropertyOrder({"metadata", "immutable", "data", "binaryData"})
  public static final class ConfigMap extends TypeMeta {
    private ObjectMeta metadata;
    private Boolean immutable;
    private Map<String, String> data;
    private Map<String, byte[]> binaryData;

    @ProtoField(1)
    public ObjectMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
      this.metadata = metadata;
    }

    @ProtoField(value = 4, optional = true)
    public Boolean getImmutable() {
      return immutable;
    }

    public void setImmutable(Boolean immutable) {
      this.immutable = immutable;
    }

    @ProtoField(2)
    public Map<String, String> getData() {
      return data;
    }

    public void setData(Map<String, String> data) {
      this.data = data;
    }

    @ProtoField(3)
    public Map<String, byte[]> getBinaryData() {
      return binaryData;
    }

    public void setBinaryData(Map<String, byte[]> binaryData) {
      this.binaryData = binaryData;
    }
  }

  /** {@code v1 Namespace}. */
  @JsonPropertyOrder({"metadata", "spec", "status"})
  public static final class Namespace extends TypeMeta {
    private ObjectMeta metadata;
    private NamespaceSpec spec;
    private NamespaceStatus status;

    @ProtoField(1)
    public ObjectMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
      this.metadata = metadata;
    }

    @ProtoField(2)
    public NamespaceSpec getSpec() {
      return spec;
    }

    public void setSpec(NamespaceSpec spec) {
      this.spec = spec;
    }

    @ProtoField(3)
    public NamespaceStatus getStatus() {
      return status;
    }

    public void setStatus(NamespaceStatus status) {
      this.status = status;
    }
  }

  /** {@code NamespaceSpec}. */
  public record NamespaceSpec(@ProtoField(1) List<String> finalizers) {}

  /** {@code NamespaceStatus}. */
  public record NamespaceStatus(
      @ProtoField(1) String phase, @ProtoField(2) List<NamespaceCondition> conditions) {}

  /** {@code NamespaceCondition}. */
  @ProtoReserved(3) // unused in Kubernetes' generated.proto
  public record NamespaceCondition(
      @ProtoField(1) String type,
      @ProtoField(2) String status,
      @ProtoField(4) Time lastTransitionTime,
      @ProtoField(5) String reason,
      @ProtoField(6) String message) {}

  /** {@code v1 Event}. */
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
    "series",
    "action",
    "related",
    "reportingComponent",
    "reportingInstance"
  })
  public static final class Event extends TypeMeta {
    private ObjectMeta metadata;
    private ObjectReference involvedObject;
    private String reason;
    private String message;
    private EventSource source;
    private Time firstTimestamp;
    private Time lastTimestamp;
    private int count;
    private String type;
    private MicroTime eventTime;
    private EventSeries series;
    private String action;
    private ObjectReference related;
    private String reportingComponent;
    private String reportingInstance;

    @ProtoField(1)
    public ObjectMeta getMetadata() {
      return metadata;
    }

    public void setMetadata(ObjectMeta metadata) {
      this.metadata = metadata;
    }

    @ProtoField(2)
    public ObjectReference getInvolvedObject() {
      return involvedObject;
    }

    public void setInvolvedObject(ObjectReference involvedObject) {
      this.involvedObject = involvedObject;
    }

    @ProtoField(3)
    public String getReason() {
      return reason;
    }

    public void setReason(String reason) {
      this.reason = reason;
    }

    @ProtoField(4)
    public String getMessage() {
      return message;
    }

    public void setMessage(String message) {
      this.message = message;
    }

    @ProtoField(5)
    public EventSource getSource() {
      return source;
    }

    public void setSource(EventSource source) {
      this.source = source;
    }

    @ProtoField(6)
    public Time getFirstTimestamp() {
      return firstTimestamp;
    }

    public void setFirstTimestamp(Time firstTimestamp) {
      this.firstTimestamp = firstTimestamp;
    }

    @ProtoField(7)
    public Time getLastTimestamp() {
      return lastTimestamp;
    }

    public void setLastTimestamp(Time lastTimestamp) {
      this.lastTimestamp = lastTimestamp;
    }

    @ProtoField(8)
    public int getCount() {
      return count;
    }

    public void setCount(int count) {
      this.count = count;
    }

    @ProtoField(9)
    public String getType() {
      return type;
    }

    public void setType(String type) {
      this.type = type;
    }

    @ProtoField(10)
    public MicroTime getEventTime() {
      return eventTime;
    }

    public void setEventTime(MicroTime eventTime) {
      this.eventTime = eventTime;
    }

    @ProtoField(value = 11, optional = true)
    public EventSeries getSeries() {
      return series;
    }

    public void setSeries(EventSeries series) {
      this.series = series;
    }

    @ProtoField(12)
    public String getAction() {
      return action;
    }

    public void setAction(String action) {
      this.action = action;
    }

    @ProtoField(value = 13, optional = true)
    public ObjectReference getRelated() {
      return related;
    }

    public void setRelated(ObjectReference related) {
      this.related = related;
    }

    @ProtoField(14)
    public String getReportingComponent() {
      return reportingComponent;
    }

    public void setReportingComponent(String reportingComponent) {
      this.reportingComponent = reportingComponent;
    }

    @ProtoField(15)
    public String getReportingInstance() {
      return reportingInstance;
    }

    public void setReportingInstance(String reportingInstance) {
      this.reportingInstance = reportingInstance;
    }
  }

  /** {@code ObjectReference}. */
  public record ObjectReference(
      @ProtoField(1) String kind,
      @ProtoField(2) String namespace,
      @ProtoField(3) String name,
      @ProtoField(4) String uid,
      @ProtoField(5) String apiVersion,
      @ProtoField(6) String resourceVersion,
      @ProtoField(7) String fieldPath) {}

  /** {@code EventSource}. */
  public record EventSource(@ProtoField(1) String component, @ProtoField(2) String host) {}

  /** {@code EventSeries}. */
  public record EventSeries(@ProtoField(1) int count, @ProtoField(2) MicroTime lastObservedTime) {}
}
