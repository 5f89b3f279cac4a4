package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.core.schema.GroupKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one registry of the resources a server serves, by {@code group/version/resource}: those it
 * was built with, which stay, and those added while it runs (the kinds of
 * CustomResourceDefinitions), each set added and removed as a whole under the name of its owner.
 * Requests find their resource here on every call, so a resource served from one moment is found by
 * every later request, and one removed is a 404 from then on.
 *
 * <p>Thread-safe: lookups read a concurrent map without locking; changes are serialized, and a
 * change's entries appear and disappear together for each lookup of one key.
 */
public final class ServedResources {
  private final Map<String, Served> served = new ConcurrentHashMap<>();
  private final Map<GroupKind, TableConvertor> tables = new ConcurrentHashMap<>();
  private final Map<String, Owned> owned = new LinkedHashMap<>();

  /**
   * Creates a registry of the resources a server is built with.
   *
   * @param fixed the resources by {@code group/version/resource}
   */
  public ServedResources(Map<String, Served> fixed) {
    served.putAll(fixed);
  }

  /**
   * Finds a served resource.
   *
   * @param group the group ({@code ""} for core)
   * @param version the version
   * @param resource the plural resource name
   * @return the resource, or empty when nothing is served there
   */
  public Optional<Served> find(String group, String version, String resource) {
    return Optional.ofNullable(served.get(key(group, version, resource)));
  }

  /**
   * Returns every served resource, in no particular order.
   *
   * @return a snapshot
   */
  public List<Served> all() {
    return new ArrayList<>(served.values());
  }

  /**
   * Returns the Table columns an owner registered for a kind.
   *
   * @param kind the kind
   * @return the columns, or {@code null} for the default
   */
  public TableConvertor table(GroupKind kind) {
    return tables.get(kind);
  }

  /**
   * Serves an owner's resources in their versions, replacing what the owner served before.
   *
   * @param owner the owner, such as a CustomResourceDefinition's name
   * @param resources the resources by {@code group/version/resource}
   * @param kind the kind they serve, for its Table columns
   * @param table the Table columns, or {@code null} for the default
   * @throws IllegalArgumentException when another owner, or the server itself, serves one of them
   */
  public synchronized void put(
      String owner, Map<String, Served> resources, GroupKind kind, TableConvertor table) {
    Owned previous = owned.get(owner);
    for (String key : resources.keySet()) {
      Served there = served.get(key);
      if (there != null && (previous == null || !previous.keys().contains(key))) {
        throw new IllegalArgumentException(
            key + " is already served (by " + there.store().groupResource() + ")");
      }
    }
    if (previous != null) {
      remove(owner);
    }
    served.putAll(resources);
    if (table != null) {
      tables.put(kind, table);
    }
    owned.put(owner, new Owned(List.copyOf(resources.keySet()), kind));
  }

  /**
   * Stops serving an owner's resources.
   *
   * @param owner the owner
   * @return whether it served any
   */
  public synchronized boolean remove(String owner) {
    Owned previous = owned.remove(owner);
    if (previous == null) {
      return false;
    }
    previous.keys().forEach(served::remove);
    tables.remove(previous.kind());
    return true;
  }

  /**
   * The key of a resource in a version.
   *
   * @param group the group
   * @param version the version
   * @param resource the resource
   * @return {@code group/version/resource}
   */
  public static String key(String group, String version, String resource) {
    return group + "/" + version + "/" + resource;
  }

  private record Owned(List<String> keys, GroupKind kind) {}
}
