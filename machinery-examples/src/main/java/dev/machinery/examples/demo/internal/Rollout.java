package dev.machinery.examples.demo.internal;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.examples.apps.DeploymentSpec;
import dev.machinery.examples.apps.DeploymentStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;

/**
 * The internal Rollout of the sample server, the hub every served version ({@code v1}, {@code
 * v1beta1}) converts through; the same fields as they have (it shares their records).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
public final class Rollout implements ApiObject {
  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private DeploymentSpec spec;
  private DeploymentStatus status;

  /** Creates an empty Rollout. */
  public Rollout() {}

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  public String getKind() {
    return kind;
  }

  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the metadata.
   *
   * @return the metadata
   */
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the metadata
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the desired state: a Deployment's spec.
   *
   * @return the spec
   */
  public DeploymentSpec getSpec() {
    return spec;
  }

  /**
   * Sets the desired state.
   *
   * @param spec the spec
   */
  public void setSpec(DeploymentSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the observed state: a Deployment's status.
   *
   * @return the status
   */
  public DeploymentStatus getStatus() {
    return status;
  }

  /**
   * Sets the observed state.
   *
   * @param status the status
   */
  public void setStatus(DeploymentStatus status) {
    this.status = status;
  }
}
