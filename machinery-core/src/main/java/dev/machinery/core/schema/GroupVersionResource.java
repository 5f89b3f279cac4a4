package dev.machinery.core.schema;

import static dev.machinery.core.internal.Text.quote;

import java.util.Objects;

/**
 * A resource in a group version, such as {@code apps/v1, Resource=deployments}.
 *
 * <p>{@link #toString()} prints Kubernetes' form and {@link #parse(String)} reads it back; the
 * dotted command-line form {@code deployments.v1.apps} is parsed by {@link ResourceArg}. Parts may
 * be empty in a partial value. Immutable and safe to share between threads.
 *
 * @param group the group; empty for the legacy core group
 * @param version the version
 * @param resource the resource name (plural, lower case), such as {@code deployments}
 */
public record GroupVersionResource(String group, String version, String resource) {
  private static final String RESOURCE_SEPARATOR = ", Resource=";

  /** The empty value. */
  public static final GroupVersionResource EMPTY = new GroupVersionResource("", "", "");

  /**
   * Validates the parts.
   *
   * @param group see the record description
   * @param version see the record description
   * @param resource see the record description
   * @throws MalformedIdentifierException if a part is malformed
   */
  public GroupVersionResource {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(resource, "resource");
    Names.checkGroup(group);
    Names.checkVersion(version);
    Names.checkResource(resource);
  }

  /**
   * Returns the value with these parts.
   *
   * @param group the group
   * @param version the version
   * @param resource the resource
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupVersionResource of(String group, String version, String resource) {
    return new GroupVersionResource(group, version, resource);
  }

  /**
   * Parses Kubernetes' printed form, {@code apps/v1, Resource=deployments}.
   *
   * @param text the string form
   * @return the value
   * @throws MalformedIdentifierException if the text is not of that form
   */
  public static GroupVersionResource parse(String text) {
    Objects.requireNonNull(text, "text");
    int at = text.indexOf(RESOURCE_SEPARATOR);
    if (at < 0) {
      throw new MalformedIdentifierException(
          text,
          "invalid group/version/resource "
              + quote(text)
              + ": expected \"group/version, Resource=resource\" such as"
              + " \"apps/v1, Resource=deployments\" (for the dotted form deployments.v1.apps use"
              + " ResourceArg.parse)");
    }
    return GroupVersion.parse(text.substring(0, at))
        .withResource(text.substring(at + RESOURCE_SEPARATOR.length()));
  }

  /**
   * Returns the group version.
   *
   * @return the group version
   */
  public GroupVersion groupVersion() {
    return new GroupVersion(group, version);
  }

  /**
   * Returns the group resource (the version dropped).
   *
   * @return the group resource
   */
  public GroupResource groupResource() {
    return new GroupResource(group, resource);
  }

  /**
   * Returns whether every part is empty.
   *
   * @return true for the empty value
   */
  public boolean isEmpty() {
    return group.isEmpty() && version.isEmpty() && resource.isEmpty();
  }

  /** Returns Kubernetes' form, {@code apps/v1, Resource=deployments}. */
  @Override
  public String toString() {
    return group + "/" + version + RESOURCE_SEPARATOR + resource;
  }

  // equals and hashCode are written out (not generated) to keep first use cheap: the generated
  // ones bootstrap method handles, which costs a fresh JVM tens of milliseconds.

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupVersionResource)) {
      return false;
    }
    GroupVersionResource that = (GroupVersionResource) o;
    return group.equals(that.group)
        && version.equals(that.version)
        && resource.equals(that.resource);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (group.hashCode()) + version.hashCode()) + resource.hashCode();
  }
}
