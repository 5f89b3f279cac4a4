package dev.machinery.apiserver.rbac;

import dev.machinery.conversion.ProtoField;

/**
 * The role a binding grants ({@code rbac.authorization.k8s.io/v1 RoleRef}): a {@code Role} in the
 * binding's namespace or a {@code ClusterRole}. Immutable.
 *
 * @param apiGroup {@code rbac.authorization.k8s.io}
 * @param kind {@code Role} or {@code ClusterRole}
 * @param name the role's name
 */
public record RoleRef(
    @ProtoField(1) String apiGroup, @ProtoField(2) String kind, @ProtoField(3) String name) {
  /**
   * A ClusterRole.
   *
   * @param name its name
   * @return the reference
   */
  public static RoleRef clusterRole(String name) {
    return new RoleRef(RbacV1.GROUP, "ClusterRole", name);
  }

  /**
   * A Role in the binding's namespace.
   *
   * @param name its name
   * @return the reference
   */
  public static RoleRef role(String name) {
    return new RoleRef(RbacV1.GROUP, "Role", name);
  }
}
