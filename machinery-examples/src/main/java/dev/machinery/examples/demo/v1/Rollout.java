package dev.machinery.examples.demo.v1;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.examples.apps.DeploymentSpec;
import dev.machinery.examples.apps.DeploymentStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;

/**
 * The {@code demo.example.dev/v1} Rollout of the sample server, the version it stores: a kind of
 * the sample's own whose spec and status are a Deployment's ({@link DeploymentSpec}, {@link
 * DeploymentStatus}, modelled with the library's value types: quantities such as {@code cpu: 500m},
 * int-or-strings such as {@code maxSurge: 25%}, a {@code LabelSelector} with expressions,
 * conditions with times), served in {@code v1beta1} too and converted through {@link
 * dev.machinery.examples.demo.internal.Rollout} by generated code. A group of its own, so that it
 * shows conversion between versions without standing in for Kubernetes' {@code apps} Deployment.
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
