package dev.machinery.examples.core;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * A {@code v1 Namespace}: the scope of namespaced objects, cluster-scoped itself, with Kubernetes'
 * JSON names and order and the protobuf field numbers of its {@code generated.proto}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class Namespace extends TypeMeta {
  private ObjectMeta metadata;
  private NamespaceSpec spec;
  private NamespaceStatus status;

  /** Creates an empty Namespace. */
  public Namespace() {}

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
   * Returns the desired state.
   *
   * @return the value
   */
  @ProtoField(2)
  public NamespaceSpec getSpec() {
    return spec;
  }

  /**
   * Sets the desired state.
   *
   * @param spec the value
   */
  public void setSpec(NamespaceSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the observed state.
   *
   * @return the value
   */
  @ProtoField(3)
  public NamespaceStatus getStatus() {
    return status;
  }

  /**
   * Sets the observed state.
   *
   * @param status the value
   */
  public void setStatus(NamespaceStatus status) {
    this.status = status;
  }
}
