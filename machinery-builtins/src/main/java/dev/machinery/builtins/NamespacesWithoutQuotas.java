package dev.machinery.builtins;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The namespaces a live list recently found without ResourceQuotas, as kube's quota accessor
 * remembers its live lookups: for {@link #TTL} each, the {@value #SIZE} most recent, so that writes
 * into a namespace without quotas read the storage at most once in that time when the watch cache
 * shows none. Thread-safe.
 */
final class NamespacesWithoutQuotas {
  /** How long a live list's answer is trusted, as kube's {@code liveTTL}. */
  static final Duration TTL = Duration.ofSeconds(30);

  /** How many namespaces are remembered, as the size of kube's live-lookup cache. */
  static final int SIZE = 100;

  private final LongSupplier nanoTime;
  private long writes;
  private final Map<String, Long> seenAt =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
          return size() > SIZE;
        }
      };

  NamespacesWithoutQuotas(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** Whether a live list found the namespace without quotas less than {@link #TTL} ago. */
  synchronized boolean known(String namespace) {
    Long at = seenAt.get(namespace);
    if (at == null) {
      return false;
    }
    if (nanoTime.getAsLong() - at >= TTL.toNanos()) {
      seenAt.remove(namespace);
      return false;
    }
    return true;
  }

  /**
   * How many quota writes were seen: a live list's answer is remembered only when none was seen
   * while it ran ({@link #remember}).
   */
  synchronized long writes() {
    return writes;
  }

  /**
   * Notes that a live list found the namespace without quotas now, unless a quota was written since
   * the list began (it may have missed it).
   *
   * @param writesBefore {@link #writes()} before the list
   */
  synchronized void remember(String namespace, long writesBefore) {
    if (writes == writesBefore) {
      seenAt.put(namespace, nanoTime.getAsLong());
    }
  }

  /** Forgets the namespace: a quota is being written in it. */
  synchronized void forget(String namespace) {
    writes++;
    seenAt.remove(namespace);
  }
}
