package dev.machinery.core.merge;

import dev.machinery.core.fieldpath.FieldSet;
import java.util.Objects;

/**
 * The fields one manager owns, with the API version they were recorded in and whether they came
 * from an apply (as structured-merge-diff's {@code VersionedSet}). Immutable.
 *
 * @param set the fields
 * @param apiVersion the API version the paths are in, like {@code apps/v1}
 * @param applied whether an apply recorded them (else an update)
 */
public record VersionedSet(FieldSet set, String apiVersion, boolean applied) {
  /**
   * Checks the parts.
   *
   * @param set the fields
   * @param apiVersion the API version the paths are in
   * @param applied whether an apply recorded them
   */
  public VersionedSet {
    Objects.requireNonNull(set, "set");
    Objects.requireNonNull(apiVersion, "apiVersion");
  }

  /**
   * Returns the same version and origin with other fields.
   *
   * @param other the fields
   * @return the new set
   */
  public VersionedSet withSet(FieldSet other) {
    return new VersionedSet(other, apiVersion, applied);
  }
}
