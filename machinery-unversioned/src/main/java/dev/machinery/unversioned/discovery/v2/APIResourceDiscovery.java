package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * A resource in aggregated discovery: name, returned kind, scope, verbs, names and subresources.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "resource",
  "responseKind",
  "scope",
  "singularResource",
  "verbs",
  "shortNames",
  "categories",
  "subresources"
})
public final class APIResourceDiscovery {
  private String resource;
  private GroupVersionKindRef responseKind;
  private String scope;
  private String singularResource;
  private List<String> verbs;
  private List<String> shortNames;
  private List<String> categories;
  private List<APISubresourceDiscovery> subresources;

  /** Creates an empty APIResourceDiscovery. */
  public APIResourceDiscovery() {}

  /**
   * Returns the plural resource name.
   *
   * @return the plural resource name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getResource() {
    return resource;
  }

  /**
   * Sets the plural resource name.
   *
   * @param resource the plural resource name
   */
  public void setResource(String resource) {
    this.resource = resource;
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
   * Returns {@code Namespaced} or {@code Cluster}.
   *
   * @return {@code Namespaced} or {@code Cluster}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getScope() {
    return scope;
  }

  /**
   * Sets {@code Namespaced} or {@code Cluster}.
   *
   * @param scope {@code Namespaced} or {@code Cluster}
   */
  public void setScope(String scope) {
    this.scope = scope;
  }

  /**
   * Returns the singular name.
   *
   * @return the singular name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getSingularResource() {
    return singularResource;
  }

  /**
   * Sets the singular name.
   *
   * @param singularResource the singular name
   */
  public void setSingularResource(String singularResource) {
    this.singularResource = singularResource;
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

  /**
   * Returns the short names.
   *
   * @return the short names
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getShortNames() {
    return shortNames;
  }

  /**
   * Sets the short names.
   *
   * @param shortNames the short names
   */
  public void setShortNames(List<String> shortNames) {
    this.shortNames = shortNames;
  }

  /**
   * Returns the categories.
   *
   * @return the categories
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getCategories() {
    return categories;
  }

  /**
   * Sets the categories.
   *
   * @param categories the categories
   */
  public void setCategories(List<String> categories) {
    this.categories = categories;
  }

  /**
   * Returns the subresources.
   *
   * @return the subresources
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<APISubresourceDiscovery> getSubresources() {
    return subresources;
  }

  /**
   * Sets the subresources.
   *
   * @param subresources the subresources
   */
  public void setSubresources(List<APISubresourceDiscovery> subresources) {
    this.subresources = subresources;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIResourceDiscovery)) {
      return false;
    }
    APIResourceDiscovery that = (APIResourceDiscovery) other;
    return true
        && Objects.equals(resource, that.resource)
        && Objects.equals(responseKind, that.responseKind)
        && Objects.equals(scope, that.scope)
        && Objects.equals(singularResource, that.singularResource)
        && Objects.equals(verbs, that.verbs)
        && Objects.equals(shortNames, that.shortNames)
        && Objects.equals(categories, that.categories)
        && Objects.equals(subresources, that.subresources);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        resource,
        responseKind,
        scope,
        singularResource,
        verbs,
        shortNames,
        categories,
        subresources);
  }

  @Override
  public String toString() {
    return "APIResourceDiscovery{"
        + "resource="
        + resource
        + ", responseKind="
        + responseKind
        + ", scope="
        + scope
        + ", singularResource="
        + singularResource
        + ", verbs="
        + verbs
        + ", shortNames="
        + shortNames
        + ", categories="
        + categories
        + ", subresources="
        + subresources
        + "}";
  }
}
