package dev.machinery.core.schema;

import java.util.Objects;

/**
 * An API group and version, such as {@code apps/v1} or the legacy core group's {@code v1}.
 *
 * <p>The string form is Kubernetes' {@code apiVersion}: {@code group/version}, or the bare version
 * for the core group {@code ""}. {@link #parse(String)} accepts every form Kubernetes accepts
 * ({@code v1}, {@code /v1}, {@code apps/v1}, {@code apps/} for a group without a version, and the
 * empty string for the empty value) and rejects anything else with a {@link
 * MalformedIdentifierException}. Immutable and safe to share between threads.
 *
 * @param group the group; empty for the legacy core group
 * @param version the version; empty only in a partial or empty value
 */
public record GroupVersion(String group, String version) {
  /** The version name of a group's internal form, the hub that conversions pass through. */
  public static final String INTERNAL_VERSION = "__internal";

  /** The empty value: no group, no version. */
  public static final GroupVersion EMPTY = new GroupVersion("", "");

  /**
   * Validates the parts.
   *
   * @param group see the record description
   * @param version see the record description
   * @throws MalformedIdentifierException if a part holds characters no group or version may hold
   */
  public GroupVersion {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Names.checkGroup(group);
    Names.checkVersion(version);
  }

  /**
   * Returns the group version with these parts.
   *
   * @param group the group, empty for the legacy core group
   * @param version the version
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupVersion of(String group, String version) {
    return new GroupVersion(group, version);
  }

  /**
   * Returns the internal version of a group: {@code group/__internal}.
   *
   * @param group the group
   * @return the internal group version
   */
  public static GroupVersion internal(String group) {
    return new GroupVersion(group, INTERNAL_VERSION);
  }

  /**
   * Parses an {@code apiVersion} string: {@code v1}, {@code /v1}, {@code apps/v1}, {@code apps/} or
   * the empty string.
   *
   * @param text the string form
   * @return the value
   * @throws MalformedIdentifierException if the text has more than one slash or a malformed part
   */
  public static GroupVersion parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      return EMPTY;
    }
    int slash = text.indexOf('/');
    if (slash < 0) {
      return new GroupVersion("", text);
    }
    if (text.indexOf('/', slash + 1) >= 0) {
      throw new MalformedIdentifierException(
          text,
          "unexpected GroupVersion string: "
              + text
              + " (expected \"version\" or \"group/version\", found more than one '/')");
    }
    return new GroupVersion(text.substring(0, slash), text.substring(slash + 1));
  }

  /**
   * Returns whether both group and version are empty.
   *
   * @return true for the empty value
   */
  public boolean isEmpty() {
    return group.isEmpty() && version.isEmpty();
  }

  /**
   * Returns whether this is a group's internal version.
   *
   * @return true if the version is {@value #INTERNAL_VERSION}
   */
  public boolean isInternal() {
    return version.equals(INTERNAL_VERSION);
  }

  /**
   * Returns the kind {@code kind} in this group version.
   *
   * @param kind the kind name
   * @return the group version kind
   */
  public GroupVersionKind withKind(String kind) {
    return new GroupVersionKind(group, version, kind);
  }

  /**
   * Returns the resource {@code resource} in this group version.
   *
   * @param resource the resource name (plural, lower case)
   * @return the group version resource
   */
  public GroupVersionResource withResource(String resource) {
    return new GroupVersionResource(group, version, resource);
  }

  /**
   * Returns the {@code apiVersion} form: {@code group/version}, or the bare version for the core
   * group, or the empty string for the empty value.
   */
  @Override
  public String toString() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  // equals and hashCode are written out (not generated) to keep first use cheap: the generated
  // ones bootstrap method handles, which costs a fresh JVM tens of milliseconds.

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupVersion)) {
      return false;
    }
    GroupVersion that = (GroupVersion) o;
    return group.equals(that.group) && version.equals(that.version);
  }

  @Override
  public int hashCode() {
    return 31 * (group.hashCode()) + version.hashCode();
  }
}
