package dev.machinery.core.runtime;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Chooses the kind an object is converted into, given the kinds its class is registered under: one
 * version per group ({@link #of}), the internal version ({@link #internal()}), or the preferred
 * version of each group ({@link Scheme#preferredVersions()}). Kubernetes' {@code
 * runtime.GroupVersioner}.
 *
 * <p>Implementations are immutable and safe to share between threads.
 */
@FunctionalInterface
public interface GroupVersioner {
  /**
   * Returns the kind to convert into, or empty if none of {@code kinds} can be served.
   *
   * @param kinds the kinds the object's class is registered under, in registration order
   * @return the target kind
   */
  Optional<GroupVersionKind> kindForGroupVersionKinds(List<GroupVersionKind> kinds);

  /**
   * Returns a versioner that targets the given versions: the first whose group matches one of the
   * object's kinds wins.
   *
   * @param versions the target versions, at most one per group is useful
   * @return the versioner
   */
  static GroupVersioner of(GroupVersion... versions) {
    List<GroupVersion> targets = List.of(versions);
    return new GroupVersioner() {
      @Override
      public Optional<GroupVersionKind> kindForGroupVersionKinds(List<GroupVersionKind> kinds) {
        for (GroupVersion target : targets) {
          for (GroupVersionKind kind : kinds) {
            if (kind.group().equals(target.group())) {
              return Optional.of(target.withKind(kind.kind()));
            }
          }
        }
        return Optional.empty();
      }

      @Override
      public String toString() {
        return targets.stream().map(GroupVersion::toString).collect(Collectors.joining(", "));
      }
    };
  }

  /**
   * Returns the versioner that targets the internal version of the object's group.
   *
   * @return the versioner
   */
  static GroupVersioner internal() {
    return new GroupVersioner() {
      @Override
      public Optional<GroupVersionKind> kindForGroupVersionKinds(List<GroupVersionKind> kinds) {
        Objects.requireNonNull(kinds, "kinds");
        return kinds.isEmpty()
            ? Optional.empty()
            : Optional.of(
                GroupVersion.internal(kinds.get(0).group()).withKind(kinds.get(0).kind()));
      }

      @Override
      public String toString() {
        return "the internal version";
      }
    };
  }
}
