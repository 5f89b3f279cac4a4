package dev.machinery.cluster.controller.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.core.v1.NamespaceCondition;
import dev.machinery.api.core.v1.NamespaceStatus;
import dev.machinery.core.schema.GroupVersionResource;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The namespace's deletion conditions, as Kubernetes' status_condition_utils.go writes them: every
 * condition the controller owns present, in kube's order, with kube's reasons and messages; the
 * remaining content by resource ({@code resource.group}) and by finalizer, sorted; the transition
 * time kept unless the status flips.
 */
class ConditionUpdaterTest {
  private static final Instant T1 = Instant.parse("2024-01-01T00:00:00Z");
  private static final Instant T2 = Instant.parse("2024-01-01T00:01:00Z");

  private static List<String> rows(NamespaceStatus status) {
    return status.getConditions().stream()
        .map(c -> c.getType() + "|" + c.getStatus() + "|" + c.getReason() + "|" + c.getMessage())
        .collect(Collectors.toList());
  }

  private static NamespaceCondition find(NamespaceStatus status, String type) {
    return status.getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void allIsWellWritesEveryConditionFalse() {
    NamespaceStatus status = new NamespaceStatus();
    assertTrue(new ConditionUpdater(T1).update(status));
    assertEquals(
        List.of(
            "NamespaceDeletionDiscoveryFailure|False|ResourcesDiscovered|All resources successfully"
                + " discovered",
            "NamespaceDeletionGroupVersionParsingFailure|False|ParsedGroupVersions|All legacy kube"
                + " types successfully parsed",
            "NamespaceDeletionContentFailure|False|ContentDeleted|All content successfully deleted,"
                + " may be waiting on finalization",
            "NamespaceContentRemaining|False|ContentRemoved|All content successfully removed",
            "NamespaceFinalizersRemaining|False|ContentHasNoFinalizers|All content-preserving"
                + " finalizers finished"),
        rows(status));
    assertFalse(new ConditionUpdater(T2).update(status), "nothing changed the second time");
  }

  @Test
  void remainingContentIsCountedByResourceAndByFinalizer() {
    NamespaceStatus status = new NamespaceStatus();
    ConditionUpdater updater = new ConditionUpdater(T1);
    Map<GroupVersionResource, Integer> byResource = new LinkedHashMap<>();
    byResource.put(GroupVersionResource.of("example.com", "v1", "widgets"), 2);
    byResource.put(GroupVersionResource.of("", "v1", "configmaps"), 1);
    byResource.put(GroupVersionResource.of("", "v1", "secrets"), 0);
    Map<String, Integer> byFinalizer = new LinkedHashMap<>();
    byFinalizer.put("example.com/hold", 3);
    byFinalizer.put("a.example.com/first", 1);
    updater.contentTotals(byResource, byFinalizer);
    updater.update(status);
    Map<String, NamespaceCondition> byType =
        status.getConditions().stream()
            .collect(Collectors.toMap(NamespaceCondition::getType, c -> c));
    NamespaceCondition remaining = byType.get("NamespaceContentRemaining");
    assertEquals("True", remaining.getStatus());
    assertEquals("SomeResourcesRemain", remaining.getReason());
    assertEquals(
        "Some resources are remaining: configmaps. has 1 resource instances, widgets.example.com"
            + " has 2 resource instances",
        remaining.getMessage());
    NamespaceCondition finalizers = byType.get("NamespaceFinalizersRemaining");
    assertEquals("SomeFinalizersRemain", finalizers.getReason());
    assertEquals(
        "Some content in the namespace has finalizers remaining: a.example.com/first in 1 resource"
            + " instances, example.com/hold in 3 resource instances",
        finalizers.getMessage());
  }

  @Test
  void failuresOfDiscoveryAndOfDeletionAreReported() {
    NamespaceStatus status = new NamespaceStatus();
    ConditionUpdater updater = new ConditionUpdater(T1);
    updater.discoveryFailed("the server is currently unable to handle the request");
    updater.deleteContentFailed("b failed");
    updater.deleteContentFailed("a failed");
    updater.update(status);
    Map<String, NamespaceCondition> byType =
        status.getConditions().stream()
            .collect(Collectors.toMap(NamespaceCondition::getType, c -> c));
    assertEquals("DiscoveryFailed", byType.get("NamespaceDeletionDiscoveryFailure").getReason());
    assertEquals(
        "the server is currently unable to handle the request",
        byType.get("NamespaceDeletionDiscoveryFailure").getMessage());
    NamespaceCondition content = byType.get("NamespaceDeletionContentFailure");
    assertEquals("True", content.getStatus());
    assertEquals("ContentDeletionFailed", content.getReason());
    assertEquals(
        "Failed to delete all resource types, 2 remaining: a failed, b failed",
        content.getMessage());
  }

  @Test
  void theTransitionTimeMovesOnlyWithTheStatus() {
    NamespaceStatus status = new NamespaceStatus();
    ConditionUpdater first = new ConditionUpdater(T1);
    first.contentTotals(Map.of(GroupVersionResource.of("", "v1", "pods"), 1), Map.of());
    first.update(status);
    Object firstTransition = find(status, "NamespaceContentRemaining").getLastTransitionTime();
    ConditionUpdater second = new ConditionUpdater(T2);
    second.contentTotals(Map.of(GroupVersionResource.of("", "v1", "pods"), 2), Map.of());
    assertTrue(second.update(status), "the message changed");
    Map<String, NamespaceCondition> byType =
        status.getConditions().stream()
            .collect(Collectors.toMap(NamespaceCondition::getType, c -> c));
    assertEquals(
        firstTransition,
        byType.get("NamespaceContentRemaining").getLastTransitionTime(),
        "same status: the transition time stays");
    assertEquals(
        "Some resources are remaining: pods. has 2 resource instances",
        byType.get("NamespaceContentRemaining").getMessage());
    assertTrue(new ConditionUpdater(T2).update(status), "now all is removed");
    assertEquals("False", byType.get("NamespaceContentRemaining").getStatus());
    assertNotEquals(
        firstTransition,
        byType.get("NamespaceContentRemaining").getLastTransitionTime(),
        "the status flipped: the transition time moved");
  }
}
