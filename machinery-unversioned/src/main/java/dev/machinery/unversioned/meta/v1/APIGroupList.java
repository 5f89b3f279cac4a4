package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The API groups a server serves ({@code GET /apis}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"groups"})
public final class APIGroupList extends TypeMeta {
  private List<APIGroup> groups;

  /** Creates an empty APIGroupList. */
  public APIGroupList() {}

  /**
   * Returns the groups.
   *
   * @return the groups
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<APIGroup> getGroups() {
    return groups;
  }

  /**
   * Sets the groups.
   *
   * @param groups the groups
   */
  public void setGroups(List<APIGroup> groups) {
    this.groups = groups;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIGroupList)) {
      return false;
    }
    APIGroupList that = (APIGroupList) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(groups, that.groups);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), groups);
  }

  @Override
  public String toString() {
    return "APIGroupList{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", groups="
        + groups
        + "}";
  }
}
