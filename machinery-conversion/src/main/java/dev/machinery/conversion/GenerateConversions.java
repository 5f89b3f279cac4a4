package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks the generator ({@code machinery-conversion-processor}) to write, for the annotated versioned
 * package, conversion functions in both directions between each of its classes and the same-named
 * class of the internal package, and deep-copy functions for its classes. Put it on {@code
 * package-info.java}, as Kubernetes' {@code +k8s:conversion-gen} tag:
 *
 * <pre>{@code
 * @GenerateConversions(internalPackage = "dev.example.frobber.internal")
 * package dev.example.frobber.v6;
 * }</pre>
 *
 * <p>The generator writes {@code GeneratedConversions} and {@code GeneratedDeepCopy} into the
 * package. A hand-written conversion is a static method, in any class of the package or of {@link
 * #uses()} (public there), taking {@code (S in, ConversionScope scope)}, returning {@code T}, and
 * named {@code convert…}. For a versioned class and its internal counterpart the name must be
 * {@code convert} + tag + name + {@code To} + tag + name, the tag being the package's last segment
 * ({@code convertV6FrobberToInternalFrobber}); another name is a compile error giving this one. For
 * other pairs any {@code convert…} name serves ({@code convertIntegerToInt}). It replaces the
 * generated function for its pair everywhere, and can call the generated {@code autoConvert…}
 * function for the fields it does not handle itself.
 *
 * <p>A property on one side with no counterpart on the other is a compile error naming it, unless
 * the pair has a hand-written conversion or the property is marked {@link NotConverted}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PACKAGE)
public @interface GenerateConversions {
  /**
   * Returns the fully qualified name of the internal package, the hub every version converts
   * through.
   *
   * @return the package name
   */
  String internalPackage();

  /**
   * Returns classes whose static {@code convert…} methods serve as hand-written conversions too,
   * such as {@link StandardConversions}.
   *
   * @return the classes
   */
  Class<?>[] uses() default {};
}
