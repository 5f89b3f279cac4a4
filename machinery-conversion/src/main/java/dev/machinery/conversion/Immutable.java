package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose instances never change once made (a value type such as a quantity): the
 * generated conversions and deep copies, and the runtime converter, share its instances instead of
 * copying them. The class must keep the promise: final, with final fields of immutable values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Immutable {}
