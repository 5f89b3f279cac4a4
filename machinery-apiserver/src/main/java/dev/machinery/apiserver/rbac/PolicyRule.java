package dev.machinery.apiserver.rbac;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import java.util.List;

/**
 * One rule of a Role or ClusterRole ({@code rbac.authorization.k8s.io/v1 PolicyRule}): the verbs it
 * allows on resources of API groups (limited to some names when {@code resourceNames} is given) or
 * on non-resource paths. {@code *} stands for every verb, group or resource; {@code *}{@code /log}
 * for the {@code log} subresource of every resource; a path ending in {@code *} for every path
 * starting with the rest. Components are in Kubernetes' field order; empty lists are left out of
 * the JSON, as Go's {@code omitempty} does.
 *
 * <p>Immutable.
 *
 * @param verbs the verbs
 * @param apiGroups the API groups ({@code ""} for core)
 * @param resources the resources, {@code resource/subresource} for a subresource
 * @param resourceNames the names the rule is limited to; empty for all
 * @param nonResourceURLs the non-resource paths (only in ClusterRoles)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record PolicyRule(
    @ProtoField(1) @JsonInclude(JsonInclude.Include.ALWAYS) List<String> verbs,
    @ProtoField(2) List<String> apiGroups,
    @ProtoField(3) List<String> resources,
    @ProtoField(4) List<String> resourceNames,
    @ProtoField(5) List<String> nonResourceURLs) {
  /**
   * Copies the lists; a missing list is empty.
   *
   * @param verbs see the record description
   * @param apiGroups see the record description
   * @param resources see the record description
   * @param resourceNames see the record description
   * @param nonResourceURLs see the record description
   */
  public PolicyRule {
    verbs = copy(verbs);
    apiGroups = copy(apiGroups);
    resources = copy(resources);
    resourceNames = copy(resourceNames);
    nonResourceURLs = copy(nonResourceURLs);
  }

  private static List<String> copy(List<String> values) {
    return values == null ? List.of() : List.copyOf(values);
  }

  /**
   * A rule on resources.
   *
   * @param verbs the verbs
   * @param apiGroups the API groups
   * @param resources the resources
   * @return the rule
   */
  public static PolicyRule resources(
      List<String> verbs, List<String> apiGroups, List<String> resources) {
    return new PolicyRule(verbs, apiGroups, resources, List.of(), List.of());
  }

  /**
   * A rule on non-resource paths.
   *
   * @param verbs the verbs
   * @param nonResourceURLs the paths
   * @return the rule
   */
  public static PolicyRule nonResourceURLs(List<String> verbs, List<String> nonResourceURLs) {
    return new PolicyRule(verbs, List.of(), List.of(), List.of(), nonResourceURLs);
  }

  /**
   * Returns this rule limited to some names.
   *
   * @param names the names
   * @return the rule
   */
  public PolicyRule withResourceNames(List<String> names) {
    return new PolicyRule(verbs, apiGroups, resources, names, nonResourceURLs);
  }

  /**
   * The rule as Kubernetes' {@code CompactString} writes it in an escalation refusal: {@code
   * {APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}}, the empty parts left
   * out.
   *
   * @return the text
   */
  public String compactString() {
    List<String> parts = new java.util.ArrayList<>();
    if (!apiGroups.isEmpty()) {
      parts.add("APIGroups:" + goQuote(apiGroups));
    }
    if (!resources.isEmpty()) {
      parts.add("Resources:" + goQuote(resources));
    }
    if (!nonResourceURLs.isEmpty()) {
      parts.add("NonResourceURLs:" + goQuote(nonResourceURLs));
    }
    if (!resourceNames.isEmpty()) {
      parts.add("ResourceNames:" + goQuote(resourceNames));
    }
    if (!verbs.isEmpty()) {
      parts.add("Verbs:" + goQuote(verbs));
    }
    return "{" + String.join(", ", parts) + "}";
  }

  /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
  static String goQuote(List<String> values) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(' ');
      }
      out.append('"').append(values.get(i).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
    return out.append(']').toString();
  }
}
