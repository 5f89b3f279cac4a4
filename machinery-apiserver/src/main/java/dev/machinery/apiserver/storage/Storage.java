package dev.machinery.apiserver.storage;

import java.util.Optional;

/**
 * A versioned key-value store with the operations of etcd v3 that a Kubernetes-style server needs:
 * one revision counter for the whole store, every write bumping it; reads at the latest or an
 * earlier revision; compare-and-swap writes on a key's {@code modRevision}; range reads in pages;
 * watches from a revision; compaction of old revisions. Keys are strings ordered by their UTF-8
 * bytes, values opaque bytes (the server stores encoded objects).
 *
 * <p>Each operation maps to one etcd request, so an etcd-backed store implements this interface
 * directly: {@link #create} is a transaction on {@code create_revision == 0}, {@link #update} and
 * {@link #delete} are transactions on {@code mod_revision}, {@link #list} is a range read with
 * {@code revision} and {@code limit}, {@link #watch} is a watch with {@code start_revision}. The
 * contract every implementation must meet is the test suite {@code
 * dev.machinery.apiserver.storage.testing.StorageContract} in this module's test jar.
 *
 * <p>Implementations are safe to use from many threads at once.
 */
public interface Storage extends AutoCloseable {
  /**
   * Whether every read is answered from this process's memory, never waiting on I/O or on a lock
   * held for long; a server may then answer reads on an event loop ({@code
   * ApiServer.Builder#readsWithoutWaiting}).
   *
   * @return false unless the store knows; false by default
   */
  default boolean answersFromMemory() {
    return false;
  }

  /**
   * Whether a value this store returned was kept in a form it would no longer write (encrypted at
   * rest with a provider or key that is no longer the first), so that an update must write it again
   * even when the object is unchanged, as kube-apiserver rewrites stale values.
   *
   * @param kv a value this store returned
   * @return false unless the store knows; false by default
   */
  default boolean isStale(KeyValue kv) {
    return false;
  }

  /**
   * Returns the latest revision of the store: that of its last write, 0 when empty and new.
   *
   * @return the revision
   */
  long currentRevision();

  /**
   * Returns the oldest revision still readable: reads and watches at an earlier one fail with
   * {@link StorageException.Kind#COMPACTED}.
   *
   * @return the compacted revision (0 when nothing has been compacted)
   */
  long compactedRevision();

  /**
   * Reads a key at the latest revision.
   *
   * @param key the key
   * @return its value, or empty when absent
   */
  Optional<KeyValue> get(String key);

  /**
   * Reads one page of the keys that start with a prefix.
   *
   * @param prefix the prefix (empty for every key)
   * @param revision the revision to read at, or 0 for the latest
   * @param startKey the first key to include (for a continued list: the key after the last one
   *     returned), or {@code null} to start at the prefix
   * @param limit the most items to return, or 0 for all
   * @return the page, with the revision it was read at
   * @throws StorageException of kind {@code COMPACTED} when {@code revision} is older than {@link
   *     #compactedRevision()}, or of kind {@code UNAVAILABLE} when it is in the future
   */
  ListResult list(String prefix, long revision, String startKey, int limit);

  /**
   * Reads one page as {@link #list(String, long, String, int)} does, and counts the keys under the
   * prefix that follow it ({@link ListResult#remaining()}) when asked: etcd's range answer counts
   * them for free, a store that must walk them to count does so only then.
   *
   * @param prefix the prefix (empty for every key)
   * @param revision the revision to read at, or 0 for the latest
   * @param startKey the first key to include, or {@code null} to start at the prefix
   * @param limit the most items to return, or 0 for all
   * @param countRemaining whether to count the keys after the page
   * @return the page; its {@code remaining} is -1 when not counted
   * @throws StorageException as {@link #list(String, long, String, int)}
   */
  default ListResult list(
      String prefix, long revision, String startKey, int limit, boolean countRemaining) {
    return list(prefix, revision, startKey, limit);
  }

  /**
   * Whether the keys under a prefix at one revision are exactly those at an earlier one, for a
   * cache that holds the prefix as it was at the earlier revision and must know whether it may
   * answer for the later one (a consistent read served from a watch cache, as kube-apiserver serves
   * them, KEP-2340). A store answers true only when it can tell with a cheap request or two; false
   * when something changed or it cannot tell, and the caller then reads the store itself.
   *
   * @param prefix the prefix
   * @param afterRevision the revision the cache holds
   * @param atRevision the revision asked for, not before {@code afterRevision}
   * @param keysAtAfter how many keys the cache holds under the prefix
   * @return true when no key under the prefix was created, changed or deleted in between
   */
  default boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    return false;
  }

  /**
   * Reads the store's current revision and tells whether the keys under a prefix at it are exactly
   * those at an earlier revision: {@link #currentRevision()} and {@link #unchangedSince} answered
   * together, for a cache deciding whether it may answer a consistent read. A remote store may
   * answer both with fewer requests than the two calls (etcd: a one-key count, and only when the
   * revision moved, one transaction of two ranges). By default the two methods are called in turn,
   * the second only when the first shows the store ahead of {@code afterRevision}.
   *
   * @param prefix the prefix
   * @param afterRevision the revision the cache holds
   * @param keysAtAfter how many keys the cache holds under the prefix
   * @return the current revision, and whether nothing under the prefix changed since {@code
   *     afterRevision}
   */
  default RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
    long current = currentRevision();
    return new RevisionCheck(
        current,
        current <= afterRevision || unchangedSince(prefix, afterRevision, current, keysAtAfter));
  }

  /**
   * Whether {@link #unchangedSince} can answer true. A cache behind a store that cannot tell reads
   * the store at once, rather than wait for changes that may never come (its resource may be idle
   * while others are written).
   *
   * @return true when the store implements {@link #unchangedSince}
   */
  default boolean tellsUnchanged() {
    return false;
  }

  /**
   * Creates a key that stays until it is deleted: {@link #create(String, byte[], long)} with no
   * time to live.
   *
   * @param key the key
   * @param value the bytes
   * @return the stored value, with its revisions
   * @throws StorageException of kind {@code KEY_EXISTS} when the key is present
   */
  default KeyValue create(String key, byte[] value) {
    return create(key, value, 0);
  }

  /**
   * Creates a key, which the store deletes by itself once {@code ttlSeconds} have passed without
   * another write of it (a time to live, as kube-apiserver stores Events: in etcd, a lease). The
   * store deletes an expired key as any delete, with a {@code DELETE} event of its own revision, at
   * its own pace: a key may outlive its time by a little (etcd checks its leases every half second,
   * and kube-apiserver's leases are shared by keys written within a minute of each other, so they
   * run up to 5 % of the time, at most a minute, longer).
   *
   * @param key the key
   * @param value the bytes
   * @param ttlSeconds the time to live in seconds, or 0 for a key that stays until deleted
   * @return the stored value, with its revisions
   * @throws StorageException of kind {@code KEY_EXISTS} when the key is present
   * @throws IllegalArgumentException when {@code ttlSeconds} is negative
   */
  KeyValue create(String key, byte[] value, long ttlSeconds);

  /**
   * Replaces a key's value if it is still at the revision the caller read; the key then stays until
   * it is deleted: {@link #update(String, long, byte[], long)} with no time to live.
   *
   * @param key the key
   * @param expectedModRevision the {@code modRevision} the caller read, or 0 for any
   * @param value the new bytes
   * @return the stored value, with its revisions
   * @throws StorageException of kind {@code KEY_NOT_FOUND} when absent, or {@code CONFLICT} (with
   *     the key's current revision) when it has changed since
   */
  default KeyValue update(String key, long expectedModRevision, byte[] value) {
    return update(key, expectedModRevision, value, 0);
  }

  /**
   * Replaces a key's value if it is still at the revision the caller read, with a time to live
   * counted from this write ({@link #create(String, byte[], long)}); with 0 the key stays until
   * deleted, whatever time it had before (as an etcd put without a lease).
   *
   * @param key the key
   * @param expectedModRevision the {@code modRevision} the caller read, or 0 for any
   * @param value the new bytes
   * @param ttlSeconds the time to live in seconds from this write, or 0 for none
   * @return the stored value, with its revisions
   * @throws StorageException of kind {@code KEY_NOT_FOUND} when absent, or {@code CONFLICT} (with
   *     the key's current revision) when it has changed since
   * @throws IllegalArgumentException when {@code ttlSeconds} is negative
   */
  KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds);

  /**
   * Deletes a key if it is still at the revision the caller read.
   *
   * @param key the key
   * @param expectedModRevision the {@code modRevision} the caller read, or 0 for any
   * @return the value deleted, its {@code modRevision} that of the delete
   * @throws StorageException of kind {@code KEY_NOT_FOUND} or {@code CONFLICT}
   */
  KeyValue delete(String key, long expectedModRevision);

  /**
   * Watches the keys that start with a prefix, from the change after a revision.
   *
   * @param prefix the prefix
   * @param afterRevision report changes with a greater revision; 0 for changes after now
   * @return the watch; close it when done
   * @throws StorageException of kind {@code COMPACTED} when changes after {@code afterRevision} are
   *     no longer kept
   */
  StorageWatch watch(String prefix, long afterRevision);

  /**
   * Forgets the history before a revision: earlier revisions can no longer be read or watched from.
   *
   * @param revision the new compacted revision (not after the current one)
   */
  void compact(long revision);

  /** Ends every watch (with {@code UNAVAILABLE}) and refuses further calls. Idempotent. */
  @Override
  void close();
}
