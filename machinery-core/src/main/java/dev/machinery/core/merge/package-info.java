/**
 * Field ownership and apply, as sigs.k8s.io/structured-merge-diff's {@code merge} package defines
 * them: an {@link dev.machinery.core.merge.Updater} records which manager owns which fields of an
 * object on every write, merges applied configurations into live objects, removes the fields an
 * applier gave up when nobody else owns them, and reports {@link dev.machinery.core.merge.Conflict
 * conflicts} when an applier would change fields another manager owns.
 *
 * <p>Objects are JSON trees typed by a {@link dev.machinery.core.typed.SchemaType}; field sets are
 * {@link dev.machinery.core.fieldpath.FieldSet}s. The Kubernetes layer above this one (the {@code
 * metadata.managedFields} entries, manager names, the fields the server owns) lives in {@code
 * dev.machinery.unversioned.managedfields}.
 */
package dev.machinery.core.merge;
