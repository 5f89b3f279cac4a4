package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * One resource of a group version as discovery describes it: name, kind, scope, verbs.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "name",
  "singularName",
  "namespaced",
  "group",
  "version",
  "kind",
  "verbs",
  "shortNames",
  "categories",
  "storageVersionHash"
})
public final class APIResource {
  private String name;
  private String singularName;
  private boolean namespaced;
  private String group;
  private String version;
  private String kind;
  private List<String> verbs;
  private List<String> shortNames;
  private List<String> categories;
  private String storageVersionHash;

  /** Creates an empty APIResource. */
  public APIResource() {}

  /**
   * Returns the plural resource name, or {@code resource/subresource}.
   *
   * @return the plural resource name, or {@code resource/subresource}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getName() {
    return name;
  }

  /**
   * Sets the plural resource name, or {@code resource/subresource}.
   *
   * @param name the plural resource name, or {@code resource/subresource}
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the singular name (empty for subresources).
   *
   * @return the singular name (empty for subresources)
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getSingularName() {
    return singularName;
  }

  /**
   * Sets the singular name (empty for subresources).
   *
   * @param singularName the singular name (empty for subresources)
   */
  public void setSingularName(String singularName) {
    this.singularName = singularName;
  }

  /**
   * Returns whether the resource is namespaced.
   *
   * @return whether the resource is namespaced
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public boolean isNamespaced() {
    return namespaced;
  }

  /**
   * Sets whether the resource is namespaced.
   *
   * @param namespaced whether the resource is namespaced
   */
  public void setNamespaced(boolean namespaced) {
    this.namespaced = namespaced;
  }

  /**
   * Returns the group, when it differs from the list's.
   *
   * @return the group, when it differs from the list's
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getGroup() {
    return group;
  }

  /**
   * Sets the group, when it differs from the list's.
   *
   * @param group the group, when it differs from the list's
   */
  public void setGroup(String group) {
    this.group = group;
  }

  /**
   * Returns the version, when it differs from the list's.
   *
   * @return the version, when it differs from the list's
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getVersion() {
    return version;
  }

  /**
   * Sets the version, when it differs from the list's.
   *
   * @param version the version, when it differs from the list's
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

  /**
   * Returns the verbs, such as {@code get} and {@code list}.
   *
   * @return the verbs, such as {@code get} and {@code list}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<String> getVerbs() {
    return verbs;
  }

  /**
   * Sets the verbs, such as {@code get} and {@code list}.
   *
   * @param verbs the verbs, such as {@code get} and {@code list}
   */
  public void setVerbs(List<String> verbs) {
    this.verbs = verbs;
  }

  /**
   * Returns the short names, such as {@code deploy}.
   *
   * @return the short names, such as {@code deploy}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getShortNames() {
    return shortNames;
  }

  /**
   * Sets the short names, such as {@code deploy}.
   *
   * @param shortNames the short names, such as {@code deploy}
   */
  public void setShortNames(List<String> shortNames) {
    this.shortNames = shortNames;
  }

  /**
   * Returns the categories, such as {@code all}.
   *
   * @return the categories, such as {@code all}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getCategories() {
    return categories;
  }

  /**
   * Sets the categories, such as {@code all}.
   *
   * @param categories the categories, such as {@code all}
   */
  public void setCategories(List<String> categories) {
    this.categories = categories;
  }

  /**
   * Returns the hash of the storage version.
   *
   * @return the hash of the storage version
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getStorageVersionHash() {
    return storageVersionHash;
  }

  /**
   * Sets the hash of the storage version.
   *
   * @param storageVersionHash the hash of the storage version
   */
  public void setStorageVersionHash(String storageVersionHash) {
    this.storageVersionHash = storageVersionHash;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIResource)) {
      return false;
    }
    APIResource that = (APIResource) other;
    return true
        && Objects.equals(name, that.name)
        && Objects.equals(singularName, that.singularName)
        && Objects.equals(namespaced, that.namespaced)
        && Objects.equals(group, that.group)
        && Objects.equals(version, that.version)
        && Objects.equals(kind, that.kind)
        && Objects.equals(verbs, that.verbs)
        && Objects.equals(shortNames, that.shortNames)
        && Objects.equals(categories, that.categories)
        && Objects.equals(storageVersionHash, that.storageVersionHash);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        singularName,
        namespaced,
        group,
        version,
        kind,
        verbs,
        shortNames,
        categories,
        storageVersionHash);
  }

  @Override
  public String toString() {
    return "APIResource{"
        + "name="
        + name
        + ", singularName="
        + singularName
        + ", namespaced="
        + namespaced
        + ", group="
        + group
        + ", version="
        + version
        + ", kind="
        + kind
        + ", verbs="
        + verbs
        + ", shortNames="
        + shortNames
        + ", categories="
        + categories
        + ", storageVersionHash="
        + storageVersionHash
        + "}";
  }
}
