package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;

/**
 * Lists what a user may do in a namespace, as Kubernetes' {@code authorizer.RuleResolver}; it
 * answers {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}). An {@link Authorizer}
 * that can list its rules implements it too.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface RuleResolver {
  /**
   * Lists a user's rules in a namespace, those granted cluster-wide included.
   *
   * @param user the user
   * @param namespace the namespace, or {@code ""} for the cluster-wide rules only
   * @return the rules
   */
  SubjectRules rulesFor(UserInfo user, String namespace);
}
