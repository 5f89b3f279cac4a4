package dev.machinery.core.schema;

import static dev.machinery.core.internal.Text.quote;

import java.util.Objects;

/**
 * A kind in a group version, such as {@code apps/v1, Kind=Deployment}.
 *
 * <p>{@link #toString()} prints Kubernetes' form ({@code apps/v1, Kind=Deployment}, {@code /v1,
 * Kind=Pod} for the core group) and {@link #parse(String)} reads it back. Documents carry the same
 * identity as {@code apiVersion} and {@code kind}: see {@link #fromApiVersionAndKind} and {@link
 * #apiVersion()}. The dotted command-line form {@code Deployment.v1.apps} is parsed by {@link
 * KindArg}. Parts may be empty in a partial value. Immutable and safe to share between threads.
 *
 * @param group the group; empty for the legacy core group
 * @param version the version
 * @param kind the kind name, such as {@code Deployment}
 */
public record GroupVersionKind(String group, String version, String kind) {
  private static final String KIND_SEPARATOR = ", Kind=";

  /** The empty value. */
  public static final GroupVersionKind EMPTY = new GroupVersionKind("", "", "");

  /**
   * Validates the parts.
   *
   * @param group see the record description
   * @param version see the record description
   * @param kind see the record description
   * @throws MalformedIdentifierException if a part is malformed
   */
  public GroupVersionKind {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(kind, "kind");
    Names.checkGroup(group);
    Names.checkVersion(version);
    Names.checkKind(kind);
  }

  /**
   * Returns the value with these parts.
   *
   * @param group the group
   * @param version the version
   * @param kind the kind
   * @return the value
   * @throws MalformedIdentifierException if a part is malformed
   */
  public static GroupVersionKind of(String group, String version, String kind) {
    return new GroupVersionKind(group, version, kind);
  }

  /**
   * Returns the value named by a document's {@code apiVersion} and {@code kind} fields.
   *
   * @param apiVersion {@code group/version} or the bare core version
   * @param kind the kind
   * @return the value
   * @throws MalformedIdentifierException if either is malformed
   */
  public static GroupVersionKind fromApiVersionAndKind(String apiVersion, String kind) {
    return GroupVersion.parse(apiVersion).withKind(kind);
  }

  /**
   * Parses Kubernetes' printed form, {@code apps/v1, Kind=Deployment} (also {@code /v1, Kind=Pod}
   * and {@code v1, Kind=Pod}).
   *
   * @param text the string form
   * @return the value
   * @throws MalformedIdentifierException if the text is not of that form
   */
  public static GroupVersionKind parse(String text) {
    Objects.requireNonNull(text, "text");
    int at = text.indexOf(KIND_SEPARATOR);
    if (at < 0) {
      throw new MalformedIdentifierException(
          text,
          "invalid group/version/kind "
              + quote(text)
              + ": expected \"group/version, Kind=Kind\" such as \"apps/v1, Kind=Deployment\""
              + " (for the dotted form Deployment.v1.apps use KindArg.parse)");
    }
    return GroupVersion.parse(text.substring(0, at))
        .withKind(text.substring(at + KIND_SEPARATOR.length()));
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
   * Returns the group kind (the version dropped).
   *
   * @return the group kind
   */
  public GroupKind groupKind() {
    return new GroupKind(group, kind);
  }

  /**
   * Returns the {@code apiVersion} a document of this kind carries.
   *
   * @return {@code group/version}, or the bare version for the core group
   */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Returns whether every part is empty.
   *
   * @return true for the empty value
   */
  public boolean isEmpty() {
    return group.isEmpty() && version.isEmpty() && kind.isEmpty();
  }

  /** Returns Kubernetes' form, {@code apps/v1, Kind=Deployment}. */
  @Override
  public String toString() {
    return group + "/" + version + KIND_SEPARATOR + kind;
  }

  // equals and hashCode are written out (not generated) to keep first use cheap: the generated
  // ones bootstrap method handles, which costs a fresh JVM tens of milliseconds.

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof GroupVersionKind)) {
      return false;
    }
    GroupVersionKind that = (GroupVersionKind) o;
    return group.equals(that.group) && version.equals(that.version) && kind.equals(that.kind);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (group.hashCode()) + version.hashCode()) + kind.hashCode();
  }
}
