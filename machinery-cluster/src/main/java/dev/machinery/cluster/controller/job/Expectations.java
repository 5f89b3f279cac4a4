package dev.machinery.cluster.controller.job;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Creations and deletions a controller made and has not yet seen in its informer (Go's {@code
 * ControllerExpectations}, keyed by the owner's uid): until they are seen, or five minutes passed,
 * the owner is not synced again, so a stale cache does not make it create or delete twice.
 *
 * <p>Thread-safe.
 */
final class Expectations {
  /** Go's {@code ExpectationsTimeout}. */
  static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  private static final class Pending {
    int adds;
    final Set<String> deletes = new HashSet<>();
    Instant since = Instant.now();
  }

  void expectCreations(String key, int count) {
    pending.compute(
        key,
        (k, p) -> {
          Pending next = p == null ? new Pending() : p;
          next.adds += count;
          next.since = Instant.now();
          return next;
        });
  }

  void expectDeletion(String key, String podUid) {
    pending.compute(
        key,
        (k, p) -> {
          Pending next = p == null ? new Pending() : p;
          next.deletes.add(podUid);
          next.since = Instant.now();
          return next;
        });
  }

  void creationObserved(String key) {
    pending.computeIfPresent(
        key,
        (k, p) -> {
          p.adds--;
          return p.adds <= 0 && p.deletes.isEmpty() ? null : p;
        });
  }

  void deletionObserved(String key, String podUid) {
    pending.computeIfPresent(
        key,
        (k, p) -> {
          p.deletes.remove(podUid);
          return p.adds <= 0 && p.deletes.isEmpty() ? null : p;
        });
  }

  boolean satisfied(String key) {
    Pending p = pending.get(key);
    if (p == null) {
      return true;
    }
    synchronized (p) {
      if ((p.adds <= 0 && p.deletes.isEmpty())
          || Duration.between(p.since, Instant.now()).compareTo(TIMEOUT) > 0) {
        pending.remove(key, p);
        return true;
      }
      return false;
    }
  }

  void forget(String key) {
    pending.remove(key);
  }
}
