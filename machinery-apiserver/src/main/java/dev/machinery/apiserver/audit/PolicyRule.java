package dev.machinery.apiserver.audit;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One rule of an audit policy ({@code audit.k8s.io/v1 PolicyRule}): the level of the requests it
 * matches. A rule matches a request when every part it sets matches (an empty list matches
 * anything): the user's name is one of {@code users}; one of the user's groups is in {@code
 * userGroups}; the verb is one of {@code verbs}; and, when it sets {@code resources} or {@code
 * namespaces}, the request is a resource request of one of them (a cluster-scoped one is in the
 * namespace {@code ""}), or, when it sets {@code nonResourceURLs}, the request is for one of those
 * paths (one ending in {@code *} matches any path that starts with the rest). Immutable.
 *
 * @param level the level of the requests it matches
 * @param users the user names; empty for any
 * @param userGroups the groups; empty for any
 * @param verbs the verbs ({@code get}, {@code list}, {@code watch}, {@code create}, {@code update},
 *     {@code patch}, {@code delete}, {@code deletecollection}, or the HTTP method in lower case for
 *     other paths); empty for any
 * @param resources the resources; empty for any
 * @param namespaces the namespaces, {@code ""} for cluster-scoped resources; empty for any
 * @param nonResourceURLs the paths of non-resource requests, such as {@code /healthz*}
 * @param omitStages the stages not recorded for the requests it matches (besides the policy's)
 * @param omitManagedFields whether the objects recorded leave out {@code metadata.managedFields};
 *     {@code null} for the policy's choice
 */
public record PolicyRule(
    Level level,
    List<String> users,
    List<String> userGroups,
    List<String> verbs,
    List<GroupResources> resources,
    List<String> namespaces,
    List<String> nonResourceURLs,
    Set<Stage> omitStages,
    Boolean omitManagedFields) {
  /**
   * Copies the collections.
   *
   * @param level see the record description
   * @param users see the record description
   * @param userGroups see the record description
   * @param verbs see the record description
   * @param resources see the record description
   * @param namespaces see the record description
   * @param nonResourceURLs see the record description
   * @param omitStages see the record description
   * @param omitManagedFields see the record description
   */
  public PolicyRule {
    Objects.requireNonNull(level, "level");
    users = List.copyOf(users);
    userGroups = List.copyOf(userGroups);
    verbs = List.copyOf(verbs);
    resources = List.copyOf(resources);
    namespaces = List.copyOf(namespaces);
    nonResourceURLs = List.copyOf(nonResourceURLs);
    omitStages = Set.copyOf(omitStages);
  }

  /**
   * A rule that matches every request.
   *
   * @param level its level
   * @return the rule
   */
  public static PolicyRule all(Level level) {
    return new PolicyRule(
        level, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Set.of(), null);
  }
}
