package dev.machinery.apiserver.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.authentication.UserInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The refusal of a grant not held, worded as kube-apiserver's {@code ConfirmNoEscalation}. */
class EscalationTest {
  private static final UserInfo BOB = UserInfo.of("bob", List.of("devs", "system:authenticated"));

  @Test
  void grantingWhatIsHeldPasses() {
    RbacAuthorizer.ResolvedRules held =
        new RbacAuthorizer.ResolvedRules(
            List.of(PolicyRule.resources(List.of("*"), List.of(""), List.of("configmaps"))),
            List.of());
    assertEquals(
        Optional.empty(),
        Escalation.refusal(
            BOB,
            held,
            List.of(
                PolicyRule.resources(List.of("get", "list"), List.of(""), List.of("configmaps")))));
  }

  @Test
  void grantingMoreListsTheMissingRulesCompactedAndSorted() {
    RbacAuthorizer.ResolvedRules held =
        new RbacAuthorizer.ResolvedRules(
            List.of(PolicyRule.resources(List.of("get"), List.of(""), List.of("configmaps"))),
            List.of("clusterrole.rbac.authorization.k8s.io \"gone\" not found"));
    assertEquals(
        Optional.of(
            "user \"bob\" (groups=[\"devs\" \"system:authenticated\"]) is attempting to grant RBAC"
                + " permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"list\" \"watch\"]}\n"
                + "{APIGroups:[\"apps\"], Resources:[\"deployments\"], Verbs:[\"get\"]}"
                + "; resolution errors: [clusterrole.rbac.authorization.k8s.io \"gone\" not found]"),
        Escalation.refusal(
            BOB,
            held,
            List.of(
                PolicyRule.resources(
                    List.of("get", "list", "watch"), List.of(""), List.of("configmaps")),
                PolicyRule.resources(List.of("get"), List.of("apps"), List.of("deployments")))));
  }
}
