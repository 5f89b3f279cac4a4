package dev.machinery.apiserver.rbac;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

/**
 * A {@code rbac.authorization.k8s.io/v1 Role}: rules that a RoleBinding grants in the Role's
 * namespace.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "rules"})
public final class Role extends TypeMeta {
  private ObjectMeta metadata;
  private List<PolicyRule> rules;

  /** Creates an empty Role. */
  public Role() {}

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
}
