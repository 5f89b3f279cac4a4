package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Objects;

/**
 * One group in aggregated discovery: its name (in {@code metadata.name}) and versions, most
 * preferred first.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "versions"})
public final class APIGroupDiscovery extends TypeMeta {
  private ObjectMeta metadata = new ObjectMeta();
  private List<APIVersionDiscovery> versions;

  /** Creates an empty APIGroupDiscovery. */
  public APIGroupDiscovery() {}

  /**
   * Returns the metadata; {@code name} is the group.
   *
   * @return the metadata; {@code name} is the group
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata; {@code name} is the group.
   *
   * @param metadata the metadata; {@code name} is the group
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the versions, most preferred first.
   *
   * @return the versions, most preferred first
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<APIVersionDiscovery> getVersions() {
    return versions;
  }

  /**
   * Sets the versions, most preferred first.
   *
   * @param versions the versions, most preferred first
   */
  public void setVersions(List<APIVersionDiscovery> versions) {
    this.versions = versions;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIGroupDiscovery)) {
      return false;
    }
    APIGroupDiscovery that = (APIGroupDiscovery) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(versions, that.versions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata, versions);
  }

  @Override
  public String toString() {
    return "APIGroupDiscovery{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + ", versions="
        + versions
        + "}";
  }
}
