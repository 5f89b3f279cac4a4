package dev.machinery.apiserver.admission;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;

/**
 * The versions a write's resource is served in, as kube-apiserver's equivalent resource mapper
 * knows them, for {@code matchPolicy: Equivalent}: the version the request was made in, every
 * version served, the kind of the objects in each, and the objects converted into each.
 * Implementations are thread-safe.
 */
public interface ResourceVersions {
  /**
   * The version the request was made in.
   *
   * @return the version, such as {@code v2}
   */
  String requested();

  /**
   * Every version the resource is served in, most preferred first; includes {@link #requested()}.
   *
   * @return the versions
   */
  List<String> served();

  /**
   * The kind of the write's objects in a version: the resource's kind in that version, or a
   * subresource's own kind (the scale subresource's {@code autoscaling/v1 Scale} in every version).
   *
   * @param version one of {@link #served()}
   * @return the kind
   */
  GroupVersionKind kindIn(String version);

  /**
   * An object of the write converted into a version, leaving it as it is.
   *
   * @param object the object, as the attributes hold it, or {@code null}
   * @param version one of {@link #served()}
   * @return the object in that version (a new one when it differs), {@code null} for {@code null}
   * @throws IllegalArgumentException when the version is not served
   */
  Object convert(Object object, String version);

  /**
   * The versions of a resource held in one version only: that version is requested and served, and
   * nothing is converted.
   *
   * @param kind the kind of the objects
   * @param version the resource's version
   * @return the versions
   */
  static ResourceVersions only(GroupVersionKind kind, String version) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(version, "version");
    return new ResourceVersions() {
      @Override
      public String requested() {
        return version;
      }

      @Override
      public List<String> served() {
        return List.of(version);
      }

      @Override
      public GroupVersionKind kindIn(String other) {
        check(other);
        return kind;
      }

      @Override
      public Object convert(Object object, String other) {
        check(other);
        return object;
      }

      private void check(String other) {
        if (!version.equals(other)) {
          throw new IllegalArgumentException(
              "version \"" + other + "\" is not served (only \"" + version + "\" is)");
        }
      }
    };
  }
}
