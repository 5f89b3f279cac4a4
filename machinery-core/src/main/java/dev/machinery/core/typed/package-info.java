/**
 * Types of server-side apply: the schema model of structured-merge-diff's {@code schema} package
 * ({@link dev.machinery.core.typed.Schema} of named {@link dev.machinery.core.typed.Atom}s:
 * scalars, lists atomic or associative with key fields, maps and structs granular or atomic, and
 * the untyped and deduced types of values of unknown shape), built from OpenAPI ({@link
 * dev.machinery.core.typed.OpenApiSchemas}) or from Java types ({@link
 * dev.machinery.core.typed.JavaSchemas}); and its {@code typed} package's checks of values against
 * a type and the field set of a value ({@link dev.machinery.core.typed.SchemaType#toFieldSet}), the
 * paths server-side apply records as owned.
 */
package dev.machinery.core.typed;
