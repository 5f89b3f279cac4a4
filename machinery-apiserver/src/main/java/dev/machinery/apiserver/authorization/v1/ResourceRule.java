package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;
import java.util.List;

/**
 * A rule on resources in a SelfSubjectRulesReview's answer. Immutable.
 *
 * @param verbs the verbs
 * @param apiGroups the API groups, or {@code null}
 * @param resources the resources, or {@code null}
 * @param resourceNames the names it is limited to, or {@code null} for all
 */
public record ResourceRule(
    @ProtoField(1) List<String> verbs,
    @ProtoField(2) List<String> apiGroups,
    @ProtoField(3) List<String> resources,
    @ProtoField(4) List<String> resourceNames) {}
