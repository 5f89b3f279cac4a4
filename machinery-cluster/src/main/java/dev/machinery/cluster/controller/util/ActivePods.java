package dev.machinery.cluster.controller.util;

import dev.machinery.api.core.v1.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The order in which a controller deletes pods on a scale-down, as Kubernetes' {@code
 * ActivePodsWithRanks}: the first pods of the order go first. A pod comes earlier when it is
 * unscheduled; pending before unknown before running; not ready; of a lower {@code
 * controller.kubernetes.io/pod-deletion-cost}; on a node holding more related pods (its rank);
 * ready for less time (on a logarithmic scale, ties broken by UID); with more container restarts;
 * newer (logarithmic too).
 *
 * <p>Immutable, thread-safe.
 */
public final class ActivePods implements Comparator<Integer> {
  /** The annotation whose integer value makes a pod cheaper (lower) or dearer to delete. */
  public static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  private final List<Pod> pods;
  private final int[] ranks;
  private final Instant now;

  private ActivePods(List<Pod> pods, int[] ranks, Instant now) {
    this.pods = pods;
    this.ranks = ranks;
    this.now = now;
  }

  /**
   * Orders pods for deletion, each ranked by the number of active related pods on its node (kube's
   * {@code getPodsRankedByRelatedPodsOnSameNode}).
   *
   * @param pods the pods to order
   * @param related the pods whose count per node ranks them (the pods of every ReplicaSet of the
   *     same owner)
   * @param now the time ready and creation times are judged against
   * @return the pods, the first to delete first
   */
  public static List<Pod> rankedForDeletion(List<Pod> pods, List<Pod> related, Instant now) {
    Map<String, Integer> onNode = new HashMap<>();
    for (Pod pod : related) {
      if (Pods.isActive(pod)) {
        onNode.merge(nodeName(pod), 1, Integer::sum);
      }
    }
    int[] ranks = new int[pods.size()];
    for (int i = 0; i < pods.size(); i++) {
      ranks[i] = onNode.getOrDefault(nodeName(pods.get(i)), 0);
    }
    return sorted(pods, ranks, now);
  }

  /**
   * Sorts pods by the deletion order with the given ranks (stable).
   *
   * @param pods the pods
   * @param ranks one rank per pod: higher goes first
   * @param now the time ready and creation times are judged against, or null for none
   * @return the pods in order
   */
  public static List<Pod> sorted(List<Pod> pods, int[] ranks, Instant now) {
    if (ranks.length != pods.size()) {
      throw new IllegalArgumentException(
          "ranks has " + ranks.length + " entries for " + pods.size() + " pods");
    }
    ActivePods order = new ActivePods(List.copyOf(pods), ranks.clone(), now);
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < pods.size(); i++) {
      indexes.add(i);
    }
    indexes.sort(order);
    List<Pod> result = new ArrayList<>();
    for (int i : indexes) {
      result.add(pods.get(i));
    }
    return result;
  }

  /**
   * Tells whether the pod at index {@code i} goes before the one at {@code j}.
   *
   * @param i an index
   * @param j another
   * @return true when {@code i} is deleted first
   */
  public boolean less(int i, int j) {
    Pod a = pods.get(i);
    Pod b = pods.get(j);
    String nodeA = nodeName(a);
    String nodeB = nodeName(b);
    if (!nodeA.equals(nodeB) && (nodeA.isEmpty() || nodeB.isEmpty())) {
      return nodeA.isEmpty();
    }
    int phaseA = phaseOrdinal(a);
    int phaseB = phaseOrdinal(b);
    if (phaseA != phaseB) {
      return phaseA < phaseB;
    }
    boolean readyA = Pods.isReady(a);
    boolean readyB = Pods.isReady(b);
    if (readyA != readyB) {
      return !readyA;
    }
    int costA = deletionCost(a);
    int costB = deletionCost(b);
    if (costA != costB) {
      return costA < costB;
    }
    if (ranks[i] != ranks[j]) {
      return ranks[i] > ranks[j];
    }
    if (readyA) {
      Instant timeA = Pods.readyTime(a);
      Instant timeB = Pods.readyTime(b);
      if (!Objects.equals(timeA, timeB)) {
        return newerFirst(timeA, timeB, a, b);
      }
    }
    int restartsA = Pods.maxContainerRestarts(a);
    int restartsB = Pods.maxContainerRestarts(b);
    if (restartsA != restartsB) {
      return restartsA > restartsB;
    }
    Instant createdA = a.getMetadata().getCreationTimestamp();
    Instant createdB = b.getMetadata().getCreationTimestamp();
    if (!Objects.equals(createdA, createdB)) {
      return newerFirst(createdA, createdB, a, b);
    }
    return false;
  }

  private boolean newerFirst(Instant timeA, Instant timeB, Pod a, Pod b) {
    if (now == null || timeA == null || timeB == null) {
      return afterOrZero(timeA, timeB);
    }
    long diff = logarithmicRank(timeA) - logarithmicRank(timeB);
    if (diff == 0) {
      return uid(a).compareTo(uid(b)) < 0;
    }
    return diff < 0;
  }

  private long logarithmicRank(Instant time) {
    Duration age = Duration.between(time, now);
    if (age.isNegative() || age.isZero()) {
      return -1;
    }
    double nanos = age.getSeconds() * 1e9 + age.getNano();
    return (long) (Math.log(nanos) / Math.log(2));
  }

  private static boolean afterOrZero(Instant a, Instant b) {
    if (a == null || b == null) {
      return a == null;
    }
    return a.isAfter(b);
  }

  @Override
  public int compare(Integer i, Integer j) {
    if (less(i, j)) {
      return -1;
    }
    return less(j, i) ? 1 : 0;
  }

  private static String uid(Pod pod) {
    String uid = pod.getMetadata().getUid();
    return uid == null ? "" : uid;
  }

  private static String nodeName(Pod pod) {
    return pod.getSpec() == null || pod.getSpec().getNodeName() == null
        ? ""
        : pod.getSpec().getNodeName();
  }

  private static int phaseOrdinal(Pod pod) {
    return switch (Pods.phase(pod)) {
      case Pods.PENDING -> 0;
      case Pods.UNKNOWN -> 1;
      case Pods.RUNNING -> 2;
      default -> 0;
    };
  }

  /**
   * Returns a pod's deletion cost: its annotation's 32-bit integer, 0 when absent or invalid.
   *
   * @param pod the pod
   * @return the cost
   */
  public static int deletionCost(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(DELETION_COST);
    if (value == null) {
      return 0;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
