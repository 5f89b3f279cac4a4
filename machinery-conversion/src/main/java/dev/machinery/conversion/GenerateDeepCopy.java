package dev.machinery.conversion;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks the generator ({@code machinery-conversion-processor}) to write a {@code GeneratedDeepCopy}
 * class with a deep-copy function for every API class of the annotated package, as Kubernetes'
 * {@code +k8s:deepcopy-gen=package} tag. Put it on the {@code package-info.java} of an internal
 * package or of a package of shared types; versioned packages marked {@link GenerateConversions}
 * get their deep copies without it.
 *
 * <p>The API classes of a package are its public top-level records, and its public top-level
 * classes with a public no-argument constructor and at least one getter/setter pair.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PACKAGE)
public @interface GenerateDeepCopy {}
