package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The query of a get: the resource version.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"resourceVersion"})
public final class GetOptions extends TypeMeta {
  private String resourceVersion;

  /** Creates an empty GetOptions. */
  public GetOptions() {}

  /**
   * Returns the resource version.
   *
   * @return the resource version
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getResourceVersion() {
    return resourceVersion;
  }

  /**
   * Sets the resource version.
   *
   * @param resourceVersion the resource version
   */
  public void setResourceVersion(String resourceVersion) {
    this.resourceVersion = resourceVersion;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof GetOptions)) {
      return false;
    }
    GetOptions that = (GetOptions) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(resourceVersion, that.resourceVersion);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), resourceVersion);
  }

  @Override
  public String toString() {
    return "GetOptions{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", resourceVersion="
        + resourceVersion
        + "}";
  }
}
