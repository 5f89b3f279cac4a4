package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Map;
import java.util.Objects;

/**
 * Which fields one manager owns, as server-side apply records it in {@code metadata.managedFields}
 * ({@code metav1.ManagedFieldsEntry}). The field set ({@code fieldsV1}) is kept as the JSON object
 * it is ({@code {"f:spec":{"f:replicas":{}}}}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "manager",
  "operation",
  "apiVersion",
  "time",
  "fieldsType",
  "fieldsV1",
  "subresource"
})
// Kubernetes' generated.proto leaves 5 unused (a removed field).
@ProtoReserved(5)
public final class ManagedFieldsEntry {
  /** The entry of a server-side apply. */
  public static final String APPLY = "Apply";

  /** The entry of an update (create, update or patch). */
  public static final String UPDATE = "Update";

  private String manager;
  private String operation;
  private String apiVersion;
  private Time time;
  private String fieldsType;
  private Map<String, Object> fieldsV1;
  private String subresource;

  /** Creates an empty ManagedFieldsEntry. */
  public ManagedFieldsEntry() {}

  /**
   * Returns the manager's name.
   *
   * @return the manager
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
  public String getManager() {
    return manager;
  }

  /**
   * Sets the manager's name.
   *
   * @param manager the manager
   */
  public void setManager(String manager) {
    this.manager = manager;
  }

  /**
   * Returns the operation: {@link #APPLY} or {@link #UPDATE}.
   *
   * @return the operation
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public String getOperation() {
    return operation;
  }

  /**
   * Sets the operation.
   *
   * @param operation the operation
   */
  public void setOperation(String operation) {
    this.operation = operation;
  }

  /**
   * Returns the version the field set is written in.
   *
   * @return the apiVersion
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public String getApiVersion() {
    return apiVersion;
  }

  /**
   * Sets the version the field set is written in.
   *
   * @param apiVersion the apiVersion
   */
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  /**
   * Returns when the entry last changed.
   *
   * @return the time, or null
   */
  @ProtoField(value = 4, optional = true)
  public Time getTime() {
    return time;
  }

  /**
   * Sets when the entry last changed.
   *
   * @param time the time
   */
  public void setTime(Time time) {
    this.time = time;
  }

  /**
   * Returns the format of the field set: {@code FieldsV1}.
   *
   * @return the fields type
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(6)
  public String getFieldsType() {
    return fieldsType;
  }

  /**
   * Sets the format of the field set.
   *
   * @param fieldsType the fields type
   */
  public void setFieldsType(String fieldsType) {
    this.fieldsType = fieldsType;
  }

  /**
   * Returns the field set, as its JSON object.
   *
   * @return the fields, or null
   */
  @ProtoField(value = 7, optional = true, rawJson = true)
  public Map<String, Object> getFieldsV1() {
    return fieldsV1;
  }

  /**
   * Sets the field set.
   *
   * @param fieldsV1 the fields, as a JSON object
   */
  public void setFieldsV1(Map<String, Object> fieldsV1) {
    this.fieldsV1 = fieldsV1;
  }

  /**
   * Returns the subresource the operation went through, such as {@code status}.
   *
   * @return the subresource, or null for the main resource
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(8)
  public String getSubresource() {
    return subresource;
  }

  /**
   * Sets the subresource the operation went through.
   *
   * @param subresource the subresource
   */
  public void setSubresource(String subresource) {
    this.subresource = subresource;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ManagedFieldsEntry that
        && Objects.equals(manager, that.manager)
        && Objects.equals(operation, that.operation)
        && Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(time, that.time)
        && Objects.equals(fieldsType, that.fieldsType)
        && Objects.equals(fieldsV1, that.fieldsV1)
        && Objects.equals(subresource, that.subresource);
  }

  @Override
  public int hashCode() {
    return Objects.hash(manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource);
  }

  @Override
  public String toString() {
    return "ManagedFieldsEntry{manager="
        + manager
        + ", operation="
        + operation
        + ", apiVersion="
        + apiVersion
        + ", time="
        + time
        + ", fieldsType="
        + fieldsType
        + ", fieldsV1="
        + fieldsV1
        + ", subresource="
        + subresource
        + "}";
  }
}
