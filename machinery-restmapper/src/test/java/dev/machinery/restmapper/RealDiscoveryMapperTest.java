package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a kubectl user types, against the mapper of a real server's discovery documents. */
class RealDiscoveryMapperTest {
  private static final DiscoveryRESTMapper MAPPER = RealDiscovery.legacyMapper();
  private static final RESTMapping DEPLOYMENTS =
      new RESTMapping(
          GroupVersionResource.of("apps", "v1", "deployments"),
          GroupVersionKind.of("apps", "v1", "Deployment"),
          Scope.NAMESPACE);

  private static RESTMapping resolve(String argument) {
    return ResourceArguments.resolve(MAPPER, argument).mapping();
  }

  @Test
  void everySpellingOfDeploymentsResolvesToOneMapping() {
    for (String argument :
        List.of(
            "deploy",
            "deployments",
            "deployment",
            "Deployment",
            "DEPLOYMENTS",
            "deployments.apps",
            "deploy.apps",
            "deployments.v1.apps",
            "apps/deployments",
            "apps/deploy")) {
      assertEquals(DEPLOYMENTS, resolve(argument), argument);
    }
    ResolvedResource named = ResourceArguments.resolve(MAPPER, "deploy/web");
    assertEquals(DEPLOYMENTS, named.mapping());
    assertEquals(Optional.of("web"), named.name());
    assertEquals(
        Optional.of("web"), ResourceArguments.resolve(MAPPER, "apps/deployments/web").name());
    assertEquals(
        Optional.of("web"), ResourceArguments.resolve(MAPPER, "deployments.v1.apps/web").name());
    assertEquals(DEPLOYMENTS, ResourceArguments.mappingForKind(MAPPER, "Deployment.v1.apps"));
    assertEquals(DEPLOYMENTS, ResourceArguments.mappingForKind(MAPPER, "Deployment.apps"));
  }

  @Test
  void shortNamesOfTheCoreAndNamedGroups() {
    assertEquals(GroupVersionKind.of("", "v1", "Pod"), resolve("po").groupVersionKind());
    assertEquals(GroupVersionKind.of("", "v1", "Service"), resolve("svc").groupVersionKind());
    assertEquals(Scope.ROOT, resolve("ns").scope());
    assertEquals(Scope.ROOT, resolve("no").scope());
    assertEquals(
        GroupVersionKind.of("autoscaling", "v2", "HorizontalPodAutoscaler"),
        resolve("hpa").groupVersionKind());
    // kubectl's shortcut expander drops the version given with a short name (issue 12): the
    // preferred version answers; the full name keeps it.
    assertEquals(
        GroupVersionKind.of("autoscaling", "v2", "HorizontalPodAutoscaler"),
        resolve("hpa.v1.autoscaling").groupVersionKind());
    assertEquals(
        GroupVersionKind.of("autoscaling", "v1", "HorizontalPodAutoscaler"),
        resolve("horizontalpodautoscalers.v1.autoscaling").groupVersionKind());
    assertEquals(
        GroupVersionKind.of("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
        resolve("crds").groupVersionKind());
    assertEquals(
        GroupResource.of("autoscaling", "horizontalpodautoscalers"),
        MAPPER.expandShortName(GroupVersionResource.of("autoscal", "", "hpa")).groupResource());
  }

  @Test
  void aResourceInTwoGroupsIsResolvedByPriorityOrReportedAsAmbiguous() {
    assertEquals(GroupVersionKind.of("", "v1", "Event"), resolve("events").groupVersionKind());
    assertEquals(GroupVersionKind.of("", "v1", "Event"), resolve("ev").groupVersionKind());
    assertEquals(
        GroupVersionKind.of("events.k8s.io", "v1", "Event"),
        resolve("events.events.k8s.io").groupVersionKind());
    assertEquals(
        List.of(
            GroupVersionKind.of("", "v1", "Event"),
            GroupVersionKind.of("events.k8s.io", "v1", "Event")),
        MAPPER.kindsFor(GroupVersionResource.of("", "", "events")));
    AmbiguousResourceException ambiguous =
        assertThrows(
            AmbiguousResourceException.class,
            () -> ResourceArguments.resolve(MAPPER.withoutPriority(), "events"));
    assertEquals(
        "/, Resource=events matches multiple kinds [/v1, Kind=Event events.k8s.io/v1,"
            + " Kind=Event]",
        ambiguous.getMessage());
    assertEquals(2, ambiguous.kinds().size());
  }

  @Test
  void namesThatExistNowhere() {
    NoResourceMatchException none =
        assertThrows(NoResourceMatchException.class, () -> resolve("frobbers"));
    assertEquals(
        "no matches for /, Resource=frobbers (no resource type \"frobbers\" in any group or"
            + " version; searched plural, singular and short names)",
        none.getMessage());
    assertEquals(
        "no matches for batch/, Resource=deployments (no resource type \"deployments\" in group"
            + " \"batch\" (any version); searched plural, singular and short names)",
        assertThrows(NoResourceMatchException.class, () -> resolve("deployments.batch"))
            .getMessage());
    assertEquals(
        "no matches for kind \"Frobber\" in group \"apps\"",
        assertThrows(
                NoKindMatchException.class,
                () -> MAPPER.restMapping(GroupKind.of("apps", "Frobber")))
            .getMessage());
    assertEquals(
        "no matches for kind \"Deployment\" in version \"apps/v9\"",
        assertThrows(
                NoKindMatchException.class,
                () -> MAPPER.restMapping(GroupKind.of("apps", "Deployment"), "v9"))
            .getMessage());
  }

  @Test
  void subresourcesAreLeftOutOfLookupsButReachable() {
    assertEquals(
        Optional.of(
            new SubresourceMapping(
                GroupVersionResource.of("apps", "v1", "deployments"),
                "scale",
                GroupVersionKind.of("autoscaling", "v1", "Scale"),
                Scope.NAMESPACE)),
        MAPPER.subresource(GroupVersionResource.of("apps", "v1", "deployments"), "scale"));
    assertEquals(
        GroupVersionKind.of("policy", "v1", "Eviction"),
        MAPPER
            .subresource(GroupVersionResource.of("", "v1", "pods"), "eviction")
            .orElseThrow()
            .groupVersionKind());
    assertTrue(
        MAPPER.allMappings().stream()
            .noneMatch(mapping -> mapping.resource().resource().contains("/")));
  }

  @Test
  void categories() {
    List<GroupResource> all = MAPPER.expandCategory("all");
    assertTrue(all.contains(GroupResource.of("", "pods")), all.toString());
    assertTrue(all.contains(GroupResource.of("apps", "deployments")), all.toString());
    assertTrue(all.contains(GroupResource.of("autoscaling", "horizontalpodautoscalers")));
    assertEquals(all.size(), all.stream().distinct().count());
    assertEquals(List.of(), MAPPER.expandCategory("nothing"));
  }

  @Test
  void preferredVersionsComeFirst() {
    assertEquals(
        List.of(
            GroupVersionResource.of("autoscaling", "v2", "horizontalpodautoscalers"),
            GroupVersionResource.of("autoscaling", "v1", "horizontalpodautoscalers")),
        MAPPER.resourcesFor(GroupVersionResource.of("", "", "horizontalpodautoscalers")));
    assertEquals(
        "v2",
        MAPPER
            .restMapping(GroupKind.of("autoscaling", "HorizontalPodAutoscaler"))
            .groupVersionKind()
            .version());
    assertEquals(
        "v1",
        MAPPER
            .restMapping(GroupKind.of("autoscaling", "HorizontalPodAutoscaler"), "v1")
            .groupVersionKind()
            .version());
    assertEquals("deployment", MAPPER.resourceSingularizer("deployments"));
    assertEquals("endpoints", MAPPER.resourceSingularizer("endpoints"));
  }

  @Test
  void aggregatedDiscoveryGivesTheSameAnswers() {
    DiscoveryRESTMapper aggregated = DiscoveryRESTMapper.fromAggregated(RealDiscovery.aggregated());
    assertEquals(DEPLOYMENTS, ResourceArguments.resolve(aggregated, "deploy").mapping());
    assertEquals(
        GroupVersionKind.of("autoscaling", "v2", "HorizontalPodAutoscaler"),
        ResourceArguments.resolve(aggregated, "hpa").mapping().groupVersionKind());
    assertEquals(
        GroupVersionKind.of("autoscaling", "v1", "Scale"),
        aggregated
            .subresource(GroupVersionResource.of("apps", "v1", "deployments"), "scale")
            .orElseThrow()
            .groupVersionKind());
    assertTrue(aggregated.expandCategory("all").contains(GroupResource.of("apps", "deployments")));
  }

  @Test
  void theMatchingFormsAgreeWithTheThrowingFormsOnEveryRealResource() {
    for (RESTMapping mapping : MAPPER.allMappings()) {
      GroupVersionResource plural = mapping.resource();
      for (GroupVersionResource query :
          List.of(
              plural,
              GroupVersionResource.of(plural.group(), "", plural.resource()),
              GroupVersionResource.of("", "", plural.resource()))) {
        assertEquals(MAPPER.kindsFor(query), MAPPER.kindsMatching(query), query.toString());
        assertEquals(MAPPER.resourcesFor(query), MAPPER.resourcesMatching(query), query.toString());
      }
      GroupKind kind = mapping.groupVersionKind().groupKind();
      assertEquals(MAPPER.restMappings(kind), MAPPER.restMappingsMatching(kind), kind.toString());
      String version = mapping.groupVersionKind().version();
      assertEquals(
          MAPPER.restMappings(kind, version),
          MAPPER.restMappingsMatching(kind, version),
          kind + " " + version);
      assertEquals(
          MAPPER.restMapping(kind, version),
          MAPPER.restMappingMatching(kind, version).orElseThrow(),
          kind + " " + version);
    }
    GroupVersionResource missing = GroupVersionResource.of("", "", "frobbers");
    assertEquals(List.of(), MAPPER.kindsMatching(missing));
    assertEquals(List.of(), MAPPER.resourcesMatching(missing));
    assertEquals(List.of(), MAPPER.restMappingsMatching(GroupKind.of("example.dev", "Frobber")));
    assertTrue(MAPPER.restMappingMatching(GroupKind.of("example.dev", "Frobber")).isEmpty());
  }
}
