package dev.machinery.apiserver.rbac;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

/**
 * A {@code rbac.authorization.k8s.io/v1 ClusterRole}: rules granted cluster-wide by a
 * ClusterRoleBinding, or in one namespace by a RoleBinding; with an aggregation rule, its rules are
 * gathered from the ClusterRoles it selects.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "rules", "aggregationRule"})
public final class ClusterRole extends TypeMeta {
  private ObjectMeta metadata;
  private List<PolicyRule> rules;
  private AggregationRule aggregationRule;

  /** Creates an empty ClusterRole. */
  public ClusterRole() {}

  /**
   * Returns the metadata.
   *
   * @return the value
   */
  @ProtoField(1)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the value
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the rules.
   *
   * @return the value
   */
  @ProtoField(2)
  public List<PolicyRule> getRules() {
    return rules;
  }

  /**
   * Sets the rules.
   *
   * @param rules the value
   */
  public void setRules(List<PolicyRule> rules) {
    this.rules = rules;
  }

  /**
   * Returns the aggregation rule, or {@code null}.
   *
   * @return the value
   */
  @ProtoField(value = 3, optional = true)
  public AggregationRule getAggregationRule() {
    return aggregationRule;
  }

  /**
   * Sets the aggregation rule, or {@code null}.
   *
   * @param aggregationRule the value
   */
  public void setAggregationRule(AggregationRule aggregationRule) {
    this.aggregationRule = aggregationRule;
  }
}
