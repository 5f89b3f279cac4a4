package dev.machinery.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A node the cluster simulates: a {@code Node} object with this name, capacity (also its
 * allocatable), labels, taints and pod CIDR, kept alive by a simulated kubelet that heartbeats its
 * {@code kube-node-lease} Lease and runs the pods bound to it.
 *
 * @param name the node's name
 * @param capacity its capacity as quantities by resource name ({@code cpu}, {@code memory}, {@code
 *     pods}, ...)
 * @param labels labels besides kube's well-known ones ({@code kubernetes.io/hostname}, {@code
 *     kubernetes.io/os}, {@code kubernetes.io/arch}), which are always set
 * @param taints taints, each {@code key[=value]:Effect} as {@code kubectl taint} writes them
 * @param podCidr the range its pods' IPs come from, such as {@code 10.244.1.0/24}
 */
public record SimulatedNode(
    String name,
    Map<String, String> capacity,
    Map<String, String> labels,
    List<String> taints,
    String podCidr) {
  /** Kube's default for a node's pods, and the capacity given to simulated nodes. */
  public static final Map<String, String> DEFAULT_CAPACITY =
      Map.of("cpu", "32", "memory", "256Gi", "pods", "110", "ephemeral-storage", "1Ti");

  /**
   * Checks for nulls and copies the collections.
   *
   * @param name see the record description
   * @param capacity see the record description
   * @param labels see the record description
   * @param taints see the record description
   * @param podCidr see the record description
   */
  public SimulatedNode {
    Objects.requireNonNull(name, "name");
    capacity = Map.copyOf(capacity);
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    Objects.requireNonNull(podCidr, "podCidr");
  }

  /**
   * Returns {@code count} nodes named {@code node-1} … {@code node-N}, each with {@link
   * #DEFAULT_CAPACITY}, no extra labels or taints, and pod CIDR {@code 10.244.N.0/24}.
   *
   * @param count how many, 0 to 255
   * @return the nodes
   * @throws IllegalArgumentException when count is out of range
   */
  public static List<SimulatedNode> defaults(int count) {
    if (count < 0 || count > 255) {
      throw new IllegalArgumentException(
          "simulated nodes: count must be between 0 and 255, got " + count);
    }
    java.util.ArrayList<SimulatedNode> nodes = new java.util.ArrayList<>();
    for (int i = 1; i <= count; i++) {
      nodes.add(
          new SimulatedNode(
              "node-" + i, DEFAULT_CAPACITY, Map.of(), List.of(), "10.244." + i + ".0/24"));
    }
    return List.copyOf(nodes);
  }
}
