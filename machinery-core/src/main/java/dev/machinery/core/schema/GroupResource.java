package dev.machinery.core.schema;

import java.util.Objects;

/**
 * A resource in a group with no version, such as {@code deployments.apps}.
 *
 * <p>The string form is {@code resource.group}, or the bare resource for the core group; {@link
 * #parse(String)} splits at the first dot, as Kubernetes does. Immutable and safe to share between
 * threads.
 *
 * @param group the group; empty for the legacy core group
 * @param resource the resource name (plural, lower case)
 */
public record GroupResource(String group, String resource) {
  /** The empty value. */
  public static final GroupResource EMPTY = new GroupResource("", "");

  /**
   * Validates the parts.
   *
   * @param group see the record description
   * @param resource see the record description
   * @throws MalformedIdentifierException if a part is malformed
   */
  public GroupResource {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    Names.checkGroup(group);
    Names.checkResource(resource);
  }

  /**
   * Returns the value with these parts.
   *
   * @param group the group
   * @param resource the resource
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupResource of(String group, String resource) {
    return new GroupResource(group, resource);
  }

  /**
   * Parses {@code resource.group} ({@code deployments.apps}, {@code pods}).
   *
   * @param text the string form
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupResource parse(String text) {
    Objects.requireNonNull(text, "text");
    int dot = text.indexOf('.');
    return dot < 0
        ? new GroupResource("", text)
        : new GroupResource(text.substring(dot + 1), text.substring(0, dot));
  }

  /**
   * Returns this resource in a version.
   *
   * @param version the version
   * @return the group version resource
   */
  public GroupVersionResource withVersion(String version) {
    return new GroupVersionResource(group, version, resource);
  }

  /**
   * Returns whether both parts are empty.
   *
   * @return true for the empty value
   */
  public boolean isEmpty() {
    return group.isEmpty() && resource.isEmpty();
  }

  /** Returns {@code resource.group}, or the bare resource for the core group. */
  @Override
  public String toString() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  // equals and hashCode are written out (not generated) to keep first use cheap: the generated
  // ones bootstrap method handles, which costs a fresh JVM tens of milliseconds.

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupResource)) {
      return false;
    }
    GroupResource that = (GroupResource) o;
    return group.equals(that.group) && resource.equals(that.resource);
  }

  @Override
  public int hashCode() {
    return 31 * (group.hashCode()) + resource.hashCode();
  }
}
