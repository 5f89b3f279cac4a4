package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * One version of a group in aggregated discovery: its resources and freshness.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"version", "resources", "freshness"})
public final class APIVersionDiscovery {
  private String version;
  private List<APIResourceDiscovery> resources;
  private String freshness;

  /** Creates an empty APIVersionDiscovery. */
  public APIVersionDiscovery() {}

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
   * Returns the resources.
   *
   * @return the resources
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<APIResourceDiscovery> getResources() {
    return resources;
  }

  /**
   * Sets the resources.
   *
   * @param resources the resources
   */
  public void setResources(List<APIResourceDiscovery> resources) {
    this.resources = resources;
  }

  /**
   * Returns {@code Current} or {@code Stale}.
   *
   * @return {@code Current} or {@code Stale}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getFreshness() {
    return freshness;
  }

  /**
   * Sets {@code Current} or {@code Stale}.
   *
   * @param freshness {@code Current} or {@code Stale}
   */
  public void setFreshness(String freshness) {
    this.freshness = freshness;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIVersionDiscovery)) {
      return false;
    }
    APIVersionDiscovery that = (APIVersionDiscovery) other;
    return true
        && Objects.equals(version, that.version)
        && Objects.equals(resources, that.resources)
        && Objects.equals(freshness, that.freshness);
  }

  @Override
  public int hashCode() {
    return Objects.hash(version, resources, freshness);
  }

  @Override
  public String toString() {
    return "APIVersionDiscovery{"
        + "version="
        + version
        + ", resources="
        + resources
        + ", freshness="
        + freshness
        + "}";
  }
}
