package dev.machinery.controller.leaderelection;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An in-memory lease shared by several replicas' locks, with a resource version for optimistic
 * concurrency, recording the calls each lock made. Like resourcelock's LeaseLock, an update before
 * any get or create is refused without reaching the "server".
 */
final class FakeLeaseLock implements LeaseLock {
  /** The shared lease. */
  static final class Lease {
    LeaderElectionRecord record;
    long version;
    boolean failWrites;
  }

  private final Lease lease;
  private final String identity;
  final List<String> actions = new ArrayList<>();
  private Long readVersion;

  FakeLeaseLock(Lease lease, String identity) {
    this.lease = lease;
    this.identity = identity;
  }

  @Override
  public Optional<LeaderElectionRecord> get() {
    synchronized (lease) {
      actions.add("get");
      if (lease.record == null) {
        readVersion = null;
        return Optional.empty();
      }
      readVersion = lease.version;
      return Optional.of(lease.record);
    }
  }

  @Override
  public void create(LeaderElectionRecord record) {
    synchronized (lease) {
      actions.add("create");
      if (lease.record != null) {
        throw ApiErrors.newAlreadyExists(new GroupResource("coordination.k8s.io", "leases"), "bar");
      }
      lease.record = record;
      readVersion = ++lease.version;
    }
  }

  @Override
  public void update(LeaderElectionRecord record) {
    synchronized (lease) {
      if (readVersion == null) {
        throw new IllegalStateException("lease not initialized, call get or create first");
      }
      actions.add("update");
      if (lease.failWrites) {
        throw ApiErrors.newServiceUnavailable("etcd is down");
      }
      if (readVersion != lease.version) {
        throw ApiErrors.newConflict(
            new GroupResource("coordination.k8s.io", "leases"),
            "bar",
            "the object has been modified");
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
    return "foo/bar";
  }

  List<String> actions() {
    synchronized (lease) {
      return List.copyOf(actions);
    }
  }
}
