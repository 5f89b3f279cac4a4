package dev.machinery.cluster.kubelet;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Hands out a node's pod IPs from its IPv4 pod CIDR, as a CNI's host-local IPAM does: the network
 * and gateway addresses ({@code .0}, {@code .1}) and the broadcast address are never given, each
 * pod keeps its address until released, and addresses already held (read back from pods' status
 * after a restart) are reserved.
 *
 * <p>Thread-safe.
 */
public final class PodAddresses {
  private final long base;
  private final int size;
  private final String cidr;
  private final BitSet used = new BitSet();
  private final Map<String, Integer> byPod = new HashMap<>();
  private int next = 2;

  /**
   * Makes an allocator over a CIDR.
   *
   * @param cidr an IPv4 CIDR such as {@code 10.244.1.0/24}, prefix 8 to 30
   * @throws IllegalArgumentException naming the CIDR when it is not one
   */
  public PodAddresses(String cidr) {
    this.cidr = cidr;
    int slash = cidr.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("pod CIDR \"" + cidr + "\": no prefix length");
    }
    int prefix;
    try {
      prefix = Integer.parseInt(cidr.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("pod CIDR \"" + cidr + "\": bad prefix length", e);
    }
    if (prefix < 8 || prefix > 30) {
      throw new IllegalArgumentException(
          "pod CIDR \"" + cidr + "\": prefix length must be 8 to 30, got " + prefix);
    }
    long address = toLong(cidr.substring(0, slash), cidr);
    long mask = (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
    this.base = address & mask;
    this.size = 1 << (32 - prefix);
  }

  /**
   * Returns the pod's address, giving it the next free one the first time.
   *
   * @param pod the pod's key
   * @return the address
   * @throws IllegalStateException when the range is exhausted
   */
  public synchronized String allocate(String pod) {
    Integer held = byPod.get(pod);
    if (held != null) {
      return toString(base + held);
    }
    for (int tried = 0; tried < size; tried++) {
      int candidate = next;
      next = next + 1 >= size - 1 ? 2 : next + 1;
      if (candidate >= 2 && candidate < size - 1 && !used.get(candidate)) {
        used.set(candidate);
        byPod.put(pod, candidate);
        return toString(base + candidate);
      }
    }
    throw new IllegalStateException("pod CIDR " + cidr + " has no free address");
  }

  /**
   * Records an address a pod already holds (from its status), when it lies in the range.
   *
   * @param pod the pod's key
   * @param address the address
   */
  public synchronized void reserve(String pod, String address) {
    long value;
    try {
      value = toLong(address, address);
    } catch (IllegalArgumentException e) {
      return;
    }
    long offset = value - base;
    if (offset < 2 || offset >= size - 1 || byPod.containsKey(pod)) {
      return;
    }
    used.set((int) offset);
    byPod.put(pod, (int) offset);
  }

  /**
   * Returns the address a pod holds.
   *
   * @param pod the pod's key
   * @return the address, or empty
   */
  public synchronized Optional<String> held(String pod) {
    Integer held = byPod.get(pod);
    return held == null ? Optional.empty() : Optional.of(toString(base + held));
  }

  /**
   * Frees a pod's address.
   *
   * @param pod the pod's key
   */
  public synchronized void release(String pod) {
    Integer held = byPod.remove(pod);
    if (held != null) {
      used.clear(held);
    }
  }

  private static long toLong(String address, String context) {
    String[] parts = address.split("\\.");
    if (parts.length != 4) {
      throw new IllegalArgumentException("\"" + context + "\" is not an IPv4 address or CIDR");
    }
    long value = 0;
    for (String part : parts) {
      int octet;
      try {
        octet = Integer.parseInt(part);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("\"" + context + "\" is not an IPv4 address or CIDR", e);
      }
      if (octet < 0 || octet > 255) {
        throw new IllegalArgumentException("\"" + context + "\" is not an IPv4 address or CIDR");
      }
      value = (value << 8) | octet;
    }
    return value;
  }

  private static String toString(long value) {
    return ((value >> 24) & 255)
        + "."
        + ((value >> 16) & 255)
        + "."
        + ((value >> 8) & 255)
        + "."
        + (value & 255);
  }
}
