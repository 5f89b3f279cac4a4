package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a property has no counterpart in the other form of its class and is deliberately
 * not converted. Without it (or a hand-written conversion of the class), such a property is a
 * compile error, since its value would be lost. Put it on the getter of a bean property or on a
 * record component.
 *
 * <pre>{@code
 * @NotConverted(reason = "carried by the annotation example.dev/legacy-param")
 * public String getLegacyParam() { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD})
public @interface NotConverted {
  /**
   * Returns why losing the value is correct, for the next reader; must not be blank.
   *
   * @return the reason
   */
  String reason();
}
