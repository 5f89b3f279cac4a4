package dev.machinery.apiserver.storage;

import java.util.Objects;

/**
 * One change a watch reports, as etcd v3 reports it: a put (create or update) or a delete, at a
 * revision.
 *
 * <p>Immutable.
 *
 * @param type what happened
 * @param kv for a put the new value; for a delete the value the key held before it, with {@code
 *     modRevision} set to the revision of the delete
 * @param previous for an update the value before it, otherwise {@code null}
 */
public record StorageEvent(Type type, KeyValue kv, KeyValue previous) {
  /**
   * Checks for nulls.
   *
   * @param type see the record description
   * @param kv see the record description
   * @param previous see the record description
   */
  public StorageEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kv, "kv");
  }

  /**
   * Returns the revision of the change.
   *
   * @return the revision
   */
  public long revision() {
    return kv.modRevision();
  }

  /**
   * Whether the put created the key.
   *
   * @return true for a put whose key did not exist before
   */
  public boolean isCreate() {
    return type == Type.PUT && kv.createRevision() == kv.modRevision();
  }

  /** The kinds of change. Immutable. */
  public enum Type {
    /** A key was created or updated. */
    PUT,
    /** A key was deleted. */
    DELETE
  }
}
