package dev.machinery.restmapper;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A lookup matched more than one resource or kind, where one was asked for: Go's {@code
 * AmbiguousResourceError} (the query was a resource) and {@code AmbiguousKindError} (the query was
 * a kind) in one type, with the query and the candidates as data. The message begins as Go's does
 * ({@code /, Resource=deployments matches multiple kinds [apps/v1, Kind=Deployment
 * extensions/v1beta1, Kind=Deployment]}), then adds a hint. Immutable and safe to share.
 */
public final class AmbiguousResourceException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient GroupVersionResource partialResource;
  private final transient GroupVersionKind partialKind;
  private final transient List<GroupVersionResource> resources;
  private final transient List<GroupVersionKind> kinds;

  /**
   * Creates the exception for an ambiguous resource query.
   *
   * @param partialResource the query
   * @param resources the matching resources (may be empty)
   * @param kinds the matching kinds (may be empty)
   */
  public AmbiguousResourceException(
      GroupVersionResource partialResource,
      List<GroupVersionResource> resources,
      List<GroupVersionKind> kinds) {
    this(Objects.requireNonNull(partialResource, "partialResource"), null, resources, kinds);
  }

  /**
   * Creates the exception for an ambiguous kind query.
   *
   * @param partialKind the query (its version empty when none was given)
   * @param resources the matching resources (may be empty)
   * @param kinds the matching kinds (may be empty)
   */
  public AmbiguousResourceException(
      GroupVersionKind partialKind,
      List<GroupVersionResource> resources,
      List<GroupVersionKind> kinds) {
    this(null, Objects.requireNonNull(partialKind, "partialKind"), resources, kinds);
  }

  private AmbiguousResourceException(
      GroupVersionResource partialResource,
      GroupVersionKind partialKind,
      List<GroupVersionResource> resources,
      List<GroupVersionKind> kinds) {
    super(
        message(
            partialResource != null ? partialResource.toString() : partialKind.toString(),
            resources,
            kinds));
    this.partialResource = partialResource;
    this.partialKind = partialKind;
    this.resources = List.copyOf(resources);
    this.kinds = List.copyOf(kinds);
  }

  /**
   * Returns the resource query, when the query was a resource.
   *
   * @return the partial resource, or empty
   */
  public Optional<GroupVersionResource> partialResource() {
    return Optional.ofNullable(partialResource);
  }

  /**
   * Returns the kind query, when the query was a kind.
   *
   * @return the partial kind, or empty
   */
  public Optional<GroupVersionKind> partialKind() {
    return Optional.ofNullable(partialKind);
  }

  /**
   * Returns the matching resources.
   *
   * @return the resources, possibly empty
   */
  public List<GroupVersionResource> resources() {
    return resources;
  }

  /**
   * Returns the matching kinds.
   *
   * @return the kinds, possibly empty
   */
  public List<GroupVersionKind> kinds() {
    return kinds;
  }

  static String qualified(GroupVersionResource r) {
    return r.group().isEmpty()
        ? r.resource() + "." + r.version()
        : r.resource() + "." + r.version() + "." + r.group();
  }

  private static String message(
      String query, List<GroupVersionResource> resources, List<GroupVersionKind> kinds) {
    String go;
    if (!kinds.isEmpty() && !resources.isEmpty()) {
      go = query + " matches multiple resources " + list(resources) + " and kinds " + list(kinds);
    } else if (!kinds.isEmpty()) {
      go = query + " matches multiple kinds " + list(kinds);
    } else if (!resources.isEmpty()) {
      go = query + " matches multiple resources " + list(resources);
    } else {
      go = query + " matches multiple resources or kinds";
    }
    String hint =
        resources.isEmpty() ? "" : "; name one fully, such as " + qualified(resources.get(0));
    return go + hint;
  }

  /** A list as Go's {@code %v} prints a slice: elements by spaces, in brackets. */
  private static String list(List<?> items) {
    return items.stream().map(String::valueOf).collect(Collectors.joining(" ", "[", "]"));
  }
}
