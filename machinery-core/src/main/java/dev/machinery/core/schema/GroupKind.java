package dev.machinery.core.schema;

import java.util.Objects;

/**
 * A kind in a group with no version, such as {@code Deployment.apps}.
 *
 * <p>The string form is {@code Kind.group}, or the bare kind for the core group; {@link
 * #parse(String)} splits at the first dot, as Kubernetes does. Immutable and safe to share between
 * threads.
 *
 * @param group the group; empty for the legacy core group
 * @param kind the kind name
 */
public record GroupKind(String group, String kind) {
  /** The empty value. */
  public static final GroupKind EMPTY = new GroupKind("", "");

  /**
   * Validates the parts.
   *
   * @param group see the record description
   * @param kind see the record description
   * @throws MalformedIdentifierException if a part is malformed
   */
  public GroupKind {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Names.checkGroup(group);
    Names.checkKind(kind);
  }

  /**
   * Returns the value with these parts.
   *
   * @param group the group
   * @param kind the kind
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupKind of(String group, String kind) {
    return new GroupKind(group, kind);
  }

  /**
   * Parses {@code Kind.group} ({@code Deployment.apps}, {@code Pod}).
   *
   * @param text the string form
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupKind parse(String text) {
    Objects.requireNonNull(text, "text");
    int dot = text.indexOf('.');
    return dot < 0
        ? new GroupKind("", text)
        : new GroupKind(text.substring(dot + 1), text.substring(0, dot));
  }

  /**
   * Returns this kind in a version.
   *
   * @param version the version
   * @return the group version kind
   */
  public GroupVersionKind withVersion(String version) {
    return new GroupVersionKind(group, version, kind);
  }

  /**
   * Returns whether both parts are empty.
   *
   * @return true for the empty value
   */
  public boolean isEmpty() {
    return group.isEmpty() && kind.isEmpty();
  }

  /** Returns {@code Kind.group}, or the bare kind for the core group. */
  @Override
  public String toString() {
    return group.isEmpty() ? kind : kind + "." + group;
  }

  // equals and hashCode are written out (not generated) to keep first use cheap: the generated
  // ones bootstrap method handles, which costs a fresh JVM tens of milliseconds.

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupKind)) {
      return false;
    }
    GroupKind that = (GroupKind) o;
    return group.equals(that.group) && kind.equals(that.kind);
  }

  @Override
  public int hashCode() {
    return 31 * (group.hashCode()) + kind.hashCode();
  }
}
