package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The versions of the legacy core group ({@code GET /api}).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"versions", "serverAddressByClientCIDRs"})
public final class APIVersions extends TypeMeta {
  private List<String> versions;
  private List<ServerAddressByClientCIDR> serverAddressByClientCIDRs;

  /** Creates an empty APIVersions. */
  public APIVersions() {}

  /**
   * Returns the versions, such as {@code v1}.
   *
   * @return the versions, such as {@code v1}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<String> getVersions() {
    return versions;
  }

  /**
   * Sets the versions, such as {@code v1}.
   *
   * @param versions the versions, such as {@code v1}
   */
  public void setVersions(List<String> versions) {
    this.versions = versions;
  }

  /**
   * Returns the server addresses by client network.
   *
   * @return the server addresses by client network
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
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
    if (!(other instanceof APIVersions)) {
      return false;
    }
    APIVersions that = (APIVersions) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(versions, that.versions)
        && Objects.equals(serverAddressByClientCIDRs, that.serverAddressByClientCIDRs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), versions, serverAddressByClientCIDRs);
  }

  @Override
  public String toString() {
    return "APIVersions{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", versions="
        + versions
        + ", serverAddressByClientCIDRs="
        + serverAddressByClientCIDRs
        + "}";
  }
}
