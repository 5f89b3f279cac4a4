package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The leases keys with a time to live are written with, shared as kube-apiserver's etcd store
 * shares them: a lease is granted for the time asked plus a reuse window (5 % of the time, at most
 * a minute), and later keys asking the same time are attached to it while it still outlives them by
 * their time and by no more than that window, up to 1,000 keys a lease. So writing Events costs one
 * lease a minute, not one a write, and each key lives its time and at most the window longer. One
 * lease is kept, for the last time asked, as in kube-apiserver; one etcd no longer knows (revoked,
 * or etcd's data restored from before it) is let go of ({@link #forget}). Thread-safe.
 */
final class EtcdLeases {
  /** The longest a key may outlive its time by sharing a lease: a minute. */
  static final long MAX_REUSE_SECONDS = 60;

  /** The share of a time a key may outlive it by sharing a lease. */
  static final double REUSE_SHARE = 0.05;

  /** The most keys attached to one lease. */
  static final int MAX_KEYS = 1_000;

  private final EtcdClient client;
  private final LongSupplier nanoTime;
  private long leaseId;
  private long expiresAt;
  private int attached;
  private boolean granted;

  EtcdLeases(EtcdClient client) {
    this(client, System::nanoTime);
  }

  /** With another clock (for tests). */
  EtcdLeases(EtcdClient client, LongSupplier nanoTime) {
    this.client = client;
    this.nanoTime = nanoTime;
  }

  /**
   * The lease to attach a key written now with a time to live to: the one kept, when it expires
   * after the key's time and within the reuse window of it, else a new one granted.
   *
   * @param ttlSeconds the key's time to live, at least 1
   * @return the lease's ID
   */
  synchronized long leaseFor(long ttlSeconds) {
    long now = nanoTime.getAsLong();
    long reuse = Math.min(MAX_REUSE_SECONDS, (long) (REUSE_SHARE * ttlSeconds));
    long ttl = TimeUnit.SECONDS.toNanos(ttlSeconds);
    boolean outlivesKey = granted && expiresAt - (now + ttl) > 0;
    boolean withinWindow =
        granted && (now + ttl + TimeUnit.SECONDS.toNanos(reuse)) - expiresAt >= 0;
    if (outlivesKey && withinWindow && attached < MAX_KEYS) {
      attached++;
      return leaseId;
    }
    long asked = ttlSeconds + reuse;
    ObjectNode grant = EtcdClient.object();
    grant.put("TTL", Long.toString(asked));
    JsonNode answer = client.call("/v3/lease/grant", grant);
    String error = answer.path("error").asText("");
    long id = EtcdClient.number(answer.path("ID"));
    if (!error.isEmpty() || id == 0) {
      throw EtcdClient.unavailable(
          "etcd granted no lease of " + asked + " s: " + (error.isEmpty() ? answer : error));
    }
    leaseId = id;
    expiresAt = now + TimeUnit.SECONDS.toNanos(asked);
    attached = 1;
    granted = true;
    return id;
  }

  /**
   * Lets go of a lease etcd no longer knows, so that the next key gets a new one.
   *
   * @param lease the lease's ID
   */
  synchronized void forget(long lease) {
    if (granted && leaseId == lease) {
      granted = false;
    }
  }
}
