package dev.machinery.apiserver.authorization;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link RuleResolver} found a user may do, as the status of a {@code
 * SelfSubjectRulesReview}. Immutable.
 *
 * @param resourceRules the rules on resources
 * @param nonResourceRules the rules on non-resource paths
 * @param incomplete whether the list may miss rules (an authorizer that cannot list its rules, or
 *     an error while listing)
 * @param evaluationError what went wrong while listing, or {@code ""}
 */
public record SubjectRules(
    List<ResourceRule> resourceRules,
    List<NonResourceRule> nonResourceRules,
    boolean incomplete,
    String evaluationError) {
  /**
   * Copies the lists.
   *
   * @param resourceRules see the record description
   * @param nonResourceRules see the record description
   * @param incomplete see the record description
   * @param evaluationError see the record description
   */
  public SubjectRules {
    resourceRules = List.copyOf(resourceRules);
    nonResourceRules = List.copyOf(nonResourceRules);
    evaluationError = Objects.requireNonNullElse(evaluationError, "");
  }

  /**
   * A rule on resources, as {@code authorization.k8s.io/v1 ResourceRule}.
   *
   * @param verbs the verbs, {@code *} for all
   * @param apiGroups the API groups, {@code *} for all
   * @param resources the resources ({@code pods}, {@code pods/log}, {@code *}, {@code *}{@code
   *     /log})
   * @param resourceNames the names the rule is limited to; empty for all
   */
  public record ResourceRule(
      List<String> verbs,
      List<String> apiGroups,
      List<String> resources,
      List<String> resourceNames) {
    /**
     * Copies the lists.
     *
     * @param verbs see the record description
     * @param apiGroups see the record description
     * @param resources see the record description
     * @param resourceNames see the record description
     */
    public ResourceRule {
      verbs = List.copyOf(verbs);
      apiGroups = List.copyOf(apiGroups);
      resources = List.copyOf(resources);
      resourceNames = List.copyOf(resourceNames);
    }
  }

  /**
   * A rule on non-resource paths, as {@code authorization.k8s.io/v1 NonResourceRule}.
   *
   * @param verbs the verbs, {@code *} for all
   * @param nonResourceURLs the paths; a final {@code *} matches any rest
   */
  public record NonResourceRule(List<String> verbs, List<String> nonResourceURLs) {
    /**
     * Copies the lists.
     *
     * @param verbs see the record description
     * @param nonResourceURLs see the record description
     */
    public NonResourceRule {
      verbs = List.copyOf(verbs);
      nonResourceURLs = List.copyOf(nonResourceURLs);
    }
  }
}
