/**
 * Field sets for server-side apply, as structured-merge-diff's {@code fieldpath} package has them.
 * A {@link dev.machinery.core.fieldpath.PathElement} is one step into an object (a field, an
 * associative list's key, a set's value, an index), a {@link
 * dev.machinery.core.fieldpath.FieldPath} a list of them, and a {@link
 * dev.machinery.core.fieldpath.FieldSet} an immutable tree of paths with union, intersection and
 * difference. {@link dev.machinery.core.fieldpath.FieldsV1} reads and writes the {@code FieldsV1}
 * JSON of {@code managedFields} byte for byte as kube-apiserver does.
 */
package dev.machinery.core.fieldpath;
