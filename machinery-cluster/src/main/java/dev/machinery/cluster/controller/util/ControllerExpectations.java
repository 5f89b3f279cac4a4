package dev.machinery.cluster.controller.util;

import dev.machinery.controller.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a controller waits to see in its informers after it created or deleted pods, as Kubernetes'
 * {@code UIDTrackingControllerExpectations}: a controller that created N pods does not act on its
 * owner again until it observed N pod additions (or the expectation expired after five minutes), so
 * it never creates the same pods twice from a stale cache. Deletions are tracked by pod key, so a
 * deletion observed twice (its update with a deletion timestamp, then its removal) counts once.
 *
 * <p>Thread-safe: event handlers observe and workers expect concurrently.
 */
public final class ControllerExpectations {
  /** How long an expectation holds before the owner is synced anyway (kube's 5 minutes). */
  public static final Duration TIMEOUT = Duration.ofMinutes(5);

  private final Clock clock;
  private final Map<String, Expectation> records = new HashMap<>();

  /**
   * Creates empty expectations.
   *
   * @param clock the clock expirations are judged by
   */
  public ControllerExpectations(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static final class Expectation {
    int add;
    int del;
    Instant timestamp;
    final Set<String> deleteKeys = new HashSet<>();
  }

  /**
   * Tells whether the owner may be synced: no expectation recorded, all fulfilled, or expired.
   *
   * @param ownerKey the owner's {@code namespace/name}
   * @return true when the owner may act
   */
  public synchronized boolean satisfied(String ownerKey) {
    Expectation e = records.get(ownerKey);
    if (e == null) {
      return true;
    }
    if (e.add <= 0 && e.del <= 0) {
      return true;
    }
    return Duration.between(e.timestamp, clock.now()).compareTo(TIMEOUT) > 0;
  }

  /**
   * Records that the owner is about to create pods.
   *
   * @param ownerKey the owner's key
   * @param count how many
   */
  public synchronized void expectCreations(String ownerKey, int count) {
    Expectation e = new Expectation();
    e.add = count;
    e.timestamp = clock.now();
    records.put(ownerKey, e);
  }

  /**
   * Records that the owner is about to delete the pods of the given keys.
   *
   * @param ownerKey the owner's key
   * @param podKeys the pods' {@code namespace/name} keys
   */
  public synchronized void expectDeletions(String ownerKey, Set<String> podKeys) {
    Expectation e = new Expectation();
    e.del = podKeys.size();
    e.deleteKeys.addAll(podKeys);
    e.timestamp = clock.now();
    records.put(ownerKey, e);
  }

  /**
   * Records that one of the expected creations was seen (or will never happen).
   *
   * @param ownerKey the owner's key
   */
  public synchronized void creationObserved(String ownerKey) {
    Expectation e = records.get(ownerKey);
    if (e != null) {
      e.add--;
    }
  }

  /**
   * Records that the deletion of a pod was seen (or will never happen); a key not expected, or
   * already seen, changes nothing.
   *
   * @param ownerKey the owner's key
   * @param podKey the pod's key
   */
  public synchronized void deletionObserved(String ownerKey, String podKey) {
    Expectation e = records.get(ownerKey);
    if (e != null && e.deleteKeys.remove(podKey)) {
      e.del--;
    }
  }

  /**
   * Forgets an owner's expectations (when it is deleted).
   *
   * @param ownerKey the owner's key
   */
  public synchronized void delete(String ownerKey) {
    records.remove(ownerKey);
  }

  /**
   * Returns the creations and deletions still expected, for tests and logs.
   *
   * @param ownerKey the owner's key
   * @return {@code [add, del]}, or null without a record
   */
  public synchronized int[] pending(String ownerKey) {
    Expectation e = records.get(ownerKey);
    return e == null ? null : new int[] {e.add, e.del};
  }
}
