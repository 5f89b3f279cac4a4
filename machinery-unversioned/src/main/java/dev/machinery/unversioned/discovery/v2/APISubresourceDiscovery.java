package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * A subresource in aggregated discovery, such as {@code status} or {@code scale}.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"subresource", "responseKind", "acceptedTypes", "verbs"})
public final class APISubresourceDiscovery {
  private String subresource;
  private GroupVersionKindRef responseKind;
  private List<String> acceptedTypes;
  private List<String> verbs;

  /** Creates an empty APISubresourceDiscovery. */
  public APISubresourceDiscovery() {}

  /**
   * Returns the subresource name.
   *
   * @return the subresource name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getSubresource() {
    return subresource;
  }

  /**
   * Sets the subresource name.
   *
   * @param subresource the subresource name
   */
  public void setSubresource(String subresource) {
    this.subresource = subresource;
  }

  /**
   * Returns the kind it returns.
   *
   * @return the kind it returns
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public GroupVersionKindRef getResponseKind() {
    return responseKind;
  }

  /**
   * Sets the kind it returns.
   *
   * @param responseKind the kind it returns
   */
  public void setResponseKind(GroupVersionKindRef responseKind) {
    this.responseKind = responseKind;
  }

  /**
   * Returns the kinds it accepts.
   *
   * @return the kinds it accepts
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getAcceptedTypes() {
    return acceptedTypes;
  }

  /**
   * Sets the kinds it accepts.
   *
   * @param acceptedTypes the kinds it accepts
   */
  public void setAcceptedTypes(List<String> acceptedTypes) {
    this.acceptedTypes = acceptedTypes;
  }

  /**
   * Returns the verbs.
   *
   * @return the verbs
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<String> getVerbs() {
    return verbs;
  }

  /**
   * Sets the verbs.
   *
   * @param verbs the verbs
   */
  public void setVerbs(List<String> verbs) {
    this.verbs = verbs;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APISubresourceDiscovery)) {
      return false;
    }
    APISubresourceDiscovery that = (APISubresourceDiscovery) other;
    return true
        && Objects.equals(subresource, that.subresource)
        && Objects.equals(responseKind, that.responseKind)
        && Objects.equals(acceptedTypes, that.acceptedTypes)
        && Objects.equals(verbs, that.verbs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(subresource, responseKind, acceptedTypes, verbs);
  }

  @Override
  public String toString() {
    return "APISubresourceDiscovery{"
        + "subresource="
        + subresource
        + ", responseKind="
        + responseKind
        + ", acceptedTypes="
        + acceptedTypes
        + ", verbs="
        + verbs
        + "}";
  }
}
