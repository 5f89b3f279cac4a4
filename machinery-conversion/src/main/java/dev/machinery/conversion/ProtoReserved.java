package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The field numbers of a protobuf message that its class does not model: numbers Kubernetes removed
 * ({@code reserved} in {@code generated.proto}) or fields the Java type leaves out. The build
 * (machinery-conversion-processor on the processor path) refuses a class whose {@link ProtoField}
 * numbers repeat, or skip a number not listed here, so that a typo in a number cannot silently
 * shift a message.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ProtoReserved {
  /**
   * The numbers below the highest declared one that the class does not model.
   *
   * @return the numbers
   */
  int[] value();
}
