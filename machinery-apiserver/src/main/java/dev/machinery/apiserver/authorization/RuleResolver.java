package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * The rules of an always-allow authorizer: everything, as Go's {@code alwaysAllowAuthorizer}.
   *
   * @return the resolver
   */
  static RuleResolver everything() {
    return (user, namespace) ->
        new SubjectRules(
            List.of(
                new SubjectRules.ResourceRule(List.of("*"), List.of("*"), List.of("*"), List.of())),
            List.of(new SubjectRules.NonResourceRule(List.of("*"), List.of("*"))),
            false,
            "");
  }

  /**
   * The rules of every authorizer of a union that lists them, as Go's union rule resolver;
   * incomplete when one of them cannot list its rules.
   *
   * @param authorizers the authorizers, each a {@link RuleResolver} when it can list its rules
   * @return the resolver
   */
  static RuleResolver union(List<Authorizer> authorizers) {
    List<Authorizer> all = List.copyOf(authorizers);
    return (user, namespace) -> {
      List<SubjectRules.ResourceRule> resources = new ArrayList<>();
      List<SubjectRules.NonResourceRule> paths = new ArrayList<>();
      boolean incomplete = false;
      List<String> errors = new ArrayList<>();
      for (Authorizer each : all) {
        if (each instanceof RuleResolver resolver) {
          SubjectRules found = resolver.rulesFor(user, namespace);
          resources.addAll(found.resourceRules());
          paths.addAll(found.nonResourceRules());
          incomplete |= found.incomplete();
          if (!found.evaluationError().isEmpty()) {
            errors.add(found.evaluationError());
          }
        } else {
          incomplete = true;
        }
      }
      return new SubjectRules(resources, paths, incomplete, String.join(", ", errors));
    };
  }
}
