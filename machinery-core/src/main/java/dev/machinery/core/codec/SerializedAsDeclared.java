package dev.machinery.core.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class written by a serializer of its own ({@code @JsonSerialize(using = ...)}, for speed)
 * that writes exactly the properties its Jackson annotations declare, with their names and types.
 * Schemas built from Java classes ({@code dev.machinery.core.typed.JavaSchemas}) then read the
 * class's properties as for any other class, instead of taking its values as opaque.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SerializedAsDeclared {}
