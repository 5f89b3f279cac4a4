package dev.machinery.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaIdentifiersTest {
  @Test
  void parsesLegacyCoreGroupVersion() {
    assertEquals(GroupVersion.of("", "v1"), GroupVersion.parse("v1"));
    assertEquals("v1", GroupVersion.of("", "v1").toString());
  }

  @Test
  void parsesLeadingSlashAsCoreGroup() {
    assertEquals(GroupVersion.of("", "v1"), GroupVersion.parse("/v1"));
  }

  @Test
  void parsesGroupAndVersion() {
    GroupVersion gv = GroupVersion.parse("apps/v1");
    assertEquals("apps", gv.group());
    assertEquals("v1", gv.version());
    assertEquals("apps/v1", gv.toString());
  }

  @Test
  void parsesEmptyValue() {
    assertEquals(GroupVersion.EMPTY, GroupVersion.parse(""));
    assertTrue(GroupVersion.parse("").isEmpty());
    assertEquals("", GroupVersion.EMPTY.toString());
  }

  @Test
  void parsesGroupWithoutVersionAsKubernetesDoes() {
    assertEquals(GroupVersion.of("apps", ""), GroupVersion.parse("apps/"));
    assertEquals("apps/", GroupVersion.of("apps", "").toString());
  }

  @Test
  void rejectsTwoSlashes() {
    MalformedIdentifierException e =
        assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("a/b/c"));
    assertEquals(
        "unexpected GroupVersion string: a/b/c (expected \"version\" or \"group/version\", found"
            + " more than one '/')",
        e.getMessage());
    assertEquals("a/b/c", e.input());
  }

  @Test
  void rejectsWhitespace() {
    MalformedIdentifierException e =
        assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/ v1"));
    assertEquals(
        "invalid version \" v1\": found whitespace at position 0; a version is a lowercase DNS"
            + " label such as \"v1\" or \"v1beta2\"",
        e.getMessage());
  }

  @Test
  void rejectsUpperCaseGroup() {
    MalformedIdentifierException e =
        assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("Apps/v1"));
    assertEquals(
        "invalid group \"Apps\": found upper-case 'A' at position 0; a group is empty (the legacy"
            + " core group) or a lowercase DNS subdomain such as \"apps\" or \"example.com\"",
        e.getMessage());
  }

  @Test
  void rejectsCharactersNoGroupMayHold() {
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("ex_ample.com/v1"));
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("example..com/v1"));
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("-apps/v1"));
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/v1-"));
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/v\u00e9"));
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/v1\n"));
  }

  @Test
  void rejectsOverlongParts() {
    String longLabel = "a".repeat(64);
    assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/" + longLabel));
    String longGroup = ("a".repeat(60) + ".").repeat(5) + "com";
    MalformedIdentifierException e =
        assertThrows(
            MalformedIdentifierException.class, () -> GroupVersion.parse(longGroup + "/v1"));
    assertTrue(e.getMessage().contains("is longer than 253 characters"), e.getMessage());
    assertTrue(e.getMessage().contains("... (308 characters)"), e.getMessage());
  }

  @Test
  void quotesControlCharactersInErrors() {
    MalformedIdentifierException e =
        assertThrows(MalformedIdentifierException.class, () -> GroupVersion.parse("apps/v\u0007"));
    assertTrue(e.getMessage().startsWith("invalid version \"v\\u0007\""), e.getMessage());
  }

  @Test
  void knowsTheInternalVersion() {
    GroupVersion internal = GroupVersion.internal("apps");
    assertTrue(internal.isInternal());
    assertEquals("apps/__internal", internal.toString());
    assertEquals(internal, GroupVersion.parse("apps/__internal"));
    assertFalse(GroupVersion.parse("apps/v1").isInternal());
  }

  @Test
  void printsAndParsesGroupVersionKindAsKubernetes() {
    GroupVersionKind gvk = GroupVersionKind.of("apps", "v1", "Deployment");
    assertEquals("apps/v1, Kind=Deployment", gvk.toString());
    assertEquals(gvk, GroupVersionKind.parse("apps/v1, Kind=Deployment"));
    GroupVersionKind pod = GroupVersionKind.of("", "v1", "Pod");
    assertEquals("/v1, Kind=Pod", pod.toString());
    assertEquals(pod, GroupVersionKind.parse("/v1, Kind=Pod"));
    assertEquals(pod, GroupVersionKind.parse("v1, Kind=Pod"));
    assertEquals(GroupVersionKind.EMPTY, GroupVersionKind.parse(GroupVersionKind.EMPTY.toString()));
  }

  @Test
  void buildsKindFromApiVersionAndKind() {
    GroupVersionKind gvk = GroupVersionKind.fromApiVersionAndKind("apps/v1", "Deployment");
    assertEquals("apps/v1", gvk.apiVersion());
    assertEquals(
        GroupVersionKind.of("", "v1", "Pod"), GroupVersionKind.fromApiVersionAndKind("v1", "Pod"));
    assertEquals("v1", GroupVersionKind.of("", "v1", "Pod").apiVersion());
    assertEquals(GroupKind.of("apps", "Deployment"), gvk.groupKind());
    assertEquals(GroupVersion.of("apps", "v1"), gvk.groupVersion());
  }

  @Test
  void rejectsGroupVersionKindWithoutSeparator() {
    MalformedIdentifierException e =
        assertThrows(
            MalformedIdentifierException.class, () -> GroupVersionKind.parse("Deployment.v1.apps"));
    assertEquals(
        "invalid group/version/kind \"Deployment.v1.apps\": expected \"group/version, Kind=Kind\""
            + " such as \"apps/v1, Kind=Deployment\" (for the dotted form Deployment.v1.apps use"
            + " KindArg.parse)",
        e.getMessage());
  }

  @Test
  void rejectsMalformedKind() {
    MalformedIdentifierException e =
        assertThrows(
            MalformedIdentifierException.class, () -> GroupVersionKind.of("apps", "v1", "9Lives"));
    assertEquals(
        "invalid kind \"9Lives\": must start with a letter; a kind is a name such as"
            + " \"Deployment\" (letters, digits and inner '-')",
        e.getMessage());
    assertThrows(MalformedIdentifierException.class, () -> GroupKind.parse("Deploy ment.apps"));
    assertThrows(
        MalformedIdentifierException.class, () -> GroupVersionKind.of("", "v1", "\u212aind"));
  }

  @Test
  void printsAndParsesGroupVersionResource() {
    GroupVersionResource gvr = GroupVersionResource.of("apps", "v1", "deployments");
    assertEquals("apps/v1, Resource=deployments", gvr.toString());
    assertEquals(gvr, GroupVersionResource.parse("apps/v1, Resource=deployments"));
    assertEquals(GroupResource.of("apps", "deployments"), gvr.groupResource());
    assertThrows(
        MalformedIdentifierException.class, () -> GroupVersionResource.parse("deployments"));
    assertThrows(
        MalformedIdentifierException.class,
        () -> GroupVersionResource.of("apps", "v1", "Deployments"));
  }

  @Test
  void printsAndParsesGroupKind() {
    assertEquals(GroupKind.of("apps", "Deployment"), GroupKind.parse("Deployment.apps"));
    assertEquals("Deployment.apps", GroupKind.of("apps", "Deployment").toString());
    assertEquals(GroupKind.of("", "Pod"), GroupKind.parse("Pod"));
    assertEquals("Pod", GroupKind.of("", "Pod").toString());
    assertEquals(GroupKind.of("v1.apps", "Deployment"), GroupKind.parse("Deployment.v1.apps"));
    assertEquals(
        GroupVersionKind.of("apps", "v1", "Deployment"),
        GroupKind.of("apps", "Deployment").withVersion("v1"));
  }

  @Test
  void printsAndParsesGroupResource() {
    assertEquals(GroupResource.of("apps", "deployments"), GroupResource.parse("deployments.apps"));
    assertEquals("deployments.apps", GroupResource.of("apps", "deployments").toString());
    assertEquals(GroupResource.of("", "pods"), GroupResource.parse("pods"));
    assertEquals(GroupResource.EMPTY, GroupResource.parse(""));
    assertEquals(
        GroupVersionResource.of("apps", "v1", "deployments"),
        GroupResource.of("apps", "deployments").withVersion("v1"));
  }

  @Test
  void parsesDottedKindArgumentBothWays() {
    KindArg arg = KindArg.parse("Deployment.v1.apps");
    assertEquals(
        Optional.of(GroupVersionKind.of("apps", "v1", "Deployment")), arg.fullySpecified());
    assertEquals(GroupKind.of("v1.apps", "Deployment"), arg.groupKind());
    KindArg partial = KindArg.parse("Deployment.apps");
    assertEquals(Optional.empty(), partial.fullySpecified());
    assertEquals(GroupKind.of("apps", "Deployment"), partial.groupKind());
    assertEquals(GroupKind.of("", "Pod"), KindArg.parse("Pod").groupKind());
  }

  @Test
  void parsesDottedResourceArgumentBothWays() {
    ResourceArg arg = ResourceArg.parse("deployments.v1.apps");
    assertEquals(
        Optional.of(GroupVersionResource.of("apps", "v1", "deployments")), arg.fullySpecified());
    assertEquals(GroupResource.of("v1.apps", "deployments"), arg.groupResource());
    ResourceArg crd = ResourceArg.parse("widgets.example.com");
    assertEquals(
        Optional.of(GroupVersionResource.of("com", "example", "widgets")), crd.fullySpecified());
    assertEquals(GroupResource.of("example.com", "widgets"), crd.groupResource());
    assertEquals(Optional.empty(), ResourceArg.parse("deployments.apps").fullySpecified());
    assertThrows(MalformedIdentifierException.class, () -> ResourceArg.parse("deploy ments.apps"));
  }

  @Test
  void ordersVersionsAsKubernetes() {
    List<String> expected =
        List.of(
            "v10",
            "v2",
            "v1",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
            "v11alpha2",
            "foo1",
            "foo10");
    List<String> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new java.util.Random(7));
    shuffled.sort(VersionPriority.MOST_PREFERRED_FIRST);
    assertEquals(expected, shuffled);
    assertTrue(VersionPriority.compare("v1", "v1beta1") < 0);
    assertTrue(VersionPriority.compare("v1beta2", "v1beta1") < 0);
    assertTrue(VersionPriority.compare("v01", "v1") > 0, "a leading zero is not Kubernetes-like");
    assertEquals(0, VersionPriority.compare("v1", "v1"));
  }
}
