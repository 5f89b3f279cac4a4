package dev.machinery.apiserver.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' rule matching and covering, as its own tests state them (plugin/pkg/auth/authorizer/
 * rbac TestRuleMatches; pkg/registry/rbac/validation TestCovers* and TestNonResourceURLCovers),
 * carried over as tables of facts.
 */
class PolicyRulesTest {
  private static final UserInfo USER = UserInfo.of("u", List.of());

  private static List<String> csv(String value) {
    return value.isEmpty() ? List.of() : Arrays.asList(value.split(","));
  }

  private static PolicyRule rule(String verbs, String groups, String resources) {
    return PolicyRule.resources(
        csv(verbs), groups.isEmpty() ? List.of("") : csv(groups), csv(resources));
  }

  private static PolicyRule urls(String verbs, String urls) {
    return PolicyRule.nonResourceURLs(csv(verbs), csv(urls));
  }

  private static Attributes resource(String verb, String group, String resource, String sub) {
    return Attributes.resource(USER, verb, group, resource, sub, "", "");
  }

  private static Attributes path(String verb, String path) {
    return Attributes.nonResource(USER, verb, path);
  }

  static Stream<Arguments> matches() {
    PolicyRule starVerb = rule("*", "group1", "resource1");
    PolicyRule starGroup = rule("verb1", "*", "resource1");
    PolicyRule starResource = rule("verb1", "group1", "*");
    PolicyRule tuples = rule("verb1,verb2", "group1,group2", "resource1,resource2");
    PolicyRule sub = rule("*", "*", "resource1/subresource1");
    PolicyRule starUrl = urls("verb1", "*");
    PolicyRule subpath = urls("verb1", "/foo/*");
    PolicyRule exactUrls = urls("*", "/foo,/foo/bar/one");
    return Stream.of(
        Arguments.of("star verb", starVerb, resource("verb1", "group1", "resource1", ""), true),
        Arguments.of("star verb", starVerb, resource("verb1", "group2", "resource1", ""), false),
        Arguments.of("star verb", starVerb, resource("verb1", "group1", "resource2", ""), false),
        Arguments.of("star verb", starVerb, resource("verb2", "group1", "resource1", ""), true),
        Arguments.of("star verb", starVerb, resource("verb2", "group2", "resource2", ""), false),
        Arguments.of("star group", starGroup, resource("verb1", "group1", "resource1", ""), true),
        Arguments.of("star group", starGroup, resource("verb1", "group2", "resource1", ""), true),
        Arguments.of("star group", starGroup, resource("verb1", "group1", "resource2", ""), false),
        Arguments.of("star group", starGroup, resource("verb2", "group1", "resource1", ""), false),
        Arguments.of(
            "star resource", starResource, resource("verb1", "group1", "resource1", ""), true),
        Arguments.of(
            "star resource", starResource, resource("verb1", "group1", "resource2", ""), true),
        Arguments.of(
            "star resource", starResource, resource("verb1", "group2", "resource1", ""), false),
        Arguments.of(
            "star resource", starResource, resource("verb2", "group1", "resource1", ""), false),
        Arguments.of("tuples", tuples, resource("verb1", "group1", "resource1", ""), true),
        Arguments.of("tuples", tuples, resource("verb1", "group2", "resource2", ""), true),
        Arguments.of("tuples", tuples, resource("verb2", "group1", "resource2", ""), true),
        Arguments.of("tuples", tuples, resource("verb2", "group2", "resource1", ""), true),
        Arguments.of(
            "subresource", sub, resource("verb1", "group1", "resource1", "subresource1"), true),
        Arguments.of(
            "subresource", sub, resource("verb1", "group2", "resource1", "subresource2"), false),
        Arguments.of(
            "subresource", sub, resource("verb1", "group1", "resource2", "subresource1"), false),
        Arguments.of(
            "subresource", sub, resource("verb2", "group1", "resource1", "subresource1"), true),
        Arguments.of("subresource", sub, resource("verb1", "group1", "resource1", ""), false),
        Arguments.of("star url", starUrl, path("verb1", "/foo"), true),
        Arguments.of("star url", starUrl, path("verb1", "/foo/bar/one"), true),
        Arguments.of("star url", starUrl, path("verb2", "/foo"), false),
        Arguments.of("star url", starUrl, path("verb2", "/foo/baz/one"), false),
        Arguments.of("subpath", subpath, path("verb1", "/foo"), false),
        Arguments.of("subpath", subpath, path("verb1", "/foo/bar"), true),
        Arguments.of("subpath", subpath, path("verb1", "/foo/baz"), true),
        Arguments.of("subpath", subpath, path("verb1", "/foo/bar/one"), true),
        Arguments.of("subpath", subpath, path("verb1", "/notfoo"), false),
        Arguments.of("subpath", subpath, path("verb1", "/notfoo/bar"), false),
        Arguments.of("exact urls", exactUrls, path("verb1", "/foo"), true),
        Arguments.of("exact urls", exactUrls, path("verb1", "/foo/bar"), false),
        Arguments.of("exact urls", exactUrls, path("verb1", "/foo/bar/one"), true),
        Arguments.of("exact urls", exactUrls, path("verb2", "/foo"), true),
        Arguments.of("exact urls", exactUrls, path("verb2", "/foo/baz/one"), false),
        // */log names the log subresource of every resource, and nothing else.
        Arguments.of(
            "star sub", rule("get", "", "*/log"), resource("get", "", "pods", "log"), true),
        Arguments.of("star sub", rule("get", "", "*/log"), resource("get", "", "pods", ""), false),
        Arguments.of(
            "star sub", rule("get", "", "*/log"), resource("get", "", "pods", "status"), false),
        Arguments.of(
            "pods/log", rule("get", "", "pods/log"), resource("get", "", "pods", "log"), true),
        // A rule on resources never matches a path, nor a rule on paths a resource.
        Arguments.of("kinds apart", rule("*", "*", "*"), path("get", "/healthz"), false),
        Arguments.of("kinds apart", urls("*", "*"), resource("get", "", "pods", ""), false));
  }

  @ParameterizedTest(name = "{0}: {2} -> {3}")
  @MethodSource
  void matches(String name, PolicyRule rule, Attributes request, boolean allowed) {
    assertEquals(allowed, PolicyRules.allows(request, rule));
  }

  @Test
  void resourceNamesLimitTheRuleToThoseNames() {
    PolicyRule named = rule("get,list", "", "configmaps").withResourceNames(List.of("a", "b"));
    assertEquals(
        true,
        PolicyRules.allows(
            Attributes.resource(USER, "get", "", "configmaps", "", "ns", "a"), named));
    assertEquals(
        false,
        PolicyRules.allows(
            Attributes.resource(USER, "get", "", "configmaps", "", "ns", "c"), named));
    // A list without a name is not limited to the names: it is refused.
    assertEquals(
        false,
        PolicyRules.allows(
            Attributes.resource(USER, "list", "", "configmaps", "", "ns", ""), named));
  }

  static Stream<Arguments> covers() {
    return Stream.of(
        Arguments.of(
            "exact match",
            List.of(rule("get", "v1", "builds")),
            List.of(rule("get", "v1", "builds")),
            List.of()),
        Arguments.of(
            "several rules covering one",
            List.of(
                rule("delete", "v1", "deployments"),
                rule("delete", "v1", "builds"),
                rule("update", "v1", "builds,deployments")),
            List.of(rule("delete,update", "v1", "builds,deployments")),
            List.of()),
        Arguments.of(
            "several groups covering one rule",
            List.of(
                rule("delete", "group1", "deployments"),
                rule("delete", "group1", "builds"),
                rule("update", "group1", "builds,deployments"),
                rule("delete", "group2", "deployments"),
                rule("delete", "group2", "builds"),
                rule("update", "group2", "builds,deployments")),
            List.of(rule("delete,update", "group1,group2", "builds,deployments")),
            List.of()),
        Arguments.of(
            "one rule covering several",
            List.of(rule("delete,update", "group1,group2", "builds,deployments")),
            List.of(
                rule("delete", "group1", "deployments"),
                rule("update", "group2", "builds,deployments")),
            List.of()),
        Arguments.of(
            "missing one verb and resource",
            List.of(
                rule("delete,update", "v1", "builds,deployments"), rule("delete", "v1", "pods")),
            List.of(rule("delete,update", "v1", "builds,deployments,pods")),
            List.of(rule("update", "v1", "pods"))),
        Arguments.of(
            "group star covers several",
            List.of(rule("get", "*", "roles")),
            List.of(rule("get", "group1,group2", "roles")),
            List.of()),
        Arguments.of(
            "groups do not cover a group star",
            List.of(rule("get", "dummy-group", "roles")),
            List.of(rule("get", "*", "roles")),
            List.of(rule("get", "*", "roles"))),
        Arguments.of(
            "group star covers a group star",
            List.of(rule("get", "*", "roles")),
            List.of(rule("get", "*", "roles")),
            List.of()),
        Arguments.of(
            "verb star covers several",
            List.of(rule("*", "v1", "roles")),
            List.of(rule("watch,list", "v1", "roles")),
            List.of()),
        Arguments.of(
            "verbs do not cover a verb star",
            List.of(rule("get,list,watch,create,update,delete,exec", "v1", "roles")),
            List.of(rule("*", "v1", "roles")),
            List.of(rule("*", "v1", "roles"))),
        Arguments.of(
            "resource star covers any",
            List.of(rule("get", "v1", "*")),
            List.of(rule("get", "v1", "resourcegroup:deployments")),
            List.of()),
        Arguments.of(
            "resources do not cover a resource star",
            List.of(rule("get", "v1", "roles,resourcegroup:deployments")),
            List.of(rule("get", "v1", "*")),
            List.of(rule("get", "v1", "*"))),
        Arguments.of(
            "no names covers names",
            List.of(rule("get", "v1", "pods")),
            List.of(rule("get", "v1", "pods").withResourceNames(List.of("foo", "bar"))),
            List.of()),
        Arguments.of(
            "names do not cover no names",
            List.of(rule("get", "v1", "pods").withResourceNames(List.of("foo", "bar"))),
            List.of(rule("get", "v1", "pods")),
            List.of(rule("get", "v1", "pods"))),
        Arguments.of(
            "star subresource covers that subresource of any resource",
            List.of(rule("get", "", "*/log")),
            List.of(rule("get", "", "pods/log,jobs/log")),
            List.of()),
        Arguments.of(
            "star subresource covers no resource",
            List.of(rule("get", "", "*/log")),
            List.of(rule("get", "", "pods")),
            List.of(rule("get", "", "pods"))),
        Arguments.of(
            "non-resource URLs",
            List.of(urls("*", "/apis")),
            List.of(urls("*", "/apis")),
            List.of()),
        Arguments.of(
            "non-resource URL star",
            List.of(urls("*", "*")),
            List.of(urls("*", "/apis,/apis/v1,/")),
            List.of()),
        Arguments.of(
            "a star after a prefix does not cover the prefix",
            List.of(urls("*", "/apis/*")),
            List.of(urls("get", "/apis,/apis/v1")),
            List.of(urls("get", "/apis"))),
        Arguments.of(
            "a star after a prefix covers what follows it",
            List.of(urls("*", "/apis/*")),
            List.of(urls("get", "/apis/v1/foo,/apis/v1")),
            List.of()),
        Arguments.of(
            "rules with resources and URLs",
            List.of(
                new PolicyRule(
                    List.of("get"), List.of("v1"), List.of("builds"), List.of(), List.of("/apis"))),
            List.of(
                new PolicyRule(
                    List.of("get"), List.of("v1"), List.of("builds"), List.of(), List.of("/apis"))),
            List.of()),
        Arguments.of(
            "a URL not held beside resources held",
            List.of(rule("get", "v1", "builds")),
            List.of(
                new PolicyRule(
                    List.of("get"), List.of("v1"), List.of("builds"), List.of(), List.of("/apis"))),
            List.of(urls("get", "/apis"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void covers(
      String name, List<PolicyRule> held, List<PolicyRule> wanted, List<PolicyRule> missing) {
    assertEquals(missing, PolicyRules.uncovered(held, wanted));
  }

  static Stream<Arguments> urlCovers() {
    return Stream.of(
        Arguments.of("*", "/api", true),
        Arguments.of("/api", "/api", true),
        Arguments.of("/apis", "/api", false),
        Arguments.of("/api/v1", "/api", false),
        Arguments.of("/api/v1", "/api/v1", true),
        Arguments.of("/api/*", "/api/v1", true),
        Arguments.of("/api/*", "/api", false),
        Arguments.of("/api/*/*", "/api/v1", false),
        Arguments.of("/*/v1/*", "/api/v1", false));
  }

  @ParameterizedTest(name = "{0} covers {1}: {2}")
  @MethodSource
  void urlCovers(String owner, String requested, boolean covered) {
    assertEquals(covered, PolicyRules.covers(urls("get", owner), urls("get", requested)));
  }

  @Test
  void compactMergesTheVerbsOfOneResourceAndDescribesAsGoDoes() {
    List<PolicyRule> atoms =
        List.of(
            rule("get", "apps", "deployments"),
            rule("list", "apps", "deployments"),
            urls("get", "/healthz"),
            rule("get", "", "pods").withResourceNames(List.of("p")));
    assertEquals(
        "{APIGroups:[\"\"], Resources:[\"pods\"], ResourceNames:[\"p\"], Verbs:[\"get\"]}\n"
            + "{APIGroups:[\"apps\"], Resources:[\"deployments\"], Verbs:[\"get\" \"list\"]}\n"
            + "{NonResourceURLs:[\"/healthz\"], Verbs:[\"get\"]}",
        PolicyRules.describe(atoms));
  }
}
