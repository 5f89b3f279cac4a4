package dev.machinery.core.patch;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The field that identifies the elements of a list of objects merged by a strategic merge patch, as
 * Go's {@code patchMergeKey} struct tag says: {@code "name"} for containers, {@code
 * "containerPort"} for ports. Used with {@code @PatchStrategy("merge")}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface PatchMergeKey {
  /**
   * The field's name on the wire.
   *
   * @return the field
   */
  String value();
}
