package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultRESTMapperTest {
  static final GroupVersion V1 = GroupVersion.of("example.dev", "v1");
  static final GroupVersion V1BETA1 = GroupVersion.of("example.dev", "v1beta1");

  static DefaultRESTMapper mapper() {
    return DefaultRESTMapper.builder(V1, V1BETA1)
        .add(V1.withKind("Widget"), Scope.NAMESPACE)
        .add(V1BETA1.withKind("Widget"), Scope.NAMESPACE)
        .add(V1.withKind("Gateway"), Scope.NAMESPACE)
        .addSpecific(
            V1.withKind("Policy"),
            V1.withResource("policies"),
            V1.withResource("policy"),
            Scope.ROOT)
        .build();
  }

  @Test
  void guessesResourcesAsKubernetesDoes() {
    assertEquals(
        List.of(
            GroupVersionResource.of("", "v1", "pods"), GroupVersionResource.of("", "v1", "pod")),
        DefaultRESTMapper.guessResources(GroupVersionKind.of("", "v1", "Pod")));
    assertEquals("endpoints", guess("Endpoints"));
    assertEquals("ingresses", guess("Ingress"));
    assertEquals("networkpolicies", guess("NetworkPolicy"));
    assertEquals("gatewaies", guess("Gateway"));
    assertEquals("statuses", guess("Status"));
  }

  private static String guess(String kind) {
    return DefaultRESTMapper.guessResources(GroupVersionKind.of("x.dev", "v1", kind))
        .get(0)
        .resource();
  }

  @Test
  void looksUpByPluralSingularAndKind() {
    DefaultRESTMapper mapper = mapper();
    for (String name : List.of("policies", "policy")) {
      assertEquals(
          V1.withKind("Policy"), mapper.kindFor(GroupVersionResource.of("", "", name)), name);
    }
    assertEquals(
        V1.withKind("Gateway"), mapper.kindFor(GroupVersionResource.of("", "", "gatewaies")));
    assertEquals("policy", mapper.resourceSingularizer("policies"));
  }

  @Test
  void partialInputMatchesEveryVersionInPreferenceOrder() {
    DefaultRESTMapper mapper = mapper();
    assertEquals(
        List.of(V1.withKind("Widget"), V1BETA1.withKind("Widget")),
        mapper.kindsFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(
        List.of(V1.withResource("widgets"), V1BETA1.withResource("widgets")),
        mapper.resourcesFor(GroupVersionResource.of("example.dev", "", "widget")));
    assertEquals(
        V1BETA1.withKind("Widget"),
        mapper.kindFor(GroupVersionResource.of("", "v1beta1", "widgets")));
    assertEquals(
        V1BETA1.withResource("widgets"),
        mapper.resourceFor(GroupVersionResource.of("example.dev", "v1beta1", "widgets")));
    AmbiguousResourceException ambiguous =
        assertThrows(
            AmbiguousResourceException.class,
            () -> mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(
        "/, Resource=widgets matches multiple kinds [example.dev/v1, Kind=Widget"
            + " example.dev/v1beta1, Kind=Widget]",
        ambiguous.getMessage());
  }

  @Test
  void mapsKindsToResourcesPreferringTheDefaultVersionsOrder() {
    DefaultRESTMapper mapper = mapper();
    GroupKind widget = GroupKind.of("example.dev", "Widget");
    assertEquals(
        new RESTMapping(V1.withResource("widgets"), V1.withKind("Widget"), Scope.NAMESPACE),
        mapper.restMapping(widget));
    assertEquals(2, mapper.restMappings(widget).size());
    assertEquals(
        V1BETA1.withKind("Widget"), mapper.restMapping(widget, "v1beta1").groupVersionKind());
    assertEquals(
        V1BETA1.withKind("Widget"), mapper.restMapping(widget, "v9", "v1beta1").groupVersionKind());
    assertEquals(Scope.ROOT, mapper.restMapping(GroupKind.of("example.dev", "Policy")).scope());
    assertThrows(
        NoKindMatchException.class, () -> mapper.restMapping(GroupKind.of("other", "Widget")));
  }

  @Test
  void aMissNamesWhatWasSearched() {
    assertEquals(
        "no matches for example.dev/v1, Resource=gadgets (no resource type \"gadgets\" in"
            + " \"example.dev/v1\"; searched plural, singular and short names)",
        assertThrows(
                NoResourceMatchException.class,
                () -> mapper().kindFor(GroupVersionResource.of("example.dev", "v1", "gadgets")))
            .getMessage());
    assertEquals(
        "no matches for /v2, Resource=widgets (no resource type \"widgets\" in version \"v2\" of"
            + " any group; searched plural, singular and short names)",
        assertThrows(
                NoResourceMatchException.class,
                () -> mapper().kindFor(GroupVersionResource.of("", "v2", "widgets")))
            .getMessage());
    assertThrows(NoResourceMatchException.class, () -> mapper().resourceSingularizer("gadgets"));
  }

  @Test
  void anEmptyResourceIsRefusedWithGosWords() {
    GroupVersionResource empty = GroupVersionResource.of("example.dev", "v1", "");
    for (org.junit.jupiter.api.function.Executable lookup :
        List.<org.junit.jupiter.api.function.Executable>of(
            () -> mapper().kindsFor(empty),
            () -> mapper().resourcesFor(empty),
            () -> mapper().kindsMatching(empty))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, lookup);
      assertEquals("a resource must be present, got: " + empty, e.getMessage());
    }
  }
}
