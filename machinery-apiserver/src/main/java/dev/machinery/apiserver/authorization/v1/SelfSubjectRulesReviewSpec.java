package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;

/**
 * The question of a SelfSubjectRulesReview: the namespace. Immutable.
 *
 * @param namespace the namespace
 */
public record SelfSubjectRulesReviewSpec(@ProtoField(1) String namespace) {}
