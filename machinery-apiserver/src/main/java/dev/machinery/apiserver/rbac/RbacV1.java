package dev.machinery.apiserver.rbac;

import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * The {@code rbac.authorization.k8s.io/v1} group: its name and version, and the registration of
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding and their lists in a Scheme. A server
 * serves and enforces them with {@link dev.machinery.apiserver.ApiServer.Builder#rbac()}.
 * Stateless; thread-safe.
 */
public final class RbacV1 {
  /** The group's name. */
  public static final String GROUP = "rbac.authorization.k8s.io";

  /** The group version {@code rbac.authorization.k8s.io/v1}. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  private RbacV1() {}

  /**
   * Registers the four kinds and their list kinds in {@code v1}.
   *
   * @param builder the scheme builder, in which {@code meta.k8s.io/v1} is registered
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    builder.addKnownTypes(
        V1, Role.class, ClusterRole.class, RoleBinding.class, ClusterRoleBinding.class);
    for (String kind : new String[] {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"}) {
      ResourceList.addToScheme(builder, kind, V1);
    }
    return builder;
  }
}
