package dev.machinery.controller.client;

import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.controller.leaderelection.LeaderElectionRecord;
import dev.machinery.controller.leaderelection.LeaseLock;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link LeaseLock} on a {@code coordination.k8s.io/v1} Lease ({@code resourcelock.LeaseLock}):
 * the record is the Lease's {@code spec} ({@code holderIdentity}, {@code leaseDurationSeconds},
 * {@code acquireTime}, {@code renewTime}, {@code leaseTransitions}); updates carry the resource
 * version last read, so a replica that wrote in between makes them fail with a conflict.
 *
 * <p>Thread-safe.
 */
public final class ClientLeaseLock implements LeaseLock {
  /** The Leases resource. */
  public static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");

  private final ResourceClient<Unstructured> leases;
  private final String namespace;
  private final String name;
  private final String identity;
  private Unstructured lease;

  /**
   * Creates a lock on a Lease.
   *
   * @param client the client
   * @param namespace the Lease's namespace
   * @param name the Lease's name
   * @param identity this replica's identity
   */
  public ClientLeaseLock(Client client, String namespace, String name, String identity) {
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.name = Objects.requireNonNull(name, "name");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.leases = client.resources(LEASES).inNamespace(namespace);
  }

  @Override
  public Optional<LeaderElectionRecord> get() {
    Unstructured current;
    try {
      current = leases.get(name);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        synchronized (this) {
          lease = null;
        }
        return Optional.empty();
      }
      throw e;
    }
    synchronized (this) {
      lease = current;
    }
    return Optional.of(recordOf(current));
  }

  @Override
  public void create(LeaderElectionRecord record) {
    Unstructured fresh = new Unstructured();
    fresh.setApiVersion("coordination.k8s.io/v1");
    fresh.setKind("Lease");
    fresh.setNamespace(namespace);
    fresh.setName(name);
    fresh.setField("spec", specOf(record));
    Unstructured created = leases.create(fresh);
    synchronized (this) {
      lease = created;
    }
  }

  @Override
  public void update(LeaderElectionRecord record) {
    Unstructured current;
    synchronized (this) {
      if (lease == null) {
        throw new IllegalStateException(
            "lease " + describe() + " not initialized, call get or create first");
      }
      current = lease.deepCopy();
    }
    current.setField("spec", specOf(record));
    Unstructured updated = leases.update(current);
    synchronized (this) {
      lease = updated;
    }
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public String describe() {
    return namespace + "/" + name;
  }

  static Map<String, Object> specOf(LeaderElectionRecord record) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("holderIdentity", record.holderIdentity());
    spec.put("leaseDurationSeconds", (long) record.leaseDurationSeconds());
    if (record.acquireTime() != null) {
      spec.put("acquireTime", new MicroTime(record.acquireTime()).toString());
    }
    if (record.renewTime() != null) {
      spec.put("renewTime", new MicroTime(record.renewTime()).toString());
    }
    spec.put("leaseTransitions", (long) record.leaderTransitions());
    return spec;
  }

  static LeaderElectionRecord recordOf(Unstructured lease) {
    return new LeaderElectionRecord(
        lease.nestedString("spec", "holderIdentity").orElse(""),
        lease.nestedLong("spec", "leaseDurationSeconds").orElse(0L).intValue(),
        time(lease, "acquireTime"),
        time(lease, "renewTime"),
        lease.nestedLong("spec", "leaseTransitions").orElse(0L).intValue());
  }

  private static Instant time(Unstructured lease, String field) {
    return lease.nestedString("spec", field).map(t -> MicroTime.parse(t).instant()).orElse(null);
  }
}
