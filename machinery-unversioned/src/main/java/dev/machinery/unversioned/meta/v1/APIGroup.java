package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * One API group with its versions and the preferred one ({@code GET /apis/{group}}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"name", "versions", "preferredVersion", "serverAddressByClientCIDRs"})
public final class APIGroup extends TypeMeta {
  private String name;
  private List<GroupVersionForDiscovery> versions;
  private GroupVersionForDiscovery preferredVersion;
  private List<ServerAddressByClientCIDR> serverAddressByClientCIDRs;

  /** Creates an empty APIGroup. */
  public APIGroup() {}

  /**
   * Returns the group name.
   *
   * @return the group name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getName() {
    return name;
  }

  /**
   * Sets the group name.
   *
   * @param name the group name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the versions served.
   *
   * @return the versions served
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<GroupVersionForDiscovery> getVersions() {
    return versions;
  }

  /**
   * Sets the versions served.
   *
   * @param versions the versions served
   */
  public void setVersions(List<GroupVersionForDiscovery> versions) {
    this.versions = versions;
  }

  /**
   * Returns the preferred version.
   *
   * @return the preferred version
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public GroupVersionForDiscovery getPreferredVersion() {
    return preferredVersion;
  }

  /**
   * Sets the preferred version.
   *
   * @param preferredVersion the preferred version
   */
  public void setPreferredVersion(GroupVersionForDiscovery preferredVersion) {
    this.preferredVersion = preferredVersion;
  }

  /**
   * Returns the server addresses by client network.
   *
   * @return the server addresses by client network
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<ServerAddressByClientCIDR> getServerAddressByClientCIDRs() {
    return serverAddressByClientCIDRs;
  }

  /**
   * Sets the server addresses by client network.
   *
   * @param serverAddressByClientCIDRs the server addresses by client network
   */
  public void setServerAddressByClientCIDRs(
      List<ServerAddressByClientCIDR> serverAddressByClientCIDRs) {
    this.serverAddressByClientCIDRs = serverAddressByClientCIDRs;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIGroup)) {
      return false;
    }
    APIGroup that = (APIGroup) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(name, that.name)
        && Objects.equals(versions, that.versions)
        && Objects.equals(preferredVersion, that.preferredVersion)
        && Objects.equals(serverAddressByClientCIDRs, that.serverAddressByClientCIDRs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getApiVersion(), getKind(), name, versions, preferredVersion, serverAddressByClientCIDRs);
  }

  @Override
  public String toString() {
    return "APIGroup{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", name="
        + name
        + ", versions="
        + versions
        + ", preferredVersion="
        + preferredVersion
        + ", serverAddressByClientCIDRs="
        + serverAddressByClientCIDRs
        + "}";
  }
}
