package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;
import java.util.List;

/**
 * The answer of a SelfSubjectRulesReview. Immutable.
 *
 * @param resourceRules the rules on resources
 * @param nonResourceRules the rules on paths
 * @param incomplete whether the list may miss rules
 * @param evaluationError what went wrong while listing, or {@code null}
 */
public record SubjectRulesReviewStatus(
    @ProtoField(1) List<ResourceRule> resourceRules,
    @ProtoField(2) List<NonResourceRule> nonResourceRules,
    @ProtoField(3) Boolean incomplete,
    @ProtoField(4) String evaluationError) {}
