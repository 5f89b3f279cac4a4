package dev.machinery.controller.cache;

import java.util.Objects;

/**
 * One change of an object, as a {@link DeltaFIFO} queues it ({@code cache.Delta}).
 *
 * <p>A deletion a relist inferred (the object was in the cache and the new list no longer has it)
 * carries the last state the cache knew and {@code finalStateUnknown} true: client-go's {@code
 * DeletedFinalStateUnknown}.
 *
 * <p>Immutable; thread-safe as long as the object is not changed (cached objects never are).
 *
 * @param type what happened
 * @param object the object after the change (for deletions, its last known state)
 * @param finalStateUnknown true for a deletion inferred from a relist
 * @param <T> the object type
 */
public record Delta<T>(DeltaType type, T object, boolean finalStateUnknown) {
  /**
   * Checks the parts.
   *
   * @param type the type
   * @param object the object
   * @param finalStateUnknown whether the deletion was inferred
   */
  public Delta {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
    if (finalStateUnknown && type != DeltaType.DELETED) {
      throw new IllegalArgumentException("only a deletion has an unknown final state, not " + type);
    }
  }
}
