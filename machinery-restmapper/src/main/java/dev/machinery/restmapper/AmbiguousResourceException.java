package dev.machinery.restmapper;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A name matches more than one resource or kind; lists every candidate and how to name one fully,
 * such as {@code events.v1.events.k8s.io}. Immutable.
 */
public final class AmbiguousResourceException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String query;
  private final transient List<GroupVersionResource> resources;
  private final transient List<GroupVersionKind> kinds;

  /**
   * Creates the exception.
   *
   * @param query what was looked for, as the user wrote it
   * @param resources the matching resources (may be empty when only kinds are known)
   * @param kinds the matching kinds (may be empty when only resources are known)
   */
  public AmbiguousResourceException(
      String query, List<GroupVersionResource> resources, List<GroupVersionKind> kinds) {
    super(message(query, resources, kinds));
    this.query = Objects.requireNonNull(query, "query");
    this.resources = List.copyOf(resources);
    this.kinds = List.copyOf(kinds);
  }

  /**
   * Returns what was looked for.
   *
   * @return the query
   */
  public String query() {
    return query;
  }

  /**
   * Returns the matching resources.
   *
   * @return the resources
   */
  public List<GroupVersionResource> resources() {
    return resources;
  }

  /**
   * Returns the matching kinds.
   *
   * @return the kinds
   */
  public List<GroupVersionKind> kinds() {
    return kinds;
  }

  /** The query as kubectl spells it: {@code resource}, {@code resource.group}, ... */
  static String spelled(GroupVersionResource r) {
    StringBuilder text = new StringBuilder(r.resource());
    if (!r.version().isEmpty()) {
      text.append('.').append(r.version());
    }
    if (!r.group().isEmpty()) {
      text.append('.').append(r.group());
    }
    return text.toString();
  }

  static String qualified(GroupVersionResource r) {
    return r.group().isEmpty()
        ? r.resource() + "." + r.version()
        : r.resource() + "." + r.version() + "." + r.group();
  }

  static String qualified(GroupVersionKind k) {
    return k.group().isEmpty()
        ? k.kind() + "." + k.version()
        : k.kind() + "." + k.version() + "." + k.group();
  }

  private static String message(
      String query, List<GroupVersionResource> resources, List<GroupVersionKind> kinds) {
    List<String> names =
        resources.isEmpty()
            ? kinds.stream().map(AmbiguousResourceException::qualified).collect(Collectors.toList())
            : resources.stream()
                .map(AmbiguousResourceException::qualified)
                .collect(Collectors.toList());
    return "\""
        + query
        + "\" matches "
        + names.size()
        + " "
        + (resources.isEmpty() ? "kinds" : "resources")
        + ": "
        + String.join(", ", names)
        + "; name one fully, such as "
        + (names.isEmpty() ? query : names.get(0));
  }
}
