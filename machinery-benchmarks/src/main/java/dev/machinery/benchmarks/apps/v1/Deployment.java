package dev.machinery.benchmarks.apps.v1;

import dev.machinery.conversion.ProtoField;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.Objects;

/** The benchmark's {@code apps/v1} Deployment. Mutable; not thread-safe. */
public final class Deployment implements ApiObject {
  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private DeploymentSpec spec;
  private DeploymentStatus status;

  /** Creates an empty value. */
  public Deployment() {}

  /**
   * Returns the api version.
   *
   * @return the api version
   */
  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  /**
   * Sets the api version.
   *
   * @param apiVersion the api version
   */
  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  /**
   * Returns the kind.
   *
   * @return the kind
   */
  @Override
  public String getKind() {
    return kind;
  }

  /**
   * Sets the kind.
   *
   * @param kind the kind
   */
  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the metadata.
   *
   * @return the metadata
   */
  @ProtoField(1)
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
   * Returns the spec.
   *
   * @return the spec
   */
  @ProtoField(2)
  public DeploymentSpec getSpec() {
    return spec;
  }

  /**
   * Sets the spec.
   *
   * @param spec the spec
   */
  public void setSpec(DeploymentSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the status.
   *
   * @return the status
   */
  @ProtoField(3)
  public DeploymentStatus getStatus() {
    return status;
  }

  /**
   * Sets the status.
   *
   * @param status the status
   */
  public void setStatus(DeploymentStatus status) {
    this.status = status;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Deployment)) {
      return false;
    }
    Deployment that = (Deployment) o;
    return Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(kind, that.kind)
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec)
        && Objects.equals(status, that.status);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, metadata, spec, status);
  }
}
