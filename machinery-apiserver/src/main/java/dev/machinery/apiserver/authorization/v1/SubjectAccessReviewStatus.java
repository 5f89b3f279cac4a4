package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;

/**
 * The answer of an access review: whether the request is allowed, refused outright, and why.
 * Immutable.
 *
 * @param allowed whether the request is allowed
 * @param denied whether an authorizer refused it outright (not merely no one allowed it), or {@code
 *     null}
 * @param reason why, or {@code null}
 * @param evaluationError what went wrong while deciding, or {@code null}
 */
public record SubjectAccessReviewStatus(
    @ProtoField(1) Boolean allowed,
    @ProtoField(4) Boolean denied,
    @ProtoField(2) String reason,
    @ProtoField(3) String evaluationError) {}
