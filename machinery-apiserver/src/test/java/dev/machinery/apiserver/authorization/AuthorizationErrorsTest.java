package dev.machinery.apiserver.authorization;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube-apiserver's 403 wording, for resource and non-resource requests. */
class AuthorizationErrorsTest {
  private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));

  @Test
  void namespacedListNamesUserVerbResourceGroupAndNamespace() {
    StatusException e =
        AuthorizationErrors.forbidden(
            Attributes.resource(ALICE, "list", "", "pods", "", "default", ""), "");
    Status status = e.status();
    assertEquals(403, status.getCode());
    assertEquals("Forbidden", status.getReason());
    assertEquals(
        "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the"
            + " namespace \"default\"",
        status.getMessage());
    assertEquals("pods", status.getDetails().getKind());
    assertEquals(null, status.getDetails().getName());
    assertEquals(null, status.getDetails().getGroup());
  }

  @Test
  void namedSubresourceAtTheClusterScopeWithAReason() {
    Status status =
        AuthorizationErrors.forbidden(
                Attributes.resource(ALICE, "update", "apps", "deployments", "scale", "", "web"),
                "RBAC: clusterrole.rbac.authorization.k8s.io \"x\" not found")
            .status();
    assertEquals(
        "deployments.apps \"web\" is forbidden: User \"alice\" cannot update resource"
            + " \"deployments/scale\" in API group \"apps\" at the cluster scope: RBAC:"
            + " clusterrole.rbac.authorization.k8s.io \"x\" not found",
        status.getMessage());
    assertEquals("apps", status.getDetails().getGroup());
    assertEquals("deployments", status.getDetails().getKind());
    assertEquals("web", status.getDetails().getName());
  }

  @Test
  void nonResourcePath() {
    assertEquals(
        "forbidden: User \"system:anonymous\" cannot get path \"/apis\"",
        AuthorizationErrors.forbidden(
                Attributes.nonResource(
                    UserInfo.of("system:anonymous", List.of("system:unauthenticated")),
                    "get",
                    "/apis"),
                "")
            .status()
            .getMessage());
  }

  @Test
  void unionTakesTheFirstDecisionAndJoinsReasonsOfNoOpinion() {
    Authorizer none = a -> Authorization.noOpinion("first");
    Authorizer silent = a -> Authorization.noOpinion("");
    Authorizer deny = a -> Authorization.deny("no");
    Attributes any = Attributes.nonResource(ALICE, "get", "/");
    assertEquals(
        Authorization.noOpinion("first, first"),
        Authorizer.union(List.of(none, silent, none)).authorize(any));
    assertEquals(
        Authorization.deny("no"),
        Authorizer.union(List.of(none, deny, Authorizer.alwaysAllow())).authorize(any));
    assertEquals(
        Decision.ALLOW,
        Authorizer.union(List.of(Authorizer.privilegedGroups("system:authenticated"), deny))
            .authorize(any)
            .decision());
    assertEquals(
        Decision.NO_OPINION,
        Authorizer.privilegedGroups("system:masters").authorize(any).decision());
  }
}
