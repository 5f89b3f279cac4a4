package dev.machinery.examples.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.Map;

/**
 * A {@code v1 ConfigMap}: configuration data as strings and bytes, with Kubernetes' JSON names and
 * order and the protobuf field numbers of its {@code generated.proto}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "immutable", "data", "binaryData"})
public final class ConfigMap extends TypeMeta {
  private ObjectMeta metadata;
  private Boolean immutable;
  private Map<String, String> data;
  private Map<String, byte[]> binaryData;

  /** Creates an empty ConfigMap. */
  public ConfigMap() {}

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
   * Returns whether the data may no longer change.
   *
   * @return the value
   */
  @ProtoField(value = 4, optional = true)
  public Boolean getImmutable() {
    return immutable;
  }

  /**
   * Sets whether the data may no longer change.
   *
   * @param immutable the value
   */
  public void setImmutable(Boolean immutable) {
    this.immutable = immutable;
  }

  /**
   * Returns the string data.
   *
   * @return the value
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public Map<String, String> getData() {
    return data;
  }

  /**
   * Sets the string data.
   *
   * @param data the value
   */
  public void setData(Map<String, String> data) {
    this.data = data;
  }

  /**
   * Returns the binary data.
   *
   * @return the value
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public Map<String, byte[]> getBinaryData() {
    return binaryData;
  }

  /**
   * Sets the binary data.
   *
   * @param binaryData the value
   */
  public void setBinaryData(Map<String, byte[]> binaryData) {
    this.binaryData = binaryData;
  }
}
