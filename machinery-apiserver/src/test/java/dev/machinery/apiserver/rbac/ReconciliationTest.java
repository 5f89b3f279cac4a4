package dev.machinery.apiserver.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.rbac.Reconciliation.BindingResult;
import dev.machinery.apiserver.rbac.Reconciliation.Operation;
import dev.machinery.apiserver.rbac.Reconciliation.RoleResult;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' tables of reconciliation ({@code TestComputeReconciledRoleRules}, {@code
 * TestComputeReconciledRoleAggregationRules}, {@code TestDiffObjectReferenceLists}, {@code
 * TestComputeUpdate}): each row an expected and a stored object, whether extra permissions or
 * subjects are removed, and the object reconciled, or none when nothing is to change. A role's rule
 * is {@code get} of one resource in the core group; a subject is named only.
 */
class ReconciliationTest {
  static List<PolicyRule> rules(String... resources) {
    List<PolicyRule> rules = new ArrayList<>();
    for (String resource : resources) {
      rules.add(PolicyRule.resources(List.of("get"), List.of(""), List.of(resource)));
    }
    return rules;
  }

  static Map<String, String> ss(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  static ClusterRole role(
      List<PolicyRule> rules, Map<String, String> labels, Map<String, String> annotations) {
    ClusterRole role = new ClusterRole();
    ObjectMeta meta = new ObjectMeta();
    meta.setLabels(labels);
    meta.setAnnotations(annotations);
    role.setMetadata(meta);
    role.setRules(rules);
    return role;
  }

  static ClusterRole aggregated(AggregationRule rule) {
    ClusterRole role = role(null, null, null);
    role.setAggregationRule(rule);
    return role;
  }

  @SafeVarargs
  static AggregationRule selectors(Map<String, String>... matchLabels) {
    List<LabelSelector> selectors = new ArrayList<>();
    for (Map<String, String> labels : matchLabels) {
      LabelSelector selector = new LabelSelector();
      selector.setMatchLabels(labels);
      selectors.add(selector);
    }
    return new AggregationRule(selectors);
  }

  static Arguments row(
      String name,
      ClusterRole expected,
      ClusterRole actual,
      boolean removeExtraPermissions,
      ClusterRole reconciled) {
    return Arguments.of(name, expected, actual, removeExtraPermissions, reconciled);
  }

  static Stream<Arguments> roleRules() {
    return Stream.of(
        row("empty", role(rules(), null, null), role(rules(), null, null), true, null),
        row(
            "match without union",
            role(rules("a"), null, null),
            role(rules("a"), null, null),
            true,
            null),
        row(
            "match with union",
            role(rules("a"), null, null),
            role(rules("a"), null, null),
            false,
            null),
        row(
            "different rules without union",
            role(rules("a"), null, null),
            role(rules("b"), null, null),
            true,
            role(rules("a"), null, null)),
        row(
            "different rules with union",
            role(rules("a"), null, null),
            role(rules("b"), null, null),
            false,
            role(rules("b", "a"), null, null)),
        row(
            "match labels without union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("a"), ss("1", "a"), null),
            true,
            null),
        row(
            "match labels with union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("a"), ss("1", "a"), null),
            false,
            null),
        row(
            "different labels without union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("a"), ss("2", "b"), null),
            true,
            role(rules("a"), ss("1", "a", "2", "b"), null)),
        row(
            "different labels with union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("a"), ss("2", "b"), null),
            false,
            role(rules("a"), ss("1", "a", "2", "b"), null)),
        row(
            "different labels and rules without union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("b"), ss("2", "b"), null),
            true,
            role(rules("a"), ss("1", "a", "2", "b"), null)),
        row(
            "different labels and rules with union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("b"), ss("2", "b"), null),
            false,
            role(rules("b", "a"), ss("1", "a", "2", "b"), null)),
        row(
            "conflicting labels and rules without union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("b"), ss("1", "b"), null),
            true,
            role(rules("a"), ss("1", "b"), null)),
        row(
            "conflicting labels and rules with union",
            role(rules("a"), ss("1", "a"), null),
            role(rules("b"), ss("1", "b"), null),
            false,
            role(rules("b", "a"), ss("1", "b"), null)),
        row(
            "match annotations without union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("a"), null, ss("1", "a")),
            true,
            null),
        row(
            "match annotations with union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("a"), null, ss("1", "a")),
            false,
            null),
        row(
            "different annotations without union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("a"), null, ss("2", "b")),
            true,
            role(rules("a"), null, ss("1", "a", "2", "b"))),
        row(
            "different annotations with union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("a"), null, ss("2", "b")),
            false,
            role(rules("a"), null, ss("1", "a", "2", "b"))),
        row(
            "different annotations and rules without union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("b"), null, ss("2", "b")),
            true,
            role(rules("a"), null, ss("1", "a", "2", "b"))),
        row(
            "different annotations and rules with union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("b"), null, ss("2", "b")),
            false,
            role(rules("b", "a"), null, ss("1", "a", "2", "b"))),
        row(
            "conflicting annotations and rules without union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("b"), null, ss("1", "b")),
            true,
            role(rules("a"), null, ss("1", "b"))),
        row(
            "conflicting annotations and rules with union",
            role(rules("a"), null, ss("1", "a")),
            role(rules("b"), null, ss("1", "b")),
            false,
            role(rules("b", "a"), null, ss("1", "b"))),
        row(
            "conflicting labels/annotations and rules without union",
            role(rules("a"), ss("3", "d"), ss("1", "a")),
            role(rules("b"), ss("4", "e"), ss("1", "b")),
            true,
            role(rules("a"), ss("3", "d", "4", "e"), ss("1", "b"))),
        row(
            "conflicting labels/annotations and rules with union",
            role(rules("a"), ss("3", "d"), ss("1", "a")),
            role(rules("b"), ss("4", "e"), ss("1", "b")),
            false,
            role(rules("b", "a"), ss("3", "d", "4", "e"), ss("1", "b"))),
        row(
            "complex labels/annotations and rules without union",
            role(
                rules("pods", "nodes", "secrets"),
                ss("env", "prod", "color", "blue"),
                ss("description", "fancy", "system", "true")),
            role(
                rules("nodes", "images", "projects"),
                ss("color", "red", "team", "pm"),
                ss("system", "false", "owner", "admin", "vip", "yes")),
            true,
            role(
                rules("pods", "nodes", "secrets"),
                ss("env", "prod", "color", "red", "team", "pm"),
                ss("description", "fancy", "system", "false", "owner", "admin", "vip", "yes"))),
        row(
            "complex labels/annotations and rules with union",
            role(
                rules("pods", "nodes", "secrets"),
                ss("env", "prod", "color", "blue", "manager", "randy"),
                ss("description", "fancy", "system", "true", "up", "true")),
            role(
                rules("nodes", "images", "projects"),
                ss("color", "red", "team", "pm"),
                ss("system", "false", "owner", "admin", "vip", "yes", "rate", "down")),
            false,
            role(
                rules("nodes", "images", "projects", "pods", "secrets"),
                ss("env", "prod", "manager", "randy", "color", "red", "team", "pm"),
                ss(
                    "description",
                    "fancy",
                    "system",
                    "false",
                    "owner",
                    "admin",
                    "vip",
                    "yes",
                    "rate",
                    "down",
                    "up",
                    "true"))));
  }

  static Stream<Arguments> aggregationRules() {
    ClusterRole withDeployments = aggregated(selectors(ss("alpha", "bravo")));
    withDeployments.setRules(rules("deployments"));
    return Stream.of(
        row("empty", aggregated(new AggregationRule(List.of())), aggregated(null), true, null),
        row(
            "empty-2",
            aggregated(new AggregationRule(List.of())),
            aggregated(new AggregationRule(List.of())),
            true,
            null),
        row(
            "match without union",
            aggregated(selectors(ss("foo", "bar"))),
            aggregated(selectors(ss("foo", "bar"))),
            true,
            null),
        row(
            "match with union",
            aggregated(selectors(ss("foo", "bar"))),
            aggregated(selectors(ss("foo", "bar"))),
            false,
            null),
        row(
            "different rules without union",
            aggregated(selectors(ss("foo", "bar"))),
            aggregated(selectors(ss("alpha", "bravo"))),
            true,
            aggregated(selectors(ss("foo", "bar")))),
        row(
            "different rules with union",
            aggregated(selectors(ss("foo", "bar"))),
            aggregated(selectors(ss("alpha", "bravo"))),
            false,
            aggregated(selectors(ss("alpha", "bravo"), ss("foo", "bar")))),
        // The role expected is not aggregated, the stored one is: it stops being aggregated and
        // gets the rules expected.
        row(
            "unexpected aggregation",
            role(rules("pods", "nodes", "secrets"), null, null),
            aggregated(selectors(ss("alpha", "bravo"))),
            false,
            role(rules("pods", "nodes", "secrets"), null, null)),
        // ...keeping the rules it had.
        row(
            "unexpected aggregation with differing permissions",
            role(rules("pods", "nodes", "secrets"), null, null),
            withDeployments,
            false,
            role(rules("deployments", "pods", "nodes", "secrets"), null, null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"roleRules", "aggregationRules"})
  void computeReconciledRole(
      String name,
      ClusterRole expected,
      ClusterRole actual,
      boolean removeExtraPermissions,
      ClusterRole reconciled) {
    RoleResult result = Reconciliation.clusterRole(actual, expected, removeExtraPermissions);
    assertEquals(reconciled != null, result.operation() != Operation.NONE, result::toString);
    assertFalse(result.isProtected());
    if (reconciled == null) {
      return;
    }
    assertEquals(orEmpty(reconciled.getMetadata().getLabels()), orEmpty(result.labels()));
    assertEquals(orEmpty(reconciled.getMetadata().getAnnotations()), orEmpty(result.annotations()));
    assertEquals(reconciled.getRules() == null ? List.of() : reconciled.getRules(), result.rules());
    assertEquals(reconciled.getAggregationRule(), result.aggregationRule());
    // Applied to the stored role, the result makes it the role reconciled.
    result.applyTo(actual);
    assertEquals(result.rules(), actual.getRules());
    assertEquals(result.aggregationRule(), actual.getAggregationRule());
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  @Test
  void aRoleAnnotatedNotToBeUpdatedIsProtectedAndTheResultSaysWhatWouldChange() {
    ClusterRole stored = role(rules("b"), null, ss(BootstrapPolicy.AUTOUPDATE_ANNOTATION, "false"));
    RoleResult result =
        Reconciliation.clusterRole(
            stored,
            role(rules("a"), null, ss(BootstrapPolicy.AUTOUPDATE_ANNOTATION, "true")),
            false);
    assertTrue(result.isProtected());
    assertEquals(Operation.UPDATE, result.operation());
    assertFalse(result.needsWrite());
    assertEquals(rules("a"), result.missingRules());
    // The stored annotation is kept, as any value already stored.
    assertEquals("false", result.annotations().get(BootstrapPolicy.AUTOUPDATE_ANNOTATION));
  }

  @Test
  void aMissingRuleIsAddedBrokenDownAndNoneIsCreatedWhenAbsent() {
    ClusterRole expected =
        role(
            List.of(PolicyRule.resources(List.of("get", "list"), List.of(""), List.of("pods"))),
            null,
            null);
    ClusterRole stored =
        role(
            List.of(PolicyRule.resources(List.of("get"), List.of(""), List.of("pods"))),
            null,
            null);
    RoleResult result = Reconciliation.clusterRole(stored, expected, false);
    assertEquals(
        List.of(PolicyRule.resources(List.of("list"), List.of(""), List.of("pods"))),
        result.missingRules());
    assertEquals(2, result.rules().size());
    RoleResult absent = Reconciliation.clusterRole(null, expected, false);
    assertEquals(Operation.CREATE, absent.operation());
    assertEquals(expected.getRules(), absent.rules());
  }

  static ClusterRoleBinding binding(String role, List<Subject> subjects) {
    ClusterRoleBinding binding = new ClusterRoleBinding();
    binding.setMetadata(new ObjectMeta());
    binding.setRoleRef(new RoleRef("", "", role));
    binding.setSubjects(subjects);
    return binding;
  }

  static List<Subject> subjects(String... names) {
    List<Subject> subjects = new ArrayList<>();
    for (String name : names) {
      subjects.add(new Subject("", "", name, ""));
    }
    return subjects;
  }

  static Stream<Arguments> subjectLists() {
    return Stream.of(
        Arguments.of("empty", subjects(), subjects(), subjects(), subjects()),
        Arguments.of(
            "matching, order-independent",
            subjects("foo", "bar"),
            subjects("bar", "foo"),
            subjects(),
            subjects()),
        Arguments.of(
            "partial match",
            subjects("foo", "bar"),
            subjects("foo", "baz"),
            subjects("bar"),
            subjects("baz")),
        Arguments.of("missing", subjects("foo"), subjects("bar"), subjects("foo"), subjects("bar")),
        Arguments.of(
            "remove duplicates",
            subjects("foo", "foo"),
            subjects("bar", "bar"),
            subjects("foo"),
            subjects("bar")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("subjectLists")
  void diffSubjectLists(
      String name, List<Subject> a, List<Subject> b, List<Subject> onlyA, List<Subject> onlyB) {
    assertEquals(onlyA, Reconciliation.onlyIn(a, b));
    assertEquals(onlyB, Reconciliation.onlyIn(b, a));
  }

  static Stream<Arguments> bindings() {
    return Stream.of(
        Arguments.of(
            "match without union",
            binding("role", subjects("a")),
            binding("role", subjects("a")),
            true,
            null),
        Arguments.of(
            "match with union",
            binding("role", subjects("a")),
            binding("role", subjects("a")),
            false,
            null),
        Arguments.of(
            "different roleref with identical subjects",
            binding("role", subjects("a")),
            binding("differentRole", subjects("a")),
            false,
            binding("role", subjects("a"))),
        Arguments.of(
            "extra subjects without union",
            binding("role", subjects("a")),
            binding("role", subjects("a", "b")),
            true,
            binding("role", subjects("a"))),
        Arguments.of(
            "extra subjects with union",
            binding("role", subjects("a")),
            binding("role", subjects("a", "b")),
            false,
            null),
        Arguments.of(
            "missing subjects without union",
            binding("role", subjects("a", "c")),
            binding("role", subjects("a", "b")),
            true,
            binding("role", subjects("a", "c"))),
        Arguments.of(
            "missing subjects with union",
            binding("role", subjects("a", "c")),
            binding("role", subjects("a", "b")),
            false,
            binding("role", subjects("a", "b", "c"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bindings")
  void computeUpdate(
      String name,
      ClusterRoleBinding expected,
      ClusterRoleBinding actual,
      boolean removeExtraSubjects,
      ClusterRoleBinding updated) {
    BindingResult result = Reconciliation.clusterRoleBinding(actual, expected, removeExtraSubjects);
    assertEquals(updated != null, result.operation() != Operation.NONE, result::toString);
    if (updated == null) {
      return;
    }
    assertEquals(updated.getRoleRef(), result.roleRef());
    assertEquals(updated.getSubjects(), result.subjects());
  }

  @Test
  void aBindingToAnotherRoleIsRecreatedAndSubjectsCompareWithoutRegardToAbsentFields() {
    assertEquals(
        Operation.RECREATE,
        Reconciliation.clusterRoleBinding(
                binding("other", subjects("a")), binding("role", subjects("a")), false)
            .operation());
    ClusterRoleBinding stored = binding("role", List.of(new Subject("Group", null, "g", null)));
    ClusterRoleBinding expected = binding("role", List.of(new Subject("Group", "", "g", "")));
    BindingResult result = Reconciliation.clusterRoleBinding(stored, expected, false);
    assertEquals(Operation.NONE, result.operation(), result::toString);
    assertNull(result.labels());
  }
}
