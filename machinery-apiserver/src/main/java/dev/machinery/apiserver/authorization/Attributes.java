package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;
import java.util.Objects;

/**
 * What a request asks to do, as Kubernetes' {@code authorizer.Attributes}: who asks, the verb, and
 * either the resource (API group, version, resource, subresource, namespace, name) or the path of a
 * non-resource request such as {@code /version}. Strings are never null: an absent part is {@code
 * ""}.
 *
 * <p>Immutable.
 *
 * @param user who asks
 * @param verb the verb: for a resource request {@code get}, {@code list}, {@code watch}, {@code
 *     create}, {@code update}, {@code patch}, {@code delete}, {@code deletecollection} or another
 *     (such as {@code bind}, {@code escalate}); for a non-resource request the HTTP method in lower
 *     case
 * @param resourceRequest whether the request is for a resource (else for a path)
 * @param apiGroup the API group, {@code ""} for core
 * @param apiVersion the version, or {@code ""}
 * @param resource the resource, such as {@code pods}
 * @param subresource the subresource, such as {@code log}, or {@code ""}
 * @param namespace the namespace, or {@code ""} for the cluster scope (or all namespaces)
 * @param name the object's name, or {@code ""} for the collection
 * @param path the request's path
 */
public record Attributes(
    UserInfo user,
    String verb,
    boolean resourceRequest,
    String apiGroup,
    String apiVersion,
    String resource,
    String subresource,
    String namespace,
    String name,
    String path) {
  /**
   * Turns nulls into empty strings.
   *
   * @param user see the record description
   * @param verb see the record description
   * @param resourceRequest see the record description
   * @param apiGroup see the record description
   * @param apiVersion see the record description
   * @param resource see the record description
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param path see the record description
   */
  public Attributes {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(verb, "verb");
    apiGroup = Objects.requireNonNullElse(apiGroup, "");
    apiVersion = Objects.requireNonNullElse(apiVersion, "");
    resource = Objects.requireNonNullElse(resource, "");
    subresource = Objects.requireNonNullElse(subresource, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    name = Objects.requireNonNullElse(name, "");
    path = Objects.requireNonNullElse(path, "");
  }

  /**
   * A resource request.
   *
   * @param user who asks
   * @param verb the verb
   * @param apiGroup the API group, {@code ""} for core
   * @param resource the resource
   * @param subresource the subresource, or {@code ""}
   * @param namespace the namespace, or {@code ""}
   * @param name the name, or {@code ""}
   * @return the attributes, with version {@code ""} and no path
   */
  public static Attributes resource(
      UserInfo user,
      String verb,
      String apiGroup,
      String resource,
      String subresource,
      String namespace,
      String name) {
    return new Attributes(
        user, verb, true, apiGroup, "", resource, subresource, namespace, name, "");
  }

  /**
   * A non-resource request, such as {@code get} of {@code /healthz}.
   *
   * @param user who asks
   * @param verb the verb, the HTTP method in lower case
   * @param path the path
   * @return the attributes
   */
  public static Attributes nonResource(UserInfo user, String verb, String path) {
    return new Attributes(user, verb, false, "", "", "", "", "", "", path);
  }

  /**
   * Returns the same request made by another user.
   *
   * @param other the user
   * @return the copy
   */
  public Attributes withUser(UserInfo other) {
    return new Attributes(
        other,
        verb,
        resourceRequest,
        apiGroup,
        apiVersion,
        resource,
        subresource,
        namespace,
        name,
        path);
  }

  /**
   * Returns the same request with another verb, for the checks that follow a request (such as
   * {@code bind} or {@code escalate}).
   *
   * @param other the verb
   * @return the copy
   */
  public Attributes withVerb(String other) {
    return new Attributes(
        user,
        other,
        resourceRequest,
        apiGroup,
        apiVersion,
        resource,
        subresource,
        namespace,
        name,
        path);
  }
}
