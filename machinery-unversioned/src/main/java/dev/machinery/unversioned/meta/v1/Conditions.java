package dev.machinery.unversioned.meta.v1;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sets, finds and removes {@link Condition}s in an object's list as Kubernetes' helpers do ({@code
 * meta.SetStatusCondition} and the rest): one condition per type; the transition time moves only
 * when the status changes (to the new condition's time if it has one, else now).
 *
 * <p>Stateless and safe to use from any thread; the lists are as thread-safe as they are.
 */
public final class Conditions {
  private Conditions() {}

  /**
   * Sets a condition with the system clock; see {@link #set(List, Condition, Clock)}.
   *
   * @param conditions the object's conditions, changed in place
   * @param condition the condition
   * @return whether anything changed
   */
  public static boolean set(List<Condition> conditions, Condition condition) {
    return set(conditions, condition, Clock.systemUTC());
  }

  /**
   * Sets a condition ({@code SetStatusCondition}): adds it when its type is new (stamped now when
   * it has no transition time); else updates status, reason, message and observed generation,
   * moving the transition time only when the status changes.
   *
   * @param conditions the object's conditions, changed in place
   * @param condition the condition; not itself added to the list when one of its type exists
   * @param clock the clock that says what now is
   * @return whether anything changed
   */
  public static boolean set(List<Condition> conditions, Condition condition, Clock clock) {
    Objects.requireNonNull(condition, "condition");
    Optional<Condition> found = find(conditions, condition.getType());
    if (found.isEmpty()) {
      if (condition.getLastTransitionTime() == null) {
        condition.setLastTransitionTime(new Time(clock.instant()));
      }
      conditions.add(condition);
      return true;
    }
    Condition existing = found.get();
    boolean changed = false;
    if (!Objects.equals(existing.getStatus(), condition.getStatus())) {
      existing.setStatus(condition.getStatus());
      existing.setLastTransitionTime(
          condition.getLastTransitionTime() != null
              ? condition.getLastTransitionTime()
              : new Time(clock.instant()));
      changed = true;
    }
    if (!Objects.equals(existing.getReason(), condition.getReason())) {
      existing.setReason(condition.getReason());
      changed = true;
    }
    if (!Objects.equals(existing.getMessage(), condition.getMessage())) {
      existing.setMessage(condition.getMessage());
      changed = true;
    }
    if (existing.getObservedGeneration() != condition.getObservedGeneration()) {
      existing.setObservedGeneration(condition.getObservedGeneration());
      changed = true;
    }
    return changed;
  }

  /**
   * Removes the condition of a type ({@code RemoveStatusCondition}).
   *
   * @param conditions the object's conditions, changed in place
   * @param type the type
   * @return whether one was removed
   */
  public static boolean remove(List<Condition> conditions, String type) {
    return conditions.removeIf(condition -> Objects.equals(condition.getType(), type));
  }

  /**
   * Finds the condition of a type ({@code FindStatusCondition}).
   *
   * @param conditions the conditions, or null
   * @param type the type
   * @return the condition, live, or empty
   */
  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    for (Condition condition : conditions) {
      if (Objects.equals(condition.getType(), type)) {
        return Optional.of(condition);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether the condition of a type is present with status {@code True}.
   *
   * @param conditions the conditions, or null
   * @param type the type
   * @return true when it holds
   */
  public static boolean isTrue(List<Condition> conditions, String type) {
    return isPresentAndEqual(conditions, type, Condition.TRUE);
  }

  /**
   * Whether the condition of a type is present with status {@code False}.
   *
   * @param conditions the conditions, or null
   * @param type the type
   * @return true when it does not hold
   */
  public static boolean isFalse(List<Condition> conditions, String type) {
    return isPresentAndEqual(conditions, type, Condition.FALSE);
  }

  /**
   * Whether the condition of a type is present with the given status.
   *
   * @param conditions the conditions, or null
   * @param type the type
   * @param status the status
   * @return true when present with that status
   */
  public static boolean isPresentAndEqual(List<Condition> conditions, String type, String status) {
    return find(conditions, type).map(c -> Objects.equals(c.getStatus(), status)).orElse(false);
  }
}
