package dev.machinery.unversioned.protobuf;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Map;

/**
 * ConfigMap and Namespace of core/v1, with the JSON names and order of Kubernetes' Go types and the
 * protobuf field numbers of its generated.proto.
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
  public record NamespaceCondition(
      @ProtoField(1) String type,
      @ProtoField(2) String status,
      @ProtoField(4) Time lastTransitionTime,
      @ProtoField(5) String reason,
      @ProtoField(6) String message) {}
}
