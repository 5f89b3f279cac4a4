package dev.machinery.cluster.controller.namespace;

import dev.machinery.api.core.v1.NamespaceCondition;
import dev.machinery.api.core.v1.NamespaceStatus;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The status conditions of a namespace being deleted (Kubernetes' {@code
 * namespaceConditionUpdater}): what went wrong in one pass is collected, then {@link #update}
 * writes every condition the controller owns, the failing ones {@code True} with kube's reason and
 * message, the others {@code False} with kube's "all is well" reason and message. A condition's
 * transition time moves only when its status does.
 *
 * <p>Not thread-safe: one pass of one worker uses it.
 */
final class ConditionUpdater {
  /** Discovery failed. */
  static final String DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";

  /** A group version could not be parsed. */
  static final String GROUP_VERSION_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";

  /** Deleting content failed. */
  static final String CONTENT_FAILURE = "NamespaceDeletionContentFailure";

  /** Content remains. */
  static final String CONTENT_REMAINING = "NamespaceContentRemaining";

  /** Content with finalizers remains. */
  static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";

  /** The conditions the controller owns, in kube's order. */
  static final List<String> TYPES =
      List.of(
          DISCOVERY_FAILURE,
          GROUP_VERSION_PARSING_FAILURE,
          CONTENT_FAILURE,
          CONTENT_REMAINING,
          FINALIZERS_REMAINING);

  private static final Map<String, String> OK_MESSAGES =
      Map.of(
          DISCOVERY_FAILURE, "All resources successfully discovered",
          GROUP_VERSION_PARSING_FAILURE, "All legacy kube types successfully parsed",
          CONTENT_FAILURE, "All content successfully deleted, may be waiting on finalization",
          CONTENT_REMAINING, "All content successfully removed",
          FINALIZERS_REMAINING, "All content-preserving finalizers finished");

  private static final Map<String, String> OK_REASONS =
      Map.of(
          DISCOVERY_FAILURE, "ResourcesDiscovered",
          GROUP_VERSION_PARSING_FAILURE, "ParsedGroupVersions",
          CONTENT_FAILURE, "ContentDeleted",
          CONTENT_REMAINING, "ContentRemoved",
          FINALIZERS_REMAINING, "ContentHasNoFinalizers");

  private final Instant now;
  private final List<NamespaceCondition> conditions = new ArrayList<>();
  private final List<String> deleteContentErrors = new ArrayList<>();

  /**
   * @param now the cluster's time, for the transition times
   */
  ConditionUpdater(Instant now) {
    this.now = Objects.requireNonNull(now, "now");
  }

  private NamespaceCondition failing(String type, String reason, String message) {
    NamespaceCondition condition = new NamespaceCondition();
    condition.setType(type);
    condition.setStatus("True");
    condition.setLastTransitionTime(new Time(now));
    condition.setReason(reason);
    condition.setMessage(message);
    return condition;
  }

  /** Discovery failed with this message. */
  void discoveryFailed(String message) {
    conditions.add(failing(DISCOVERY_FAILURE, "DiscoveryFailed", message));
  }

  /** Some group versions could not be parsed. */
  void groupVersionsUnparsed(String message) {
    conditions.add(failing(GROUP_VERSION_PARSING_FAILURE, "GroupVersionParsingFailed", message));
  }

  /** Deleting a resource's content failed with this message. */
  void deleteContentFailed(String message) {
    deleteContentErrors.add(message);
  }

  /**
   * What remains: instances by resource, and by finalizer.
   *
   * @param remainingByResource instances left of each resource (zeros are left out)
   * @param remainingByFinalizer instances holding each finalizer (zeros are left out)
   */
  void contentTotals(
      Map<GroupVersionResource, Integer> remainingByResource,
      Map<String, Integer> remainingByFinalizer) {
    if (!remainingByResource.isEmpty()) {
      List<String> remaining = new ArrayList<>();
      remainingByResource.forEach(
          (resource, count) -> {
            if (count != 0) {
              remaining.add(
                  resource.resource()
                      + "."
                      + resource.group()
                      + " has "
                      + count
                      + " resource instances");
            }
          });
      remaining.sort(null);
      conditions.add(
          failing(
              CONTENT_REMAINING,
              "SomeResourcesRemain",
              "Some resources are remaining: " + String.join(", ", remaining)));
    }
    if (!remainingByFinalizer.isEmpty()) {
      List<String> remaining = new ArrayList<>();
      remainingByFinalizer.forEach(
          (finalizer, count) -> {
            if (count != 0) {
              remaining.add(finalizer + " in " + count + " resource instances");
            }
          });
      remaining.sort(null);
      conditions.add(
          failing(
              FINALIZERS_REMAINING,
              "SomeFinalizersRemain",
              "Some content in the namespace has finalizers remaining: "
                  + String.join(", ", remaining)));
    }
  }

  /**
   * Writes the pass's conditions into a status.
   *
   * @param status the namespace's status, changed in place
   * @return whether anything changed
   */
  boolean update(NamespaceStatus status) {
    if (find(conditions, CONTENT_FAILURE) == null && !deleteContentErrors.isEmpty()) {
      List<String> messages = new ArrayList<>(deleteContentErrors);
      messages.sort(null);
      conditions.add(
          failing(
              CONTENT_FAILURE,
              "ContentDeletionFailed",
              "Failed to delete all resource types, "
                  + messages.size()
                  + " remaining: "
                  + String.join(", ", messages)));
    }
    List<NamespaceCondition> current =
        status.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(status.getConditions());
    boolean changed = false;
    for (String type : TYPES) {
      NamespaceCondition wanted = find(conditions, type);
      if (wanted == null) {
        wanted = new NamespaceCondition();
        wanted.setType(type);
        wanted.setStatus("False");
        wanted.setLastTransitionTime(new Time(now));
        wanted.setReason(OK_REASONS.get(type));
        wanted.setMessage(OK_MESSAGES.get(type));
      }
      NamespaceCondition old = find(current, type);
      if (old == null) {
        current.add(wanted);
        changed = true;
      } else if (!Objects.equals(old.getStatus(), wanted.getStatus())
          || !Objects.equals(old.getMessage(), wanted.getMessage())
          || !Objects.equals(old.getReason(), wanted.getReason())) {
        if (!Objects.equals(old.getStatus(), wanted.getStatus())) {
          old.setLastTransitionTime(new Time(now));
        }
        old.setStatus(wanted.getStatus());
        old.setReason(wanted.getReason());
        old.setMessage(wanted.getMessage());
        changed = true;
      }
    }
    status.setConditions(current);
    return changed;
  }

  private static NamespaceCondition find(List<NamespaceCondition> list, String type) {
    for (NamespaceCondition condition : list) {
      if (type.equals(condition.getType())) {
        return condition;
      }
    }
    return null;
  }

  /** The remaining counts of one pass, keyed in a stable order. */
  static Map<GroupVersionResource, Integer> newResourceCounts() {
    return new LinkedHashMap<>();
  }
}
