package dev.machinery.apiserver.storage;

import dev.machinery.core.schema.GroupResource;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where a resource's objects are kept in a {@link Storage}: the key layout of kube-apiserver, below
 * the store's own prefix (etcd's {@code --etcd-prefix}, {@code /registry/} by default, which the
 * store applies once).
 *
 * <ul>
 *   <li>A resource of one of Kubernetes' built-in groups is kept under its resource name: {@code
 *       configmaps/NAMESPACE/NAME}, {@code clusterroles/NAME}, {@code deployments/NAMESPACE/NAME},
 *       except the few that kube-apiserver keeps under a name of their own: {@code services/specs},
 *       {@code services/endpoints}, {@code minions} (nodes), {@code controllers}
 *       (replicationcontrollers), {@code ingress}, {@code podsecuritypolicy}, and the two API
 *       servers' own kinds {@code apiextensions.k8s.io/customresourcedefinitions} and {@code
 *       apiregistration.k8s.io/apiservices}; {@code events.k8s.io} Events are kept with the core
 *       Events under {@code events}, stored as core {@code v1} Events, as kube-apiserver keeps
 *       them.
 *   <li>A resource of any other group, and every custom resource, is kept under its group and
 *       resource: {@code GROUP/PLURAL/NAMESPACE/NAME}, or {@code GROUP/PLURAL/NAME} when cluster
 *       scoped.
 * </ul>
 *
 * <p>So on etcd with the prefix {@code /registry/}, a ConfigMap {@code default/cm} is at {@code
 * /registry/configmaps/default/cm}, a Service at {@code /registry/services/specs/default/svc}, a
 * custom resource at {@code /registry/example.com/widgets/default/w1}: the keys kube-apiserver
 * writes, so a server and kube-apiserver read each other's objects where the stored versions and
 * encodings agree.
 *
 * <p>Names and namespaces are not checked here: the registry validates them before it writes, and a
 * read of a name that no object can have finds nothing.
 *
 * <p>Thread-safe: stateless.
 */
public final class StorageKeys {
  /**
   * The groups of Kubernetes' own API server (kube-apiserver's legacy scheme, and the groups it
   * serves from k8s.io/apiserver), whose resources are kept under their resource name alone.
   */
  private static final Set<String> KUBERNETES_GROUPS =
      Set.of(
          "",
          "admissionregistration.k8s.io",
          "apps",
          "authentication.k8s.io",
          "authorization.k8s.io",
          "autoscaling",
          "batch",
          "certificates.k8s.io",
          "coordination.k8s.io",
          "discovery.k8s.io",
          "events.k8s.io",
          "extensions",
          "flowcontrol.apiserver.k8s.io",
          "internal.apiserver.k8s.io",
          "networking.k8s.io",
          "node.k8s.io",
          "policy",
          "rbac.authorization.k8s.io",
          "resource.k8s.io",
          "scheduling.k8s.io",
          "storage.k8s.io",
          "storagemigration.k8s.io");

  /**
   * The resources kept under a prefix other than their resource name: kube-apiserver's own special
   * prefixes, and {@code events.k8s.io} Events, which kube-apiserver keeps with the core Events
   * ({@code events/}) because it stores both as core {@code v1} Events.
   */
  private static final Map<GroupResource, String> SPECIAL =
      Map.ofEntries(
          Map.entry(GroupResource.of("", "replicationcontrollers"), "controllers"),
          Map.entry(GroupResource.of("", "endpoints"), "services/endpoints"),
          Map.entry(GroupResource.of("", "nodes"), "minions"),
          Map.entry(GroupResource.of("", "services"), "services/specs"),
          Map.entry(GroupResource.of("extensions", "ingresses"), "ingress"),
          Map.entry(GroupResource.of("networking.k8s.io", "ingresses"), "ingress"),
          Map.entry(GroupResource.of("extensions", "podsecuritypolicies"), "podsecuritypolicy"),
          Map.entry(GroupResource.of("policy", "podsecuritypolicies"), "podsecuritypolicy"),
          Map.entry(
              GroupResource.of("apiextensions.k8s.io", "customresourcedefinitions"),
              "apiextensions.k8s.io/customresourcedefinitions"),
          Map.entry(
              GroupResource.of("apiregistration.k8s.io", "apiservices"),
              "apiregistration.k8s.io/apiservices"),
          Map.entry(GroupResource.of("events.k8s.io", "events"), "events"));

  private StorageKeys() {}

  /**
   * Returns the prefix of every key of a resource served with a definition of its own (built-in or
   * typed): its kube-apiserver name for Kubernetes' groups, {@code GROUP/RESOURCE/} for any other.
   *
   * @param resource the group and resource, such as {@code ("", "configmaps")}
   * @return the prefix, ending in {@code /}, such as {@code configmaps/}
   * @throws IllegalArgumentException when the resource name is empty or holds a {@code /}
   */
  public static String resourcePrefix(GroupResource resource) {
    Objects.requireNonNull(resource, "resource");
    segment("resource", resource.resource());
    String special = SPECIAL.get(resource);
    if (special != null) {
      return special + "/";
    }
    if (KUBERNETES_GROUPS.contains(resource.group())) {
      return resource.resource() + "/";
    }
    return segment("group", resource.group()) + "/" + resource.resource() + "/";
  }

  /**
   * Returns the prefix of every key of a custom resource: {@code GROUP/PLURAL/}, as
   * apiextensions-apiserver keeps them whatever the group.
   *
   * @param group the CustomResourceDefinition's group
   * @param plural its plural name
   * @return the prefix, such as {@code example.com/widgets/}
   * @throws IllegalArgumentException when the group or plural is empty or holds a {@code /}
   */
  public static String customResourcePrefix(String group, String plural) {
    return segment("group", group) + "/" + segment("plural", plural) + "/";
  }

  /**
   * Returns the prefix of a namespace's objects below a resource's prefix, or the resource's prefix
   * itself for every namespace and for cluster-scoped resources.
   *
   * @param resourcePrefix the resource's prefix ({@link #resourcePrefix} or {@link
   *     #customResourcePrefix})
   * @param namespace the namespace, or {@code null} (or empty) for all
   * @return {@code resourcePrefix + namespace + "/"}, or {@code resourcePrefix}
   */
  public static String namespacePrefix(String resourcePrefix, String namespace) {
    Objects.requireNonNull(resourcePrefix, "resourcePrefix");
    if (namespace == null || namespace.isEmpty()) {
      return resourcePrefix;
    }
    return resourcePrefix + namespace + "/";
  }

  /**
   * Returns the key of one object: {@code resourcePrefix + namespace + "/" + name}, or {@code
   * resourcePrefix + name} when cluster scoped.
   *
   * @param resourcePrefix the resource's prefix ({@link #resourcePrefix} or {@link
   *     #customResourcePrefix})
   * @param namespace the namespace, or {@code null} for a cluster-scoped object
   * @param name the name
   * @return the key
   */
  public static String objectKey(String resourcePrefix, String namespace, String name) {
    return namespacePrefix(resourcePrefix, namespace) + Objects.requireNonNull(name, "name");
  }

  private static String segment(String what, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("the " + what + " of a storage key is empty");
    }
    if (value.indexOf('/') >= 0) {
      throw new IllegalArgumentException("the " + what + " of a storage key holds a '/': " + value);
    }
    return value;
  }
}
