package dev.machinery.core.typed;

import dev.machinery.core.fieldpath.FieldSet;
import java.util.Objects;

/**
 * The difference between an old and a new value of one type, as structured-merge-diff's {@code
 * Comparison}: the fields the new value adds, those both hold with different values, and those it
 * removes. No field is in two of the sets; all three are empty when the values are equal. Atomic
 * lists and maps, and empty or null ones, count as one field.
 *
 * @param added the fields only the new value holds
 * @param modified the fields both hold, with different values
 * @param removed the fields only the old value holds
 */
public record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
  /**
   * Checks the parts.
   *
   * @param added the fields only the new value holds
   * @param modified the fields both hold, with different values
   * @param removed the fields only the old value holds
   */
  public Comparison {
    Objects.requireNonNull(added, "added");
    Objects.requireNonNull(modified, "modified");
    Objects.requireNonNull(removed, "removed");
  }

  /**
   * Tells whether the values were the same.
   *
   * @return true when no field was added, modified or removed
   */
  public boolean isSame() {
    return added.isEmpty() && modified.isEmpty() && removed.isEmpty();
  }
}
