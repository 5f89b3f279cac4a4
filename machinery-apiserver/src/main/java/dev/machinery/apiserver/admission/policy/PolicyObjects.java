package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.labels.Selector;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link ValidatingAdmissionPolicies} reads from the server: the policies, the bindings, the
 * namespaces and the parameter objects, all as JSON trees (maps, lists, strings, numbers,
 * booleans), as they are stored now. The server's implementation reads its own stores.
 *
 * <p>Implementations are thread-safe.
 */
public interface PolicyObjects {
  /**
   * Returns the stored ValidatingAdmissionPolicies.
   *
   * @return the policies, as trees
   */
  List<Map<String, Object>> policies();

  /**
   * Returns the stored ValidatingAdmissionPolicyBindings.
   *
   * @return the bindings, as trees
   */
  List<Map<String, Object>> bindings();

  /**
   * Finds a Namespace.
   *
   * @param name the namespace's name
   * @return the Namespace, or empty when there is none
   */
  Optional<Map<String, Object>> namespace(String name);

  /**
   * Finds the served resource of a policy's {@code paramKind}.
   *
   * @param apiVersion the kind's {@code group/version} ({@code v1} for the core group)
   * @param kind the kind
   * @return the resource, or empty when none is served
   */
  Optional<ParamSource> params(String apiVersion, String kind);

  /**
   * Turns an object handed to admission into a tree.
   *
   * @param object the object, typed or not, or {@code null}
   * @return the tree, or {@code null} for {@code null}
   */
  Map<String, Object> tree(Object object);

  /**
   * The kinds a resource of a group version names, as kube-apiserver's REST mapper resolves a
   * policy's resource rules for type checking. The default knows none, so nothing is type checked.
   *
   * @param group the group, {@code ""} for the core group
   * @param version the version
   * @param resource the resource (plural, no subresource)
   * @return the kinds, empty when the resource is not served
   */
  default List<GroupVersionKind> kindsFor(String group, String version, String resource) {
    return List.of();
  }

  /**
   * The schema of a kind's objects, as the server publishes it in OpenAPI (references inlined), for
   * type checking. The default knows none.
   *
   * @param kind the kind
   * @return the schema, or empty when the kind is not served or has no schema
   */
  default Optional<JSONSchemaProps> schema(GroupVersionKind kind) {
    return Optional.empty();
  }

  /** The objects of one served resource, read as parameters. Thread-safe. */
  interface ParamSource {
    /**
     * Whether its objects live in namespaces.
     *
     * @return true when namespaced
     */
    boolean namespaced();

    /**
     * Reads one object.
     *
     * @param namespace the namespace, {@code ""} for a cluster-scoped resource
     * @param name the name
     * @return the object, or empty when there is none
     */
    Optional<Map<String, Object>> get(String namespace, String name);

    /**
     * Lists objects whose labels a selector matches.
     *
     * @param namespace the namespace, {@code ""} for a cluster-scoped resource
     * @param selector the selector
     * @return the objects
     */
    List<Map<String, Object>> list(String namespace, Selector selector);
  }
}
