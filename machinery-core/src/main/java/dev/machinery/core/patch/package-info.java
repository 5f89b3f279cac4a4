/**
 * Patches as Kubernetes applies them: JSON merge patch (RFC 7386, {@link
 * dev.machinery.core.patch.JsonMergePatch}) with the three-way patch {@code kubectl apply} sends
 * for kinds it does not know; JSON patch (RFC 6902, {@link dev.machinery.core.patch.JsonPatch})
 * with errors that name the operation and path; and strategic merge patch ({@link
 * dev.machinery.core.patch.StrategicMergePatch}, applied and created two- and three-way), whose
 * list and map strategies come from the Java types' annotations ({@link
 * dev.machinery.core.patch.PatchStrategy}, {@link dev.machinery.core.patch.PatchMergeKey}) or from
 * an OpenAPI document ({@link dev.machinery.core.patch.OpenApiPatchSchemas}), either as a {@link
 * dev.machinery.core.patch.StrategicMergeSchema}. Patches work on JSON trees and never change their
 * inputs; {@link dev.machinery.core.patch.Patches} applies one to a typed object through a codec.
 * Hostile patches are bounded by {@link dev.machinery.core.patch.PatchLimits}.
 */
package dev.machinery.core.patch;
