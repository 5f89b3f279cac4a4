package dev.machinery.examples.apps.internal;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.examples.apps.DeploymentSpec;
import dev.machinery.examples.apps.DeploymentStatus;
import dev.machinery.unversioned.meta.v1.ObjectMeta;

/**
 * The internal Deployment of the sample server, which every served version converts through; the
 * same fields as {@code apps/v1} (it shares their records), converted generically. Modelled with
 * the library's value types: its spec holds quantities ({@code cpu: 500m}), int-or-strings ({@code
 * maxSurge: 25%}, {@code port: http}) and a {@code LabelSelector} with expressions; its status
 * holds conditions with times. Enough of the real kind to decode a typical manifest strictly and
 * write it back as Kubernetes does.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
public final class Deployment implements ApiObject {
  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private DeploymentSpec spec;
  private DeploymentStatus status;

  /** Creates an empty Deployment. */
  public Deployment() {}

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
   * Returns the desired state.
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
   * Returns the observed state.
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
