package dev.machinery.cluster.controller.garbagecollector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The owners the API server said do not exist ({@code absentOwnerCache}): a least recently used set
 * of identities, so that the dependents of one deleted owner do not each ask again.
 *
 * <p>Thread-safe.
 */
final class ReferenceCache {
  private final Map<Identity, Boolean> entries;

  ReferenceCache(int capacity) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Identity, Boolean> eldest) {
            return size() > capacity;
          }
        };
  }

  synchronized void add(Identity identity) {
    entries.put(identity, Boolean.TRUE);
  }

  synchronized boolean has(Identity identity) {
    return entries.get(identity) != null;
  }
}
