package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares which properties of its source a hand-written conversion converts itself: those the
 * generated {@code autoConvert…} function cannot (no counterpart of that name, or a type it cannot
 * convert). The generator makes every such property a compile error until the hand-written method
 * names it here, so a property added later is never lost in silence, as it would be if a
 * hand-written conversion were trusted to cover everything. Naming a property the source does not
 * have is a compile error too.
 *
 * <pre>{@code
 * @ConvertsProperties({"param", "extraParams"})
 * public static Frobber convertV6FrobberToInternalFrobber(
 *     dev.example.v6.Frobber in, ConversionScope scope) {
 *   Frobber out = GeneratedConversions.autoConvertV6FrobberToInternalFrobber(in, scope);
 *   ... // param and extraParams become params
 *   return out;
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface ConvertsProperties {
  /**
   * Returns the names of the source properties the method converts itself.
   *
   * @return the property names
   */
  String[] value();
}
