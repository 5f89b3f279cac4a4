package dev.machinery.core.merge;

import java.util.Optional;

/**
 * Converts an object to another API version of its kind, so fields recorded in one version can be
 * compared with changes made in another. Implementations must be safe to call from several threads
 * when the {@link Updater} using them is shared.
 */
public interface VersionConverter {
  /**
   * Converts the value.
   *
   * @param value the value
   * @param apiVersion the version to convert to, like {@code apps/v1}
   * @return the value in that version, typed by that version's type; empty when the kind has no
   *     such version (its managers' fields are then dropped, as structured-merge-diff does)
   */
  Optional<TypedValue> convert(TypedValue value, String apiVersion);

  /**
   * Returns a converter for kinds with one shape in every version: each value is returned as it is.
   *
   * @return the converter
   */
  static VersionConverter identity() {
    return (value, apiVersion) -> Optional.of(value);
  }
}
