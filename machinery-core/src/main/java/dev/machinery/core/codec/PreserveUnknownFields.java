package dev.machinery.core.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose catch-all ({@code @JsonAnySetter}) holds unknown fields on purpose, as
 * Kubernetes' {@code x-kubernetes-preserve-unknown-fields} does for a schema: fields that land in
 * it are not reported as unknown.
 *
 * <p>Without this mark, every field that reaches a class's catch-all is an unknown field like any
 * other: a {@link FieldValidation#STRICT} decode fails naming it, a {@link FieldValidation#WARN}
 * decode keeps it in the catch-all and reports it, and an {@link FieldValidation#IGNORE} decode
 * keeps it silently. Nested classes are marked one by one; the mark is not inherited.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PreserveUnknownFields {}
