package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;

/**
 * The question of a SelfSubjectAccessReview: exactly one of the two. Immutable.
 *
 * @param resourceAttributes a resource request, or {@code null}
 * @param nonResourceAttributes a non-resource request, or {@code null}
 */
public record SelfSubjectAccessReviewSpec(
    @ProtoField(value = 1, optional = true) ResourceAttributes resourceAttributes,
    @ProtoField(value = 2, optional = true) NonResourceAttributes nonResourceAttributes) {}
