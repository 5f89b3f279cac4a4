package dev.machinery.unversioned.managedfields;

import dev.machinery.core.merge.VersionedSet;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The managers of one object: for each manager identifier (a JSON text naming the manager, the
 * operation, for updates the API version, and the subresource, as kube-apiserver builds it) its
 * fields and the time of its last change. Immutable.
 *
 * @param fields the fields of each manager, ordered by identifier
 * @param times the time of each manager's last change; a manager may have none
 */
public record Managed(Map<String, VersionedSet> fields, Map<String, Instant> times) {
  /**
   * Copies the maps.
   *
   * @param fields the fields of each manager
   * @param times the time of each manager's last change
   */
  public Managed {
    fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields));
    times = java.util.Collections.unmodifiableMap(new TreeMap<>(times));
  }

  /**
   * Returns no managers.
   *
   * @return the empty value
   */
  public static Managed empty() {
    return new Managed(Map.of(), Map.of());
  }

  /**
   * Returns whether there are no managers.
   *
   * @return whether empty
   */
  public boolean isEmpty() {
    return fields.isEmpty();
  }
}
