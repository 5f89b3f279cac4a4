package dev.machinery.apiserver.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of a policy, with the requests and rules of Kubernetes' {@code TestChecker} and {@code
 * TestCheckerPolicyOmitStages} (pkg/audit/policy) as facts: which level a request gets from a list
 * of rules tried in order, and which stages it omits.
 */
class AuditPolicyTest {
  private static final UserInfo TIM = UserInfo.of("tim@k8s.io", List.of("humans", "developers"));

  private static final Map<String, Attributes> REQUESTS =
      Map.of(
          "namespaced",
          new Attributes(
              TIM,
              "get",
              true,
              "",
              "v1",
              "pods",
              "",
              "default",
              "busybox",
              "/api/v1/namespaces/default/pods/busybox"),
          "cluster",
          new Attributes(
              TIM,
              "get",
              true,
              "rbac.authorization.k8s.io",
              "v1beta1",
              "clusterroles",
              "",
              "",
              "edit",
              "/apis/rbac.authorization.k8s.io/v1beta1/clusterroles/edit"),
          "nonResource",
          Attributes.nonResource(TIM, "get", "/logs/kubelet.log"),
          "subresource",
          new Attributes(
              TIM,
              "get",
              true,
              "",
              "v1",
              "pods",
              "log",
              "default",
              "busybox",
              "/api/v1/namespaces/default/pods/busybox"),
          "ClusterRoleUpdate",
          new Attributes(
              TIM,
              "update",
              true,
              "rbac.authorization.k8s.io",
              "v1beta1",
              "clusterroles",
              "status",
              "",
              "somerole",
              "/apis/rbac.authorization.k8s.io/v1beta1/clusterroles/somerole"));

  private static final Map<String, String> RULES =
      Map.ofEntries(
          Map.entry("default", "{level: Metadata}"),
          Map.entry("create", "{level: Request, verbs: [create]}"),
          Map.entry("tims", "{level: Metadata, users: [tim@k8s.io]}"),
          Map.entry("humans", "{level: Metadata, userGroups: [humans]}"),
          Map.entry("serviceAccounts", "{level: Request, userGroups: [system:serviceaccounts]}"),
          Map.entry(
              "getPods",
              "{level: RequestResponse, verbs: [get], resources: [{resources: [pods]}]}"),
          Map.entry(
              "getPodLogs", "{level: Request, verbs: [get], resources: [{resources: [pods/log]}]}"),
          Map.entry(
              "getPodWildcardMatching",
              "{level: Request, verbs: [get], resources: [{resources: ['*']}]}"),
          Map.entry(
              "getPodResourceWildcardMatching",
              "{level: Request, verbs: [get], resources: [{resources: ['*/log']}]}"),
          Map.entry(
              "getPodSubResourceWildcardMatching",
              "{level: Request, verbs: [get], resources: [{resources: ['pods/*']}]}"),
          Map.entry(
              "getClusterRoles",
              "{level: RequestResponse, verbs: [get], resources: [{group:"
                  + " rbac.authorization.k8s.io, resources: [clusterroles]}], namespaces: ['']}"),
          Map.entry(
              "getGroupWildCardMatchingWithSubresourceWildcardMatching",
              "{level: RequestResponse, verbs: [update], resources: [{group: '*', resources:"
                  + " ['*/status']}]}"),
          Map.entry(
              "getLogs", "{level: RequestResponse, verbs: [get], nonResourceURLs: ['/logs*']}"),
          Map.entry("getMetrics", "{level: Request, verbs: [get], nonResourceURLs: [/metrics]}"),
          Map.entry(
              "clusterRoleEdit",
              "{level: Request, resources: [{group: rbac.authorization.k8s.io, resources:"
                  + " [clusterroles], resourceNames: [edit]}]}"),
          Map.entry("omit RequestReceived", "{level: Request, omitStages: [RequestReceived]}"),
          Map.entry(
              "only audit panic",
              "{level: Request, omitStages: [RequestReceived, ResponseStarted,"
                  + " ResponseComplete]}"));

  private static AuditPolicy policy(List<String> omitStages, String... ruleNames) {
    StringBuilder yaml =
        new StringBuilder("apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [")
            .append(String.join(", ", omitStages))
            .append("]\nrules:\n");
    for (String name : ruleNames) {
      yaml.append("- ").append(RULES.get(name)).append('\n');
    }
    return AuditPolicy.parse(yaml.toString());
  }

  /** Kubernetes' testAuditLevel: request, level, rules in order. */
  static Stream<Arguments> levels() {
    return Stream.of(
        Arguments.of("namespaced", "Metadata", List.of("default")),
        Arguments.of("namespaced", "None", List.of("create")),
        Arguments.of("namespaced", "Metadata", List.of("tims")),
        Arguments.of("namespaced", "Metadata", List.of("humans")),
        Arguments.of("namespaced", "None", List.of("serviceAccounts")),
        Arguments.of("namespaced", "RequestResponse", List.of("getPods")),
        Arguments.of("namespaced", "None", List.of("getClusterRoles")),
        Arguments.of("namespaced", "None", List.of("getLogs")),
        Arguments.of("namespaced", "None", List.of("getMetrics")),
        Arguments.of("namespaced", "Metadata", List.of("getMetrics", "serviceAccounts", "default")),
        Arguments.of("namespaced", "RequestResponse", List.of("getMetrics", "getPods", "default")),
        Arguments.of("namespaced", "RequestResponse", List.of("getPodLogs", "getPods")),
        Arguments.of("cluster", "Metadata", List.of("default")),
        Arguments.of("cluster", "None", List.of("create")),
        Arguments.of("cluster", "Metadata", List.of("tims")),
        Arguments.of("cluster", "Metadata", List.of("humans")),
        Arguments.of("cluster", "None", List.of("serviceAccounts")),
        Arguments.of("cluster", "None", List.of("getPods")),
        Arguments.of("cluster", "RequestResponse", List.of("getClusterRoles")),
        Arguments.of("cluster", "Request", List.of("clusterRoleEdit", "getClusterRoles")),
        Arguments.of("cluster", "None", List.of("getLogs")),
        Arguments.of("cluster", "None", List.of("getMetrics")),
        Arguments.of("cluster", "Metadata", List.of("getMetrics", "serviceAccounts", "default")),
        Arguments.of(
            "cluster", "RequestResponse", List.of("getMetrics", "getClusterRoles", "default")),
        Arguments.of("cluster", "None", List.of("getPodLogs", "getPods")),
        Arguments.of("nonResource", "Metadata", List.of("default")),
        Arguments.of("nonResource", "None", List.of("create")),
        Arguments.of("nonResource", "Metadata", List.of("tims")),
        Arguments.of("nonResource", "Metadata", List.of("humans")),
        Arguments.of("nonResource", "None", List.of("serviceAccounts")),
        Arguments.of("nonResource", "None", List.of("getPods")),
        Arguments.of("nonResource", "None", List.of("getClusterRoles")),
        Arguments.of("nonResource", "RequestResponse", List.of("getLogs")),
        Arguments.of("nonResource", "None", List.of("getMetrics")),
        Arguments.of(
            "nonResource", "Metadata", List.of("getMetrics", "serviceAccounts", "default")),
        Arguments.of(
            "nonResource", "RequestResponse", List.of("getLogs", "getClusterRoles", "default")),
        Arguments.of("nonResource", "None", List.of("getPodLogs", "getPods")),
        Arguments.of("subresource", "Request", List.of("getPodLogs", "getPods")),
        Arguments.of("subresource", "Request", List.of("getPodWildcardMatching")),
        Arguments.of("subresource", "Request", List.of("getPodResourceWildcardMatching")),
        Arguments.of("subresource", "Request", List.of("getPodSubResourceWildcardMatching")),
        Arguments.of(
            "ClusterRoleUpdate",
            "RequestResponse",
            List.of("getGroupWildCardMatchingWithSubresourceWildcardMatching")));
  }

  @ParameterizedTest(name = "{0} with {2} is {1}")
  @MethodSource("levels")
  void firstMatchingRuleDecidesTheLevel(String request, String level, List<String> rules) {
    for (List<String> policyStages :
        List.of(List.<String>of(), List.of("RequestReceived", "ResponseStarted"))) {
      RequestAuditConfig config =
          policy(policyStages, rules.toArray(String[]::new)).evaluate(REQUESTS.get(request));
      assertEquals(level, config.level().wireName());
      assertEquals(stages(policyStages), config.omitStages());
    }
  }

  /** Kubernetes' "Unauthorized" request: one without a user matches no rule naming users. */
  @Test
  void requestWithoutUserMatchesNoRuleOfUsersOrGroups() {
    Attributes request = REQUESTS.get("namespaced");
    assertEquals(Level.NONE, policy(List.of(), "tims").evaluateUnauthenticated(request).level());
    assertEquals(
        Level.METADATA,
        policy(List.of(), "tims", "default").evaluateUnauthenticated(request).level());
    assertEquals(Level.NONE, policy(List.of(), "humans").evaluateUnauthenticated(request).level());
    assertEquals(
        Level.METADATA,
        policy(List.of(), "humans", "default").evaluateUnauthenticated(request).level());
  }

  /** Kubernetes' omitStages cases: a rule's stages joined with the policy's. */
  static Stream<Arguments> omittedStages() {
    List<String> none = List.of();
    List<String> policy = List.of("RequestReceived", "ResponseStarted");
    List<String> receivedOnly = List.of("RequestReceived");
    List<String> panicOnly = List.of("RequestReceived", "ResponseStarted", "ResponseComplete");
    List<Arguments> cases = new java.util.ArrayList<>();
    for (String request : List.of("namespaced", "cluster", "nonResource")) {
      cases.add(
          Arguments.of(
              request, none, "Request", receivedOnly, "omit RequestReceived,getPods,default"));
      cases.add(
          Arguments.of(request, none, "Request", panicOnly, "only audit panic,getPods,default"));
      cases.add(
          Arguments.of(request, policy, "Request", panicOnly, "only audit panic,getPods,default"));
    }
    cases.add(
        Arguments.of(
            "namespaced", policy, "Request", policy, "omit RequestReceived,getPods,default"));
    cases.add(
        Arguments.of("cluster", policy, "Request", policy, "omit RequestReceived,getPods,default"));
    cases.add(
        Arguments.of(
            "nonResource", policy, "Metadata", policy, "default,omit RequestReceived,getPods"));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, policy omits {1}, rules {4}")
  @MethodSource("omittedStages")
  void ruleStagesAreJoinedWithThePolicys(
      String request, List<String> policyStages, String level, List<String> omitted, String rules) {
    RequestAuditConfig config =
        policy(policyStages, rules.split(",")).evaluate(REQUESTS.get(request));
    assertEquals(level, config.level().wireName());
    assertEquals(stages(omitted), config.omitStages());
  }

  /** Kubernetes' TestOmitManagedFields: a rule's choice wins over the policy's. */
  @ParameterizedTest(name = "policy {0}, rule {1} -> {2}")
  @org.junit.jupiter.params.provider.CsvSource({
    "false, , false",
    "true, , true",
    "true, false, false",
    "false, true, true"
  })
  void ruleOmitManagedFieldsWinsOverThePolicys(boolean policy, Boolean rule, boolean omitted) {
    String yaml =
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitManagedFields: "
            + policy
            + "\nrules:\n- level: RequestResponse\n  verbs: [get]\n"
            + (rule == null ? "" : "  omitManagedFields: " + rule + "\n");
    Attributes get = Attributes.nonResource(TIM, "get", "/");
    assertEquals(omitted, AuditPolicy.parse(yaml).evaluate(get).omitManagedFields());
  }

  @Test
  void noRuleMatchingIsNone() {
    AuditPolicy policy =
        AuditPolicy.parse(
            "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  verbs: [list]\n");
    assertEquals(Level.NONE, policy.evaluate(REQUESTS.get("namespaced")).level());
  }

  /** Kubernetes' TestParser: the policy file of pkg/audit/policy/reader_test.go. */
  @Test
  void readsKubernetesPolicyFile() {
    AuditPolicy policy =
        AuditPolicy.parse(
            """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
              - level: None
                nonResourceURLs:
                  - /healthz*
                  - /version
              - level: RequestResponse
                users: ["tim"]
                userGroups: ["testers", "developers"]
                verbs: ["patch", "delete", "create"]
                resources:
                  - group: ""
                  - group: "rbac.authorization.k8s.io"
                    resources: ["clusterroles", "clusterrolebindings"]
                namespaces: ["default", "kube-system"]
              - level: Metadata
            """);
    assertEquals(
        List.of(
            new PolicyRule(
                Level.NONE,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of("/healthz*", "/version"),
                Set.of(),
                null),
            new PolicyRule(
                Level.REQUEST_RESPONSE,
                List.of("tim"),
                List.of("testers", "developers"),
                List.of("patch", "delete", "create"),
                List.of(
                    new GroupResources("", List.of(), List.of()),
                    new GroupResources(
                        "rbac.authorization.k8s.io",
                        List.of("clusterroles", "clusterrolebindings"),
                        List.of())),
                List.of("default", "kube-system"),
                List.of(),
                Set.of(),
                null),
            PolicyRule.all(Level.METADATA)),
        policy.rules());
  }

  /** Kubernetes' TestParsePolicyWithUnknownField: a field it does not know is ignored. */
  @Test
  void ignoresUnknownFields() {
    AuditPolicy policy =
        AuditPolicy.parse(
            """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
            - level: None
              resources:
              - group: coordination.k8s.io
                resources:
                - "leases"
                verbs: ["watch", "get", "list"] # invalid indentation on verbs
            """);
    assertEquals(List.of(), policy.rules().get(0).verbs());
  }

  static Stream<Arguments> invalidPolicies() {
    String head = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";
    return Stream.of(
        Arguments.of(
            "rules:\n- level: None\n",
            "invalid audit policy document: apiVersion: Unsupported value: \"\": supported values:"
                + " \"audit.k8s.io/v1\"; kind: Unsupported value: \"\": supported values:"
                + " \"Policy\""),
        Arguments.of(
            head,
            "invalid audit policy document: rules: Required value: loaded illegal policy with 0"
                + " rules; at least one is needed"),
        Arguments.of(
            "", "invalid audit policy document: rules: Required value: the policy is empty"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n- level: Everything\n",
            "invalid audit policy document: rules[1].level: Unsupported value: \"Everything\":"
                + " supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\""),
        Arguments.of(
            head + "rules:\n- verbs: [get]\n",
            "invalid audit policy document: rules[0].level: Required value"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n  nonResourceURLs: [/metrics]\n  resources: [{}]\n",
            "invalid audit policy document: rules[0].nonResourceURLs: Invalid value:"
                + " [\"/metrics\"]: rules cannot apply to both regular resources and non-resource"
                + " URLs"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n  nonResourceURLs: [metrics, /a*b]\n",
            "invalid audit policy document: rules[0].nonResourceURLs[0]: Invalid value:"
                + " \"metrics\": non-resource URL rules must begin with a '/' character;"
                + " rules[0].nonResourceURLs[1]: Invalid value: \"/a*b\": non-resource URL"
                + " wildcards '*' must be the final character of the rule"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n  resources: [{group: apps/v1, resources: [x]}]\n",
            "invalid audit policy document: rules[0].resources[0].group: Invalid value:"
                + " \"apps/v1\": a lowercase RFC 1123 subdomain must consist of lower case"
                + " alphanumeric characters, '-' or '.', and must start and end with an"
                + " alphanumeric character (e.g. 'example.com', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n  resources: [{resourceNames: [x]}]\n",
            "invalid audit policy document: rules[0].resources[0].resourceNames: Invalid value:"
                + " [\"x\"]: using resourceNames requires at least one resource"),
        Arguments.of(
            head + "omitStages: [Done]\nrules:\n- level: Metadata\n  omitStages: [Panic, Never]\n",
            "invalid audit policy document: omitStages[0]: Invalid value: \"Done\": allowed stages"
                + " are RequestReceived,ResponseStarted,ResponseComplete,Panic;"
                + " rules[0].omitStages[1]: Invalid value: \"Never\": allowed stages are"
                + " RequestReceived,ResponseStarted,ResponseComplete,Panic"),
        Arguments.of(
            head + "rules:\n- level: Metadata\n  users: tim\n",
            "invalid audit policy document: rules[0].users: Invalid value: \"string\": must be a"
                + " list of strings"));
  }

  @ParameterizedTest
  @MethodSource("invalidPolicies")
  void refusesInvalidPolicyNamingRuleAndField(String yaml, String message) {
    AuditPolicyException e =
        assertThrows(AuditPolicyException.class, () -> AuditPolicy.parse(yaml));
    assertEquals(message, e.getMessage());
  }

  @Test
  void refusesBrokenYamlWithItsPosition() {
    AuditPolicyException e =
        assertThrows(
            AuditPolicyException.class,
            () ->
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: [Metadata\n"));
    assertEquals(4, e.line());
    assertEquals(true, e.column() > 0);
    assertEquals(
        true,
        e.getMessage().startsWith("invalid audit policy document at line 4, column "),
        e.getMessage());
    assertEquals(List.of(), e.errors());
  }

  @Test
  void refusesDeepNestingWithItsPosition() {
    String yaml =
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  users: "
            + "[".repeat(500)
            + "]".repeat(500)
            + "\n";
    AuditPolicyException e =
        assertThrows(AuditPolicyException.class, () -> AuditPolicy.parse(yaml));
    assertEquals(5, e.line(), e.getMessage());
  }

  @Test
  void refusesDuplicateKeysWithTheirPosition() {
    AuditPolicyException e =
        assertThrows(
            AuditPolicyException.class,
            () ->
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n"
                        + "rules:\n- level: Metadata\n"));
    assertEquals(true, e.line() > 0, e.getMessage());
  }

  /** Aliases are not expanded, so a billion laughs stays a few lines of ignored fields. */
  @Test
  void aliasesAreNotExpanded() {
    StringBuilder yaml = new StringBuilder("apiVersion: audit.k8s.io/v1\nkind: Policy\n");
    yaml.append("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++) {
      String previous = "*a" + (i - 1);
      yaml.append("a")
          .append(i)
          .append(": &a")
          .append(i)
          .append(" [")
          .append(String.join(",", java.util.Collections.nCopies(10, previous)))
          .append("]\n");
    }
    yaml.append("rules:\n- level: Metadata\n");
    assertEquals(
        List.of(PolicyRule.all(Level.METADATA)), AuditPolicy.parse(yaml.toString()).rules());
  }

  @Test
  void policyBuiltInCodeIsValidatedToo() {
    PolicyRule both =
        new PolicyRule(
            Level.METADATA,
            List.of(),
            List.of(),
            List.of(),
            List.of(new GroupResources("", List.of("pods"), List.of())),
            List.of(),
            List.of("/healthz"),
            Set.of(),
            null);
    AuditPolicyException e =
        assertThrows(
            AuditPolicyException.class, () -> AuditPolicy.of(List.of(both), Set.of(), false));
    assertEquals(
        "invalid audit policy (built in code): rules[0].nonResourceURLs: Invalid value:"
            + " [\"/healthz\"]: rules cannot apply to both regular resources and non-resource URLs",
        e.getMessage());
  }

  private static Set<Stage> stages(List<String> names) {
    return names.stream()
        .map(n -> Stage.fromWireName(n).orElseThrow())
        .collect(Collectors.toUnmodifiableSet());
  }
}
