package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The {@code scale} subresource ({@code autoscaling/v1 Scale}): desired and observed replicas.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class Scale extends TypeMeta {
  private ObjectMeta metadata = new ObjectMeta();
  private ScaleSpec spec = new ScaleSpec();
  private ScaleStatus status = new ScaleStatus();

  /** Creates an empty Scale. */
  public Scale() {}

  /**
   * Returns the metadata.
   *
   * @return the metadata
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
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
   * Returns the desired scale.
   *
   * @return the desired scale
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public ScaleSpec getSpec() {
    return spec;
  }

  /**
   * Sets the desired scale.
   *
   * @param spec the desired scale
   */
  public void setSpec(ScaleSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the observed scale.
   *
   * @return the observed scale
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public ScaleStatus getStatus() {
    return status;
  }

  /**
   * Sets the observed scale.
   *
   * @param status the observed scale
   */
  public void setStatus(ScaleStatus status) {
    this.status = status;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Scale)) {
      return false;
    }
    Scale that = (Scale) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(spec, that.spec)
        && Objects.equals(status, that.status);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata, spec, status);
  }

  @Override
  public String toString() {
    return "Scale{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + ", spec="
        + spec
        + ", status="
        + status
        + "}";
  }
}
