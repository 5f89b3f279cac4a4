package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One version of a group as discovery names it: {@code groupVersion} and {@code version}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"groupVersion", "version"})
public final class GroupVersionForDiscovery {
  private String groupVersion;
  private String version;

  /** Creates an empty GroupVersionForDiscovery. */
  public GroupVersionForDiscovery() {}

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

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof GroupVersionForDiscovery)) {
      return false;
    }
    GroupVersionForDiscovery that = (GroupVersionForDiscovery) other;
    return true
        && Objects.equals(groupVersion, that.groupVersion)
        && Objects.equals(version, that.version);
  }

  @Override
  public int hashCode() {
    return Objects.hash(groupVersion, version);
  }

  @Override
  public String toString() {
    return "GroupVersionForDiscovery{"
        + "groupVersion="
        + groupVersion
        + ", version="
        + version
        + "}";
  }
}
