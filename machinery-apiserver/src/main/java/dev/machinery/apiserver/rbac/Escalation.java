package dev.machinery.apiserver.rbac;

import dev.machinery.apiserver.authentication.UserInfo;
import java.util.List;
import java.util.Optional;

/**
 * Kubernetes' escalation prevention ({@code ConfirmNoEscalation}): no one grants, by a role or a
 * binding, a right they do not hold themselves. The server checks it on every create and update of
 * a Role, ClusterRole, RoleBinding and ClusterRoleBinding, unless the user is in {@code
 * system:masters}, may {@code escalate} the role, or may {@code bind} the role a binding refers to.
 * Stateless; thread-safe.
 */
public final class Escalation {
  private Escalation() {}

  /**
   * Finds what a user would grant without holding it.
   *
   * @param user the user
   * @param held the rules the user holds where the grant applies (its namespace, or the cluster)
   * @param granted the rules the role or binding would grant
   * @return kube-apiserver's refusal, {@code user "u" (groups=["g"]) is attempting to grant RBAC
   *     permissions not currently held:} and the missing rules one a line, or empty when the user
   *     holds them all
   */
  public static Optional<String> refusal(
      UserInfo user, RbacAuthorizer.ResolvedRules held, List<PolicyRule> granted) {
    List<PolicyRule> missing = PolicyRules.uncovered(held.rules(), granted);
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    String message =
        "user \""
            + user.name()
            + "\" (groups="
            + PolicyRule.goQuote(user.groups())
            + ") is attempting to grant RBAC permissions not currently held:\n"
            + PolicyRules.describe(missing);
    if (!held.errors().isEmpty()) {
      message = message + "; resolution errors: [" + String.join(" ", held.errors()) + "]";
    }
    return Optional.of(message);
  }
}
