package dev.machinery.apiserver.rbac;

import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.util.List;

/**
 * How a ClusterRole gathers its rules from others ({@code rbac.authorization.k8s.io/v1
 * AggregationRule}): the rules of every ClusterRole whose labels match one of the selectors are its
 * rules, kept up to date by the server. Immutable.
 *
 * @param clusterRoleSelectors the selectors
 */
public record AggregationRule(@ProtoField(1) List<LabelSelector> clusterRoleSelectors) {
  /**
   * Copies the list.
   *
   * @param clusterRoleSelectors see the record description
   */
  public AggregationRule {
    clusterRoleSelectors =
        clusterRoleSelectors == null ? List.of() : List.copyOf(clusterRoleSelectors);
  }
}
