package dev.machinery.apiserver.rbac;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The Roles, ClusterRoles and their bindings the {@link RbacAuthorizer} reads, as the listers of
 * Kubernetes' RBAC rule resolver. {@link #of} holds a fixed set; a server reads its storage.
 *
 * <p>Implementations are thread-safe.
 */
public interface RbacPolicy {
  /**
   * Finds a Role.
   *
   * @param namespace its namespace
   * @param name its name
   * @return the Role, or empty
   */
  Optional<Role> role(String namespace, String name);

  /**
   * Finds a ClusterRole.
   *
   * @param name its name
   * @return the ClusterRole, or empty
   */
  Optional<ClusterRole> clusterRole(String name);

  /**
   * Lists the RoleBindings of a namespace.
   *
   * @param namespace the namespace
   * @return the bindings
   */
  List<RoleBinding> roleBindings(String namespace);

  /**
   * Lists the ClusterRoleBindings.
   *
   * @return the bindings
   */
  List<ClusterRoleBinding> clusterRoleBindings();

  /**
   * A fixed policy of the given objects (Roles, ClusterRoles, RoleBindings, ClusterRoleBindings;
   * anything else is refused). The objects must not change afterwards.
   *
   * @param objects the objects
   * @return the policy
   * @throws IllegalArgumentException for an object of another class, or one without a name
   */
  static RbacPolicy of(Collection<?> objects) {
    Map<String, Role> roles = new HashMap<>();
    Map<String, ClusterRole> clusterRoles = new HashMap<>();
    Map<String, List<RoleBinding>> roleBindings = new HashMap<>();
    List<ClusterRoleBinding> clusterRoleBindings = new ArrayList<>();
    for (Object object : objects) {
      if (object instanceof Role role) {
        roles.put(namespace(role.getMetadata()) + "/" + name(role.getMetadata(), role), role);
      } else if (object instanceof ClusterRole role) {
        clusterRoles.put(name(role.getMetadata(), role), role);
      } else if (object instanceof RoleBinding binding) {
        roleBindings
            .computeIfAbsent(namespace(binding.getMetadata()), k -> new ArrayList<>())
            .add(binding);
      } else if (object instanceof ClusterRoleBinding binding) {
        clusterRoleBindings.add(binding);
      } else {
        throw new IllegalArgumentException(
            "an RBAC policy holds Roles, ClusterRoles and their bindings, not "
                + (object == null ? "null" : object.getClass().getName()));
      }
    }
    Map<String, List<RoleBinding>> bindingsCopy = new HashMap<>();
    roleBindings.forEach((k, v) -> bindingsCopy.put(k, List.copyOf(v)));
    List<ClusterRoleBinding> clusterBindingsCopy = List.copyOf(clusterRoleBindings);
    Map<String, Role> rolesCopy = Map.copyOf(roles);
    Map<String, ClusterRole> clusterRolesCopy = Map.copyOf(clusterRoles);
    return new RbacPolicy() {
      @Override
      public Optional<Role> role(String namespace, String name) {
        return Optional.ofNullable(rolesCopy.get(namespace + "/" + name));
      }

      @Override
      public Optional<ClusterRole> clusterRole(String name) {
        return Optional.ofNullable(clusterRolesCopy.get(name));
      }

      @Override
      public List<RoleBinding> roleBindings(String namespace) {
        return bindingsCopy.getOrDefault(namespace, List.of());
      }

      @Override
      public List<ClusterRoleBinding> clusterRoleBindings() {
        return clusterBindingsCopy;
      }
    };
  }

  private static String namespace(dev.machinery.unversioned.meta.v1.ObjectMeta meta) {
    return meta == null || meta.getNamespace() == null ? "" : meta.getNamespace();
  }

  private static String name(dev.machinery.unversioned.meta.v1.ObjectMeta meta, Object object) {
    if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
      throw new IllegalArgumentException(
          "a " + object.getClass().getSimpleName() + " in an RBAC policy needs a name");
    }
    return Objects.requireNonNull(meta.getName());
  }
}
