package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;
import java.util.List;

/**
 * A rule on paths in a SelfSubjectRulesReview's answer. Immutable.
 *
 * @param verbs the verbs
 * @param nonResourceURLs the paths, or {@code null}
 */
public record NonResourceRule(
    @ProtoField(1) List<String> verbs, @ProtoField(2) List<String> nonResourceURLs) {}
