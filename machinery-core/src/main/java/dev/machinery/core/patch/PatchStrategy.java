package dev.machinery.core.patch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a strategic merge patch treats a property, as Go's {@code patchStrategy} struct tag says:
 * {@code "merge"} (a list is merged with the patch's elements, by {@link PatchMergeKey} for lists
 * of objects, as a set for lists of values), {@code "replace"} (the patch's value replaces the
 * whole), {@code "retainKeys"} (fields not listed in the patch's {@code $retainKeys} are cleared),
 * or {@code "merge"} and {@code "retainKeys"} together. Without it, lists are replaced and objects
 * merged. Put it on the getter, the field or the record component.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface PatchStrategy {
  /**
   * The strategies: {@code "merge"}, {@code "replace"}, {@code "retainKeys"}.
   *
   * @return the strategies
   */
  String[] value();
}
