package dev.machinery.apiserver.registry.webhook;

import dev.machinery.apiserver.admission.Operation;
import java.util.List;

/**
 * One of a webhook's {@code rules}, as {@code admissionregistration.k8s.io/v1}'s {@code
 * RuleWithOperations}, and kube-apiserver's matching of a request to it (its {@code
 * predicates/rules} package): every list matches on {@code *} or the request's value; a resource is
 * {@code RESOURCE} or {@code RESOURCE/SUBRESOURCE}, either part {@code *} ({@code *} alone matches
 * no subresource, {@code *}{@code /*} everything); the scope is {@code Cluster} (requests without a
 * namespace, and the Namespaces themselves), {@code Namespaced} (requests in a namespace) or {@code
 * *}. Immutable.
 *
 * @param operations {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT} or {@code *}
 * @param apiGroups the groups
 * @param apiVersions the versions
 * @param resources the resources
 * @param scope {@code *}, {@code Cluster} or {@code Namespaced}
 */
public record Rule(
    List<String> operations,
    List<String> apiGroups,
    List<String> apiVersions,
    List<String> resources,
    String scope) {

  /**
   * Copies the lists; an empty scope is {@code *}.
   *
   * @param operations see the record description
   * @param apiGroups see the record description
   * @param apiVersions see the record description
   * @param resources see the record description
   * @param scope see the record description
   */
  public Rule {
    operations = List.copyOf(operations);
    apiGroups = List.copyOf(apiGroups);
    apiVersions = List.copyOf(apiVersions);
    resources = List.copyOf(resources);
    scope = scope == null || scope.isEmpty() ? "*" : scope;
  }

  /**
   * Whether a request matches the rule.
   *
   * @param operation the request's operation
   * @param group the resource's group
   * @param version the version the request is made (or converted) in
   * @param resource the resource
   * @param subresource the subresource, {@code ""} for none
   * @param namespace the request's namespace ({@code ""} for none)
   * @return whether it matches
   */
  public boolean matches(
      Operation operation,
      String group,
      String version,
      String resource,
      String subresource,
      String namespace) {
    return (operations.contains("*") || operations.contains(operation.name()))
        && (apiGroups.contains("*") || apiGroups.contains(group))
        && (apiVersions.contains("*") || apiVersions.contains(version))
        && resource(resource, subresource)
        && scope(group, resource, namespace);
  }

  /**
   * Whether the rule matches a group and resource in some version, for {@code matchPolicy:
   * Equivalent}: everything but the version.
   *
   * @param operation the request's operation
   * @param group the resource's group
   * @param resource the resource
   * @param subresource the subresource
   * @param namespace the request's namespace
   * @return whether it matches when the version does
   */
  boolean matchesIgnoringVersion(
      Operation operation, String group, String resource, String subresource, String namespace) {
    return (operations.contains("*") || operations.contains(operation.name()))
        && (apiGroups.contains("*") || apiGroups.contains(group))
        && resource(resource, subresource)
        && scope(group, resource, namespace);
  }

  private boolean resource(String resource, String subresource) {
    for (String each : resources) {
      int slash = each.indexOf('/');
      String res = slash < 0 ? each : each.substring(0, slash);
      String sub = slash < 0 ? "" : each.substring(slash + 1);
      if ((res.equals("*") || res.equals(resource))
          && (sub.equals("*") || sub.equals(subresource))) {
        return true;
      }
    }
    return false;
  }

  private boolean scope(String group, String resource, String namespace) {
    boolean namespaceItself = group.isEmpty() && resource.equals("namespaces");
    return switch (scope) {
      case "Namespaced" -> !namespaceItself && !namespace.isEmpty();
      case "Cluster" -> namespaceItself || namespace.isEmpty();
      default -> true;
    };
  }
}
