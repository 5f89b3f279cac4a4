package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * An {@code apiextensions.k8s.io/v1 CustomResourceDefinition}: a kind defined at run time, its
 * names, scope, versions and their schemas; cluster-scoped, named {@code <plural>.<group>}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class CustomResourceDefinition extends TypeMeta {
  private ObjectMeta metadata;
  private CustomResourceDefinitionSpec spec;
  private CustomResourceDefinitionStatus status;

  /** Creates an empty CustomResourceDefinition. */
  public CustomResourceDefinition() {}

  /**
   * Returns the metadata.
   *
   * @return the value
   */
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
   * Returns the specification.
   *
   * @return the value
   */
  public CustomResourceDefinitionSpec getSpec() {
    return spec;
  }

  /**
   * Sets the specification.
   *
   * @param spec the value
   */
  public void setSpec(CustomResourceDefinitionSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the status.
   *
   * @return the value
   */
  public CustomResourceDefinitionStatus getStatus() {
    return status;
  }

  /**
   * Sets the status.
   *
   * @param status the value
   */
  public void setStatus(CustomResourceDefinitionStatus status) {
    this.status = status;
  }
}
