package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A group, version and kind as aggregated discovery writes them ({@code responseKind}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"group", "version", "kind"})
public final class GroupVersionKindRef {
  private String group;
  private String version;
  private String kind;

  /** Creates an empty GroupVersionKindRef. */
  public GroupVersionKindRef() {}

  /**
   * Returns the group.
   *
   * @return the group
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getGroup() {
    return group;
  }

  /**
   * Sets the group.
   *
   * @param group the group
   */
  public void setGroup(String group) {
    this.group = group;
  }

  /**
   * Returns the version.
   *
   * @return the version
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getVersion() {
    return version;
  }

  /**
   * Sets the version.
   *
   * @param version the version
   */
  public void setVersion(String version) {
    this.version = version;
  }

  /**
   * Returns the kind.
   *
   * @return the kind
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getKind() {
    return kind;
  }

  /**
   * Sets the kind.
   *
   * @param kind the kind
   */
  public void setKind(String kind) {
    this.kind = kind;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof GroupVersionKindRef)) {
      return false;
    }
    GroupVersionKindRef that = (GroupVersionKindRef) other;
    return true
        && Objects.equals(group, that.group)
        && Objects.equals(version, that.version)
        && Objects.equals(kind, that.kind);
  }

  @Override
  public int hashCode() {
    return Objects.hash(group, version, kind);
  }

  @Override
  public String toString() {
    return "GroupVersionKindRef{"
        + "group="
        + group
        + ", version="
        + version
        + ", kind="
        + kind
        + "}";
  }
}
