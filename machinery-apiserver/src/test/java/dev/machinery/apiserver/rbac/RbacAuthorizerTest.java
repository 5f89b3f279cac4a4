package dev.machinery.apiserver.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Decision;
import dev.machinery.apiserver.authorization.SubjectRules;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The RBAC authorizer over fixed policies, with the cases of Kubernetes' TestAuthorizer (bindings
 * by user and group, in one namespace and cluster-wide, non-resource URLs with and without a
 * trailing star, subresources) and the subjects, errors and rule lists around them.
 */
class RbacAuthorizerTest {
  static List<String> csv(String value) {
    return value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
  }

  static ObjectMeta meta(String namespace, String name) {
    ObjectMeta meta = new ObjectMeta();
    meta.setNamespace(namespace);
    meta.setName(name);
    return meta;
  }

  static ClusterRole clusterRole(String name, PolicyRule... rules) {
    ClusterRole role = new ClusterRole();
    role.setMetadata(meta(null, name));
    role.setRules(List.of(rules));
    return role;
  }

  static Role role(String namespace, String name, PolicyRule... rules) {
    Role role = new Role();
    role.setMetadata(meta(namespace, name));
    role.setRules(List.of(rules));
    return role;
  }

  /** Subjects as {@code Kind:name}. */
  static List<Subject> subjects(String... subjects) {
    List<Subject> out = new ArrayList<>();
    for (String s : subjects) {
      String[] parts = s.split(":", 2);
      out.add(
          switch (parts[0]) {
            case "User" -> Subject.user(parts[1]);
            case "Group" -> Subject.group(parts[1]);
            default -> Subject.serviceAccount(null, parts[1]);
          });
    }
    return out;
  }

  static ClusterRoleBinding clusterBinding(String role, String... subjects) {
    ClusterRoleBinding binding = new ClusterRoleBinding();
    binding.setMetadata(meta(null, "crb-" + role));
    binding.setRoleRef(RoleRef.clusterRole(role));
    binding.setSubjects(subjects(subjects));
    return binding;
  }

  static RoleBinding binding(String namespace, RoleRef ref, String... subjects) {
    RoleBinding binding = new RoleBinding();
    binding.setMetadata(meta(namespace, "rb-" + ref.name()));
    binding.setRoleRef(ref);
    binding.setSubjects(subjects(subjects));
    return binding;
  }

  static UserInfo user(String name, String groups) {
    return UserInfo.of(name, csv(groups));
  }

  static Attributes request(
      String user, String groups, String verb, String resource, String sub, String namespace) {
    return Attributes.resource(user(user, groups), verb, "", resource, sub, namespace, "");
  }

  static void check(RbacAuthorizer authorizer, List<Attributes> pass, List<Attributes> fail) {
    List<String> wrong = new ArrayList<>();
    for (Attributes a : pass) {
      if (!authorizer.authorize(a).allowed()) {
        wrong.add("restricted " + a);
      }
    }
    for (Attributes a : fail) {
      if (authorizer.authorize(a).allowed()) {
        wrong.add("passed " + a);
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void roleBindingToAClusterRoleGrantsItsRulesInItsNamespaceOnly() {
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole(
                        "admin", new PolicyRule(csv("*"), csv("*"), csv("*"), null, csv("*"))),
                    binding("ns1", RoleRef.clusterRole("admin"), "User:admin", "Group:admins"))));
    check(
        authorizer,
        List.of(
            request("admin", "", "get", "Pods", "", "ns1"),
            request("admin", "", "watch", "Pods", "", "ns1"),
            request("admin", "group1", "watch", "Foobar", "", "ns1"),
            request("joe", "admins", "watch", "Foobar", "", "ns1"),
            request("joe", "group1,admins", "watch", "Foobar", "", "ns1")),
        List.of(
            request("admin", "", "GET", "Pods", "", "ns2"),
            request("admin", "", "GET", "Nodes", "", ""),
            request("admin", "admins", "GET", "Pods", "", "ns2"),
            request("admin", "admins", "GET", "Nodes", "", "")));
  }

  @Test
  void nonResourceURLsByExactPathAndTrailingStar() {
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole(
                        "non-resource-url-getter",
                        PolicyRule.nonResourceURLs(csv("get"), csv("/apis"))),
                    clusterRole(
                        "non-resource-url", PolicyRule.nonResourceURLs(csv("*"), csv("/apis"))),
                    clusterRole(
                        "non-resource-url-prefix",
                        PolicyRule.nonResourceURLs(csv("get"), csv("/apis/*"))),
                    clusterBinding("non-resource-url-getter", "User:foo", "Group:bar"),
                    clusterBinding("non-resource-url", "User:admin", "Group:admin"),
                    clusterBinding("non-resource-url-prefix", "User:prefixed", "Group:prefixed"))));
    check(
        authorizer,
        List.of(
            Attributes.nonResource(user("foo", ""), "get", "/apis"),
            Attributes.nonResource(user("", "bar"), "get", "/apis"),
            Attributes.nonResource(user("admin", ""), "get", "/apis"),
            Attributes.nonResource(user("", "admin"), "get", "/apis"),
            Attributes.nonResource(user("admin", ""), "watch", "/apis"),
            Attributes.nonResource(user("", "admin"), "watch", "/apis"),
            Attributes.nonResource(user("prefixed", ""), "get", "/apis/v1"),
            Attributes.nonResource(user("", "prefixed"), "get", "/apis/v1"),
            Attributes.nonResource(user("prefixed", ""), "get", "/apis/v1/foobar"),
            Attributes.nonResource(user("", "prefixed"), "get", "/apis/v1/foorbar")),
        List.of(
            Attributes.nonResource(user("foo", ""), "watch", "/apis"),
            Attributes.nonResource(user("", "bar"), "watch", "/apis"),
            Attributes.nonResource(user("foo", ""), "get", "/api/v1"),
            Attributes.nonResource(user("", "bar"), "get", "/api/v1"),
            Attributes.nonResource(user("admin", ""), "get", "/api/v1"),
            Attributes.nonResource(user("", "admin"), "get", "/api/v1"),
            Attributes.nonResource(user("prefixed", ""), "get", "/api/v1"),
            Attributes.nonResource(user("", "prefixed"), "get", "/api/v1")));
  }

  @Test
  void aResourceRuleDoesNotGrantItsSubresourcesNorASubresourceRuleItsResource() {
    RbacAuthorizer pods =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole("admin", PolicyRule.resources(csv("*"), csv("*"), csv("pods"))),
                    binding("ns1", RoleRef.clusterRole("admin"), "User:admin", "Group:admins"))));
    check(
        pods,
        List.of(request("admin", "", "get", "pods", "", "ns1")),
        List.of(request("admin", "", "get", "pods", "status", "ns1")));
    RbacAuthorizer status =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole(
                        "admin", PolicyRule.resources(csv("*"), csv("*"), csv("pods/status"))),
                    binding("ns1", RoleRef.clusterRole("admin"), "User:admin", "Group:admins"))));
    check(
        status,
        List.of(request("admin", "", "get", "pods", "status", "ns1")),
        List.of(request("admin", "", "get", "pods", "", "ns1")));
  }

  @Test
  void rolesAreFoundInTheBindingsNamespaceAndClusterBindingsApplyEverywhere() {
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    role(
                        "ns1",
                        "reader",
                        PolicyRule.resources(csv("get"), List.of(""), csv("configmaps"))),
                    role(
                        "ns2",
                        "reader",
                        PolicyRule.resources(csv("list"), List.of(""), csv("configmaps"))),
                    binding("ns1", RoleRef.role("reader"), "User:jane"),
                    clusterRole("lister", PolicyRule.resources(csv("list"), csv("apps"), csv("*"))),
                    clusterBinding("lister", "Group:system:authenticated"))));
    check(
        authorizer,
        List.of(
            request("jane", "", "get", "configmaps", "", "ns1"),
            Attributes.resource(
                user("x", "system:authenticated"), "list", "apps", "deployments", "", "ns9", ""),
            Attributes.resource(
                user("x", "system:authenticated"), "list", "apps", "deployments", "", "", "")),
        List.of(
            request("jane", "", "list", "configmaps", "", "ns1"),
            request("jane", "", "get", "configmaps", "", "ns2"),
            request("jane", "", "get", "configmaps", "", ""),
            Attributes.resource(
                user("x", "system:unauthenticated"), "list", "apps", "deployments", "", "", "")));
  }

  @Test
  void serviceAccountSubjectsMatchTheirUserNameInTheirOrTheBindingsNamespace() {
    RoleBinding local = binding("ns1", RoleRef.clusterRole("view"), "ServiceAccount:builder");
    RoleBinding remote = binding("ns1", RoleRef.clusterRole("edit"));
    remote.setSubjects(List.of(Subject.serviceAccount("ci", "deployer")));
    ClusterRoleBinding noNamespace = clusterBinding("view", "ServiceAccount:orphan");
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole("view", PolicyRule.resources(csv("get"), List.of(""), csv("pods"))),
                    clusterRole(
                        "edit", PolicyRule.resources(csv("update"), List.of(""), csv("pods"))),
                    local,
                    remote,
                    noNamespace)));
    check(
        authorizer,
        List.of(
            request("system:serviceaccount:ns1:builder", "", "get", "pods", "", "ns1"),
            request("system:serviceaccount:ci:deployer", "", "update", "pods", "", "ns1")),
        List.of(
            request("system:serviceaccount:ns2:builder", "", "get", "pods", "", "ns1"),
            request("builder", "", "get", "pods", "", "ns1"),
            request("system:serviceaccount:ns1:deployer", "", "update", "pods", "", "ns1"),
            // A ServiceAccount subject of a ClusterRoleBinding without a namespace is no one.
            request("system:serviceaccount::orphan", "", "get", "pods", "", "ns1"),
            request("orphan", "", "get", "pods", "", "ns1")));
  }

  @Test
  void bindingsToMissingRolesAreTheReasonOfNoOpinion() {
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterBinding("gone", "User:jane"),
                    binding("ns1", RoleRef.role("absent"), "User:jane"))));
    Authorization answer = authorizer.authorize(request("jane", "", "get", "pods", "", "ns1"));
    assertEquals(Decision.NO_OPINION, answer.decision());
    assertEquals(
        "RBAC: [clusterrole.rbac.authorization.k8s.io \"gone\" not found,"
            + " role.rbac.authorization.k8s.io \"absent\" not found]",
        answer.reason());
    Authorization one = authorizer.authorize(request("jane", "", "get", "pods", "", ""));
    assertEquals("RBAC: clusterrole.rbac.authorization.k8s.io \"gone\" not found", one.reason());
    Authorization other = authorizer.authorize(request("bob", "", "get", "pods", "", "ns1"));
    assertEquals(new Authorization(Decision.NO_OPINION, ""), other);
  }

  @Test
  void rulesForListsClusterThenNamespaceRulesSplitByKind() {
    RbacAuthorizer authorizer =
        RbacAuthorizer.of(
            RbacPolicy.of(
                List.of(
                    clusterRole("discovery", PolicyRule.nonResourceURLs(csv("get"), csv("/api/*"))),
                    clusterBinding("discovery", "Group:system:authenticated"),
                    role(
                        "ns1",
                        "reader",
                        PolicyRule.resources(csv("get"), List.of(""), csv("configmaps"))
                            .withResourceNames(List.of("greeting"))),
                    binding("ns1", RoleRef.role("reader"), "User:jane"))));
    SubjectRules rules = authorizer.rulesFor(user("jane", "system:authenticated"), "ns1");
    assertEquals(
        List.of(
            new SubjectRules.ResourceRule(
                List.of("get"), List.of(""), List.of("configmaps"), List.of("greeting"))),
        rules.resourceRules());
    assertEquals(
        List.of(new SubjectRules.NonResourceRule(List.of("get"), List.of("/api/*"))),
        rules.nonResourceRules());
    assertFalse(rules.incomplete());
    assertEquals(
        List.of(), authorizer.rulesFor(user("jane", "system:authenticated"), "").resourceRules());
  }

  @Test
  void bootstrapPolicyGrantsWhatKubernetesGrants() {
    List<Object> objects = new ArrayList<>();
    List<ClusterRole> roles = BootstrapPolicy.clusterRoles();
    Map<String, List<PolicyRule>> aggregated = ClusterRoleAggregation.changes(roles);
    for (ClusterRole role : roles) {
      Optional.ofNullable(aggregated.get(role.getMetadata().getName())).ifPresent(role::setRules);
      objects.add(role);
    }
    objects.addAll(BootstrapPolicy.clusterRoleBindings());
    RoleBinding viewer = binding("team", RoleRef.clusterRole("view"), "User:viewer");
    RoleBinding editor = binding("team", RoleRef.clusterRole("edit"), "User:editor");
    RoleBinding admin = binding("team", RoleRef.clusterRole("admin"), "User:admin");
    editor.getMetadata().setName("editor");
    admin.getMetadata().setName("admin");
    objects.addAll(List.of(viewer, editor, admin));
    RbacAuthorizer authorizer = RbacAuthorizer.of(RbacPolicy.of(objects));
    String authenticated = "system:authenticated";
    check(
        authorizer,
        List.of(
            Attributes.resource(user("root", "system:masters"), "delete", "x", "y", "", "", "n"),
            Attributes.nonResource(user("any", authenticated), "get", "/apis/apps/v1"),
            Attributes.nonResource(user("any", authenticated), "get", "/version"),
            Attributes.nonResource(user("anon", "system:unauthenticated"), "get", "/healthz"),
            Attributes.resource(
                user("any", authenticated),
                "create",
                "authorization.k8s.io",
                "selfsubjectaccessreviews",
                "",
                "",
                ""),
            Attributes.resource(
                user("viewer", authenticated), "list", "", "configmaps", "", "team", ""),
            Attributes.resource(
                user("viewer", authenticated), "get", "", "pods", "log", "team", ""),
            Attributes.resource(
                user("editor", authenticated), "list", "", "configmaps", "", "team", ""),
            Attributes.resource(
                user("editor", authenticated), "create", "apps", "deployments", "", "team", ""),
            Attributes.resource(
                user("editor", authenticated), "get", "", "secrets", "", "team", ""),
            Attributes.resource(
                user("admin", authenticated),
                "create",
                RbacV1.GROUP,
                "rolebindings",
                "",
                "team",
                ""),
            Attributes.resource(
                user("admin", authenticated), "delete", "apps", "deployments", "", "team", "")),
        List.of(
            Attributes.nonResource(user("anon", "system:unauthenticated"), "get", "/apis"),
            Attributes.resource(
                user("anon", "system:unauthenticated"),
                "create",
                "authorization.k8s.io",
                "selfsubjectaccessreviews",
                "",
                "",
                ""),
            Attributes.resource(
                user("viewer", authenticated), "get", "", "secrets", "", "team", ""),
            Attributes.resource(
                user("viewer", authenticated), "create", "", "configmaps", "", "team", ""),
            Attributes.resource(
                user("viewer", authenticated), "list", "", "configmaps", "", "other", ""),
            Attributes.resource(
                user("editor", authenticated),
                "create",
                RbacV1.GROUP,
                "rolebindings",
                "",
                "team",
                ""),
            Attributes.resource(
                user("admin", authenticated), "create", RbacV1.GROUP, "clusterroles", "", "", "")));
  }

  @Test
  void aggregationGathersSelectedRulesUntilNothingChanges() {
    Map<String, List<PolicyRule>> changes =
        ClusterRoleAggregation.changes(BootstrapPolicy.clusterRoles());
    List<PolicyRule> view = changes.get("view");
    List<PolicyRule> edit = changes.get("edit");
    List<PolicyRule> admin = changes.get("admin");
    assertTrue(edit.containsAll(view), "edit holds view's rules");
    assertTrue(admin.containsAll(edit), "admin holds edit's rules");
    assertFalse(view.containsAll(edit), "view does not hold edit's rules");
    assertEquals(
        BootstrapPolicy.clusterRoles().stream()
            .filter(r -> r.getMetadata().getName().equals("system:aggregate-to-view"))
            .findFirst()
            .orElseThrow()
            .getRules(),
        view);
    assertEquals(3, changes.size(), "only the aggregated roles change: " + changes.keySet());
  }
}
