package dev.machinery.apiserver.rbac;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

/**
 * A {@code rbac.authorization.k8s.io/v1 ClusterRoleBinding}: grants a ClusterRole's rules to
 * subjects in every namespace and at the cluster scope.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "subjects", "roleRef"})
public final class ClusterRoleBinding extends TypeMeta {
  private ObjectMeta metadata;
  private List<Subject> subjects;
  private RoleRef roleRef;

  /** Creates an empty ClusterRoleBinding. */
  public ClusterRoleBinding() {}

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
   * Returns the subjects.
   *
   * @return the value
   */
  @ProtoField(2)
  public List<Subject> getSubjects() {
    return subjects;
  }

  /**
   * Sets the subjects.
   *
   * @param subjects the value
   */
  public void setSubjects(List<Subject> subjects) {
    this.subjects = subjects;
  }

  /**
   * Returns the role granted.
   *
   * @return the value
   */
  @ProtoField(3)
  public RoleRef getRoleRef() {
    return roleRef;
  }

  /**
   * Sets the role granted.
   *
   * @param roleRef the value
   */
  public void setRoleRef(RoleRef roleRef) {
    this.roleRef = roleRef;
  }
}
