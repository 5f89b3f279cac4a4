package dev.machinery.core.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a value class whose Go zero value is written as JSON {@code null}, as {@code metav1.Time}
 * writes its zero time: a map or list of the class may then hold {@code null} (the zero value) when
 * decoded, and writes it back as {@code null}, as Go does ({@code map[string]metav1.Time} in a
 * PodDisruptionBudget's {@code status.disruptedPods}). Maps and lists of other typed values refuse
 * {@code null} elements.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface NullIsZero {}
