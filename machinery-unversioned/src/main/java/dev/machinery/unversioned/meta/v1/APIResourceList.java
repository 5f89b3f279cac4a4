package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The resources of one group version ({@code GET /apis/{group}/{version}}, {@code GET /api/v1}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"groupVersion", "resources"})
public final class APIResourceList extends TypeMeta {
  private String groupVersion;
  private List<APIResource> resources;

  /** Creates an empty APIResourceList. */
  public APIResourceList() {}

  /**
   * Returns {@code group/version}.
   *
   * @return {@code group/version}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getGroupVersion() {
    return groupVersion;
  }

  /**
   * Sets {@code group/version}.
   *
   * @param groupVersion {@code group/version}
   */
  public void setGroupVersion(String groupVersion) {
    this.groupVersion = groupVersion;
  }

  /**
   * Returns the resources.
   *
   * @return the resources
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<APIResource> getResources() {
    return resources;
  }

  /**
   * Sets the resources.
   *
   * @param resources the resources
   */
  public void setResources(List<APIResource> resources) {
    this.resources = resources;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIResourceList)) {
      return false;
    }
    APIResourceList that = (APIResourceList) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(groupVersion, that.groupVersion)
        && Objects.equals(resources, that.resources);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), groupVersion, resources);
  }

  @Override
  public String toString() {
    return "APIResourceList{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", groupVersion="
        + groupVersion
        + ", resources="
        + resources
        + "}";
  }
}
