package dev.machinery.apiserver.storage.testing;

import dev.machinery.apiserver.storage.MemoryStorage;

/**
 * A memory store that says it does not answer from memory, so that a server treats it as it treats
 * etcd (its reads checked against the storage, its GETs waiting for those checks), without an etcd
 * process: extend it to count, hold or fail some calls. Thread-safe.
 */
public class RemoteMemoryStorage extends ForwardingStorage {
  /** A fresh memory store behind it. */
  public RemoteMemoryStorage() {
    super(new MemoryStorage());
  }

  /**
   * False, as for a store over the network.
   *
   * @return false
   */
  @Override
  public boolean answersFromMemory() {
    return false;
  }
}
