/**
 * Schema identifiers: immutable values naming API groups, versions, kinds and resources.
 *
 * <p>{@link dev.machinery.core.schema.GroupVersion}, {@link
 * dev.machinery.core.schema.GroupVersionKind}, {@link
 * dev.machinery.core.schema.GroupVersionResource}, {@link dev.machinery.core.schema.GroupKind} and
 * {@link dev.machinery.core.schema.GroupResource} parse and print every string form the Kubernetes
 * tools use; {@link dev.machinery.core.schema.KindArg} and {@link
 * dev.machinery.core.schema.ResourceArg} parse the dotted command-line forms ({@code
 * deployments.v1.apps}); {@link dev.machinery.core.schema.VersionPriority} orders versions the way
 * Kubernetes prefers them. Malformed input raises {@link
 * dev.machinery.core.schema.MalformedIdentifierException}.
 */
package dev.machinery.core.schema;
