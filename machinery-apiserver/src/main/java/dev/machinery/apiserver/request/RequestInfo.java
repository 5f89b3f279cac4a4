package dev.machinery.apiserver.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a resource request's path names, parsed as kube-apiserver's {@code RequestInfoFactory} does:
 * {@code /api/v1/...} for the core group, {@code /apis/{group}/{version}/...} for the others, then
 * an optional {@code watch/} (the legacy watch paths), an optional {@code namespaces/{namespace}/},
 * the resource, the name and the subresource. {@code /api/v1/namespaces/{name}} and its {@code
 * status} and {@code finalize} subresources are the namespace itself.
 *
 * <p>Immutable.
 *
 * @param group the group, {@code ""} for core
 * @param version the version
 * @param namespace the namespace, or {@code null}
 * @param resource the resource
 * @param name the name, or {@code null} for the collection
 * @param subresource the subresource, or {@code null}
 * @param legacyWatch whether the path began with {@code watch/}
 */
public record RequestInfo(
    String group,
    String version,
    String namespace,
    String resource,
    String name,
    String subresource,
    boolean legacyWatch) {

  /**
   * Returns the same request without a namespace (for a cluster-scoped resource).
   *
   * @return the copy
   */
  public RequestInfo withoutNamespace() {
    return new RequestInfo(group, version, null, resource, name, subresource, legacyWatch);
  }

  /**
   * Returns the request's verb as kube-apiserver names it: {@code get}, {@code list}, {@code
   * watch}, {@code create}, {@code update}, {@code patch}, {@code delete}, {@code
   * deletecollection}, or the method in lower case for anything else.
   *
   * @param method the HTTP method
   * @param watchParameter the {@code watch} query parameter, or {@code null}
   * @return the verb
   */
  public String verb(String method, String watchParameter) {
    boolean watch = legacyWatch || isTrue(watchParameter);
    switch (method) {
      case "GET":
      case "HEAD":
        if (watch) {
          return "watch";
        }
        return name == null ? "list" : "get";
      case "POST":
        return "create";
      case "PUT":
        return "update";
      case "PATCH":
        return "patch";
      case "DELETE":
        return name == null ? "deletecollection" : "delete";
      default:
        return method.toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Go's {@code strconv.ParseBool} true values. */
  static boolean isTrue(String value) {
    return value != null && List.of("1", "t", "T", "true", "TRUE", "True").contains(value);
  }

  /**
   * Parses a resource path; anything else (discovery, a path too short or too long) is empty.
   *
   * @param path the decoded path
   * @return the request's parts
   */
  public static Optional<RequestInfo> parse(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    String group;
    int at;
    if (parts.size() >= 3 && parts.get(0).equals("api")) {
      group = "";
      at = 1;
    } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
      group = parts.get(1);
      at = 2;
    } else {
      return Optional.empty();
    }
    String version = parts.get(at++);
    List<String> rest = parts.subList(at, parts.size());
    boolean watch = false;
    if (!rest.isEmpty() && rest.get(0).equals("watch")) {
      watch = true;
      rest = rest.subList(1, rest.size());
    }
    String namespace = null;
    if (rest.size() >= 2 && rest.get(0).equals("namespaces")) {
      if (rest.size() == 2 || rest.get(2).equals("status") || rest.get(2).equals("finalize")) {
        // The namespace itself: namespaces/{name}[/status|/finalize].
        return rest.size() > 3
            ? Optional.empty()
            : Optional.of(
                new RequestInfo(
                    group,
                    version,
                    rest.get(1),
                    "namespaces",
                    rest.get(1),
                    rest.size() == 3 ? rest.get(2) : null,
                    watch));
      }
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty() || rest.size() > 3) {
      return Optional.empty();
    }
    return Optional.of(
        new RequestInfo(
            group,
            version,
            namespace,
            rest.get(0),
            rest.size() >= 2 ? rest.get(1) : null,
            rest.size() == 3 ? rest.get(2) : null,
            watch));
  }
}
