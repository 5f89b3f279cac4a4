package dev.machinery.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.GroupVersioner;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cases of Kubernetes' {@code runtime/schema} tests (k8s.io/apimachinery, {@code
 * group_version_test.go}) that apply here. Rows with upper-case versions or kinds in places this
 * library validates ({@code V1} as a version) are left out: identifiers are checked on the way in.
 */
class GoSchemaTablesTest {
  // TestGroupVersionParse
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"v1||v1", "v2||v2", "/v1||v1", "v1/|v1|", "v1/a|v1|a"})
  void groupVersionParse(String input, String group, String version) {
    GroupVersion parsed = GroupVersion.parse(input);
    assertEquals(group == null ? "" : group, parsed.group());
    assertEquals(version == null ? "" : version, parsed.version());
  }

  @Test
  void groupVersionParseRejectsASecondSlashInGoWords() {
    assertEquals(
        "unexpected GroupVersion string: /v1/ (expected \"version\" or \"group/version\", found"
            + " more than one '/')",
        assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("/v1/"))
            .getMessage());
  }

  // TestGroupResourceParse
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"v1||v1", ".v1|v1|", "v1.||v1", "v1.a|a|v1", "b.v1.a|v1.a|b"})
  void groupResourceParse(String input, String group, String resource) {
    GroupResource parsed = GroupResource.parse(input);
    assertEquals(group == null ? "" : group, parsed.group());
    assertEquals(resource == null ? "" : resource, parsed.resource());
  }

  // TestParseResourceArg
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "v1||v1|",
        ".v1|v1||",
        "v1.||v1|",
        "v1.a|a|v1|",
        "b.v1.a|v1.a|b|a/v1/b",
      })
  void parseResourceArg(String input, String group, String resource, String full) {
    ResourceArg parsed = ResourceArg.parse(input);
    assertEquals(
        GroupResource.of(group == null ? "" : group, resource == null ? "" : resource),
        parsed.groupResource());
    assertEquals(
        full == null
            ? Optional.empty()
            : Optional.of(
                GroupVersionResource.of(
                    full.split("/")[0], full.split("/")[1], full.split("/")[2])),
        parsed.fullySpecified());
  }

  // TestParseKindArg
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Pod||Pod|",
        ".apps|apps||",
        "Pod.||Pod|",
        "StatefulSet.apps|apps|StatefulSet|",
        "StatefulSet.v1.apps|v1.apps|StatefulSet|apps/v1/StatefulSet",
      })
  void parseKindArg(String input, String group, String kind, String full) {
    KindArg parsed = KindArg.parse(input);
    assertEquals(
        GroupKind.of(group == null ? "" : group, kind == null ? "" : kind), parsed.groupKind());
    assertEquals(
        full == null
            ? Optional.empty()
            : Optional.of(
                GroupVersionKind.of(full.split("/")[0], full.split("/")[1], full.split("/")[2])),
        parsed.fullySpecified());
  }

  // TestKindForGroupVersionKinds
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "batch/v2alpha1/ScheduledJob|batch/v2alpha1/ScheduledJob",
        "batch/v3alpha1/CronJob|batch/v1/CronJob",
        "policy/v1beta1/PodDisruptionBudget|policy/v1beta1/PodDisruptionBudget",
        "apps/v1alpha1/StatefulSet|",
      })
  void kindForGroupVersionKinds(String input, String target) {
    GroupVersioner versions =
        GroupVersioner.of(
            GroupVersion.of("batch", "v1"),
            GroupVersion.of("batch", "v2alpha1"),
            GroupVersion.of("policy", "v1beta1"));
    String[] in = input.split("/");
    Optional<GroupVersionKind> expected =
        target == null
            ? Optional.empty()
            : Optional.of(
                GroupVersionKind.of(
                    target.split("/")[0], target.split("/")[1], target.split("/")[2]));
    assertEquals(
        expected,
        versions.kindForGroupVersionKinds(List.of(GroupVersionKind.of(in[0], in[1], in[2]))));
  }
}
