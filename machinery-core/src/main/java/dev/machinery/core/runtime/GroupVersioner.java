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
   * Returns a versioner that targets the given versions, as Go's {@code GroupVersions} does: each
   * target whose group matches one of the object's kinds offers a kind (the one of its exact
   * version when the object has it, else its own version of the kind); an offer that is one of the
   * object's own kinds wins, else the first offer. A class registered as {@code apps/v1} and {@code
   * extensions/v1beta1} converts to {@code extensions/v1beta1} when both are targets, since that
   * kind is its own.
   *
   * @param versions the target versions
   * @return the versioner
   */
  static GroupVersioner of(GroupVersion... versions) {
    List<GroupVersion> targets = List.of(versions);
    return new GroupVersioner() {
      @Override
      public Optional<GroupVersionKind> kindForGroupVersionKinds(List<GroupVersionKind> kinds) {
        // As Go's GroupVersions: each target version offers the kind of its exact version, else
        // of its group; of several offers, one that is among the kinds (an exact match) wins,
        // else the first.
        GroupVersionKind first = null;
        for (GroupVersion target : targets) {
          GroupVersionKind offer = offer(target, kinds);
          if (offer == null) {
            continue;
          }
          if (kinds.contains(offer)) {
            return Optional.of(offer);
          }
          if (first == null) {
            first = offer;
          }
        }
        return Optional.ofNullable(first);
      }

      private GroupVersionKind offer(GroupVersion target, List<GroupVersionKind> kinds) {
        for (GroupVersionKind kind : kinds) {
          if (kind.group().equals(target.group()) && kind.version().equals(target.version())) {
            return kind;
          }
        }
        for (GroupVersionKind kind : kinds) {
          if (kind.group().equals(target.group())) {
            return target.withKind(kind.kind());
          }
        }
        return null;
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
