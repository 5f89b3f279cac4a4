package dev.machinery.controller;

import dev.machinery.controller.leaderelection.LeaderElectionRecord;
import dev.machinery.controller.leaderelection.LeaseLock;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import java.util.Optional;

/** A lease in memory with optimistic concurrency, one lock object per replica. */
final class MemoryLeaseLock implements LeaseLock {
  /** The shared lease. */
  static final class Lease {
    LeaderElectionRecord record;
    long version;
  }

  private final Lease lease;
  private final String identity;
  private long readVersion = -1;

  MemoryLeaseLock(Lease lease, String identity) {
    this.lease = lease;
    this.identity = identity;
  }

  @Override
  public Optional<LeaderElectionRecord> get() {
    synchronized (lease) {
      readVersion = lease.version;
      return Optional.ofNullable(lease.record);
    }
  }

  @Override
  public void create(LeaderElectionRecord record) {
    synchronized (lease) {
      if (lease.record != null) {
        throw ApiErrors.newAlreadyExists(new GroupResource("coordination.k8s.io", "leases"), "l");
      }
      lease.record = record;
      readVersion = ++lease.version;
    }
  }

  @Override
  public void update(LeaderElectionRecord record) {
    synchronized (lease) {
      if (readVersion != lease.version) {
        throw ApiErrors.newConflict(
            new GroupResource("coordination.k8s.io", "leases"), "l", "modified");
      }
      lease.record = record;
      readVersion = ++lease.version;
    }
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public String describe() {
    return "ns/l";
  }
}
