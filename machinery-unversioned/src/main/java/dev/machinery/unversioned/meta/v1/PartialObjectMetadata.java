package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * An object reduced to its metadata ({@code as=PartialObjectMetadata}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata"})
public final class PartialObjectMetadata extends TypeMeta {
  private ObjectMeta metadata = new ObjectMeta();

  /** Creates an empty PartialObjectMetadata. */
  public PartialObjectMetadata() {}

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

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof PartialObjectMetadata)) {
      return false;
    }
    PartialObjectMetadata that = (PartialObjectMetadata) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata);
  }

  @Override
  public String toString() {
    return "PartialObjectMetadata{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + "}";
  }
}
