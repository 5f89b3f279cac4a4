package dev.machinery.core.merge;

import dev.machinery.core.fieldpath.FieldPath;
import java.util.Objects;

/**
 * A field an applier would change that another manager owns. Immutable.
 *
 * @param manager the manager that owns the field, as the managers map names it
 * @param path the field, in the owner's API version
 */
public record Conflict(String manager, FieldPath path) {
  /**
   * Checks the parts.
   *
   * @param manager the owning manager
   * @param path the field
   */
  public Conflict {
    Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(path, "path");
  }

  @Override
  public String toString() {
    return "conflict with " + manager + ": " + path;
  }
}
