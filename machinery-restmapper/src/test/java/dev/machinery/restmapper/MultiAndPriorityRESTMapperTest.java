package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultiAndPriorityRESTMapperTest {
  static final GroupVersion CORE = GroupVersion.of("", "v1");
  static final GroupVersion EVENTS = GroupVersion.of("events.k8s.io", "v1");

  static MultiRESTMapper union() {
    return MultiRESTMapper.of(
        DefaultRESTMapper.builder(CORE)
            .add(CORE.withKind("Event"), Scope.NAMESPACE)
            .add(CORE.withKind("Pod"), Scope.NAMESPACE)
            .build(),
        DefaultRESTMapper.builder(EVENTS).add(EVENTS.withKind("Event"), Scope.NAMESPACE).build());
  }

  @Test
  void theUnionReportsEveryCandidate() {
    MultiRESTMapper union = union();
    assertEquals(CORE.withKind("Pod"), union.kindFor(GroupVersionResource.of("", "", "pods")));
    AmbiguousResourceException error =
        assertThrows(
            AmbiguousResourceException.class,
            () -> union.resourceFor(GroupVersionResource.of("", "", "events")));
    assertEquals(
        List.of(CORE.withResource("events"), EVENTS.withResource("events")), error.resources());
    assertEquals(
        "/, Resource=events matches multiple kinds [/v1, Kind=Event events.k8s.io/v1,"
            + " Kind=Event]",
        assertThrows(
                AmbiguousResourceException.class,
                () -> union.kindFor(GroupVersionResource.of("", "", "events")))
            .getMessage());
    MultiRESTMapper versions =
        MultiRESTMapper.of(
            DefaultRESTMapperTest.mapper(),
            DefaultRESTMapper.builder(GroupVersion.of("example.dev", "v2"))
                .add(GroupVersionKind.of("example.dev", "v2", "Widget"), Scope.NAMESPACE)
                .build());
    assertEquals(
        // As Go: each delegate gives its one mapping (the first mapper its preferred v1).
        "example.dev/, Kind=Widget matches multiple kinds [example.dev/v1, Kind=Widget"
            + " example.dev/v2, Kind=Widget]",
        assertThrows(
                AmbiguousResourceException.class,
                () -> versions.restMapping(GroupKind.of("example.dev", "Widget")))
            .getMessage());
    assertThrows(
        NoResourceMatchException.class,
        () -> union.kindsFor(GroupVersionResource.of("", "", "nodes")));
    assertEquals("event", union.resourceSingularizer("events"));
  }

  @Test
  void prioritiesPickTheCoreGroupsEvents() {
    PriorityRESTMapper mapper =
        new PriorityRESTMapper(
            union(),
            List.of(
                new PriorityRESTMapper.Pattern("", "v1"),
                new PriorityRESTMapper.Pattern(PriorityRESTMapper.ANY, PriorityRESTMapper.ANY)),
            List.of(new PriorityRESTMapper.Pattern("", PriorityRESTMapper.ANY)));
    assertEquals(
        CORE.withResource("events"), mapper.resourceFor(GroupVersionResource.of("", "", "events")));
    assertEquals(CORE.withKind("Event"), mapper.kindFor(GroupVersionResource.of("", "", "events")));
    assertEquals(
        EVENTS.withKind("Event"),
        mapper.kindFor(GroupVersionResource.of("events.k8s.io", "", "events")));
    assertEquals(2, mapper.kindsFor(GroupVersionResource.of("", "", "events")).size());
    PriorityRESTMapper noOpinion =
        new PriorityRESTMapper(
            union(),
            List.of(new PriorityRESTMapper.Pattern(PriorityRESTMapper.ANY, "v1")),
            List.of());
    assertThrows(
        AmbiguousResourceException.class,
        () -> noOpinion.resourceFor(GroupVersionResource.of("", "", "events")));
    assertThrows(
        AmbiguousResourceException.class,
        () -> noOpinion.kindFor(GroupVersionResource.of("", "", "events")));
  }

  @Test
  void theDiscoveryMapperEqualsTheComposedOne() {
    DiscoveryRESTMapper discovery = RealDiscovery.legacyMapper();
    RESTMapper composed = ComposedMapper.of(RealDiscovery.groups(), RealDiscovery.resourceLists());
    List<String> names = new java.util.ArrayList<>();
    for (RESTMapping mapping : discovery.allMappings()) {
      names.add(mapping.resource().resource());
      // client-go's mapper also knows each kind's <Kind>List, and the generic List.
      String listName =
          DefaultRESTMapper.guessResources(
                  mapping
                      .groupVersionKind()
                      .groupVersion()
                      .withKind(mapping.groupVersionKind().kind() + "List"))
              .get(0)
              .resource();
      for (GroupVersionResource query :
          List.of(
              GroupVersionResource.of("", "", mapping.resource().resource()),
              GroupVersionResource.of(
                  mapping.resource().group(), "", mapping.resource().resource()),
              mapping.resource(),
              GroupVersionResource.of("", "", listName),
              GroupVersionResource.of(mapping.resource().group(), "", listName))) {
        assertEquals(composed.kindFor(query), discovery.kindFor(query), query.toString());
        assertEquals(composed.resourceFor(query), discovery.resourceFor(query), query.toString());
        assertEquals(composed.kindsFor(query), discovery.kindsFor(query), query.toString());
        assertEquals(composed.resourcesFor(query), discovery.resourcesFor(query), query.toString());
      }
      GroupKind kind = mapping.groupVersionKind().groupKind();
      assertEquals(composed.restMapping(kind), discovery.restMapping(kind), kind.toString());
      GroupKind list = GroupKind.of(kind.group(), kind.kind() + "List");
      assertEquals(composed.restMapping(list), discovery.restMapping(list), list.toString());
      // A lower-case kind maps as well; Go's answer repeats the kind as it was asked.
      GroupKind lower = GroupKind.of(kind.group(), kind.kind().toLowerCase(java.util.Locale.ROOT));
      RESTMapping goLower = composed.restMapping(lower);
      RESTMapping ours = discovery.restMapping(lower);
      assertEquals(goLower.resource(), ours.resource(), lower.toString());
      assertEquals(goLower.scope(), ours.scope(), lower.toString());
      assertEquals(
          goLower.groupVersionKind().groupVersion(),
          ours.groupVersionKind().groupVersion(),
          lower.toString());
    }
    GroupVersionResource lists = GroupVersionResource.of("", "", "lists");
    assertEquals(composed.kindFor(lists), discovery.kindFor(lists));
    assertEquals(composed.kindsFor(lists), discovery.kindsFor(lists));
    assertTrue(names.size() >= 80, "resources compared: " + names.size());
  }

  @Test
  void theMatchingFormsAnswerAMissWithAnEmptyResultAndAHitAsTheThrowingForms() {
    MultiRESTMapper union = union();
    PriorityRESTMapper priority =
        new PriorityRESTMapper(
            union,
            List.of(new PriorityRESTMapper.Pattern("", "v1")),
            List.of(new PriorityRESTMapper.Pattern("", "v1")));
    RESTMapper core =
        DefaultRESTMapper.builder(CORE).add(CORE.withKind("Pod"), Scope.NAMESPACE).build();
    GroupVersionResource missing = GroupVersionResource.of("", "", "widgets");
    GroupKind missingKind = GroupKind.of("example.dev", "Widget");
    for (RESTMapper mapper : List.of(union, priority, core)) {
      assertEquals(List.of(), mapper.kindsMatching(missing));
      assertEquals(List.of(), mapper.resourcesMatching(missing));
      assertEquals(List.of(), mapper.restMappingsMatching(missingKind));
      assertTrue(mapper.restMappingMatching(missingKind).isEmpty());
      assertThrows(NoMatchException.class, () -> mapper.kindsFor(missing));
      assertThrows(NoMatchException.class, () -> mapper.restMappings(missingKind));
      GroupVersionResource pods = GroupVersionResource.of("", "", "pods");
      assertEquals(mapper.kindsFor(pods), mapper.kindsMatching(pods));
      assertEquals(mapper.resourcesFor(pods), mapper.resourcesMatching(pods));
      GroupKind pod = GroupKind.of("", "Pod");
      assertEquals(mapper.restMappings(pod), mapper.restMappingsMatching(pod));
      assertEquals(mapper.restMapping(pod), mapper.restMappingMatching(pod).orElseThrow());
    }
  }
}
