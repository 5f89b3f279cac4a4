package dev.machinery.cluster.controller.daemonset;

import java.nio.charset.StandardCharsets;

/**
 * The name hash of controller revisions (Go's {@code controller.ComputeHash}, then {@code
 * rand.SafeEncodeString}): FNV-32a of the revision's data and the collision count, its decimal
 * digits mapped to the alphabet {@code bcdfghjklmnpqrstvwxz2456789}.
 *
 * <p>Stateless; thread-safe.
 */
final class Revisions {
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private Revisions() {}

  /**
   * The hash of a revision's data.
   *
   * @param data the revision's data, as JSON
   * @param collisionCount the set's collision count, or null
   * @return the hash, safe in a name
   */
  static String hash(String data, Integer collisionCount) {
    int hash = 0x811c9dc5;
    byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    if (collisionCount != null) {
      int count = collisionCount;
      for (int shift = 0; shift < 32; shift += 8) {
        hash ^= (count >>> shift) & 0xff;
        hash *= 0x01000193;
      }
    }
    return safeEncode(Integer.toUnsignedString(hash));
  }

  /** Go's {@code rand.SafeEncodeString}. */
  static String safeEncode(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      out.append(ALPHANUMS.charAt((b & 0xff) % ALPHANUMS.length()));
    }
    return out.toString();
  }
}
