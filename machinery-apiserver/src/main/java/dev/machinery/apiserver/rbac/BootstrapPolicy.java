package dev.machinery.apiserver.rbac;

import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The default roles and bindings kube-apiserver creates at start ({@code bootstrappolicy}), those a
 * user of a Kubernetes-style server expects: {@code cluster-admin} (bound to {@code
 * system:masters}); {@code admin}, {@code edit} and {@code view}, aggregated from {@code
 * system:aggregate-to-admin}, {@code -edit} and {@code -view} (and each other: {@code view}'s rules
 * are in {@code edit}, {@code edit}'s in {@code admin}); {@code system:discovery} and {@code
 * system:basic-user} (bound to {@code system:authenticated}); and {@code system:public-info-viewer}
 * (bound to {@code system:authenticated} and {@code system:unauthenticated}); the roles of the
 * control plane's components, as kube-apiserver 1.33 with its default feature gates has them:
 * {@code system:kube-controller-manager} and {@code system:kube-scheduler} (bound to the users of
 * those names), {@code system:node} (whose binding kube keeps with no subjects: its Node authorizer
 * grants kubelets their access, so the role is bound by whoever wants it), and a {@code
 * system:controller:<name>} role for each of kube-controller-manager's controllers, bound to the
 * service account {@code kube-system/<name>} the controller runs as ({@link #controllerRoles()}).
 * Each carries the labels and annotation kube-apiserver sets. Stateless; thread-safe: each call
 * returns new objects.
 */
public final class BootstrapPolicy {
  /** The label on every default role and binding. */
  public static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";

  /** The annotation that asks for a default to be kept up to date. */
  public static final String AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";

  /** The group whose users may do everything. */
  public static final String SYSTEM_MASTERS = "system:masters";

  private static final String AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";
  private static final List<String> READ = List.of("get", "list", "watch");
  private static final List<String> WRITE =
      List.of("create", "delete", "deletecollection", "patch", "update");
  private static final List<String> READ_WRITE =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private BootstrapPolicy() {}

  /**
   * The default ClusterRoles, with the rules of the aggregated ones still empty (the server
   * aggregates them, see {@link ClusterRoleAggregation}).
   *
   * @return new objects, sorted by name
   */
  public static List<ClusterRole> clusterRoles() {
    List<ClusterRole> roles = new ArrayList<>();
    roles.add(aggregated("admin", "admin", Map.of()));
    roles.add(
        role(
            "cluster-admin",
            Map.of(),
            PolicyRule.resources(List.of("*"), List.of("*"), List.of("*")),
            PolicyRule.nonResourceURLs(List.of("*"), List.of("*"))));
    roles.add(aggregated("edit", "edit", Map.of(AGGREGATE_TO + "admin", "true")));
    roles.add(
        role(
            "system:aggregate-to-admin",
            Map.of(AGGREGATE_TO + "admin", "true"),
            PolicyRule.resources(
                List.of("create"),
                List.of("authorization.k8s.io"),
                List.of("localsubjectaccessreviews")),
            PolicyRule.resources(
                READ_WRITE,
                List.of("rbac.authorization.k8s.io"),
                List.of("rolebindings", "roles"))));
    roles.add(
        role(
            "system:aggregate-to-edit",
            Map.of(AGGREGATE_TO + "edit", "true"),
            PolicyRule.resources(
                READ,
                List.of(""),
                List.of(
                    "pods/attach",
                    "pods/exec",
                    "pods/portforward",
                    "pods/proxy",
                    "secrets",
                    "services/proxy")),
            PolicyRule.resources(List.of("impersonate"), List.of(""), List.of("serviceaccounts")),
            PolicyRule.resources(
                WRITE,
                List.of(""),
                List.of("pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy")),
            PolicyRule.resources(List.of("create"), List.of(""), List.of("pods/eviction")),
            PolicyRule.resources(
                WRITE,
                List.of(""),
                List.of(
                    "configmaps",
                    "events",
                    "persistentvolumeclaims",
                    "replicationcontrollers",
                    "replicationcontrollers/scale",
                    "secrets",
                    "serviceaccounts",
                    "services",
                    "services/proxy")),
            PolicyRule.resources(List.of("create"), List.of(""), List.of("serviceaccounts/token")),
            PolicyRule.resources(
                WRITE,
                List.of("apps"),
                List.of(
                    "daemonsets",
                    "deployments",
                    "deployments/rollback",
                    "deployments/scale",
                    "replicasets",
                    "replicasets/scale",
                    "statefulsets",
                    "statefulsets/scale")),
            PolicyRule.resources(
                WRITE, List.of("autoscaling"), List.of("horizontalpodautoscalers")),
            PolicyRule.resources(WRITE, List.of("batch"), List.of("cronjobs", "jobs")),
            PolicyRule.resources(
                WRITE,
                List.of("extensions"),
                List.of(
                    "daemonsets",
                    "deployments",
                    "deployments/rollback",
                    "deployments/scale",
                    "ingresses",
                    "networkpolicies",
                    "replicasets",
                    "replicasets/scale",
                    "replicationcontrollers/scale")),
            PolicyRule.resources(WRITE, List.of("policy"), List.of("poddisruptionbudgets")),
            PolicyRule.resources(
                WRITE, List.of("networking.k8s.io"), List.of("ingresses", "networkpolicies")),
            PolicyRule.resources(READ_WRITE, List.of("coordination.k8s.io"), List.of("leases"))));
    roles.add(
        role(
            "system:aggregate-to-view",
            Map.of(AGGREGATE_TO + "view", "true"),
            PolicyRule.resources(
                READ,
                List.of(""),
                List.of(
                    "configmaps",
                    "endpoints",
                    "persistentvolumeclaims",
                    "persistentvolumeclaims/status",
                    "pods",
                    "replicationcontrollers",
                    "replicationcontrollers/scale",
                    "serviceaccounts",
                    "services",
                    "services/status")),
            PolicyRule.resources(
                READ,
                List.of(""),
                List.of(
                    "bindings",
                    "events",
                    "limitranges",
                    "namespaces/status",
                    "pods/log",
                    "pods/status",
                    "replicationcontrollers/status",
                    "resourcequotas",
                    "resourcequotas/status")),
            PolicyRule.resources(READ, List.of(""), List.of("namespaces")),
            PolicyRule.resources(READ, List.of("discovery.k8s.io"), List.of("endpointslices")),
            PolicyRule.resources(
                READ,
                List.of("apps"),
                List.of(
                    "controllerrevisions",
                    "daemonsets",
                    "daemonsets/status",
                    "deployments",
                    "deployments/scale",
                    "deployments/status",
                    "replicasets",
                    "replicasets/scale",
                    "replicasets/status",
                    "statefulsets",
                    "statefulsets/scale",
                    "statefulsets/status")),
            PolicyRule.resources(
                READ,
                List.of("autoscaling"),
                List.of("horizontalpodautoscalers", "horizontalpodautoscalers/status")),
            PolicyRule.resources(
                READ,
                List.of("batch"),
                List.of("cronjobs", "cronjobs/status", "jobs", "jobs/status")),
            PolicyRule.resources(
                READ,
                List.of("extensions"),
                List.of(
                    "daemonsets",
                    "daemonsets/status",
                    "deployments",
                    "deployments/scale",
                    "deployments/status",
                    "ingresses",
                    "ingresses/status",
                    "networkpolicies",
                    "replicasets",
                    "replicasets/scale",
                    "replicasets/status",
                    "replicationcontrollers/scale")),
            PolicyRule.resources(
                READ,
                List.of("policy"),
                List.of("poddisruptionbudgets", "poddisruptionbudgets/status")),
            PolicyRule.resources(
                READ,
                List.of("networking.k8s.io"),
                List.of("ingresses", "ingresses/status", "networkpolicies"))));
    roles.add(
        role(
            "system:basic-user",
            Map.of(),
            PolicyRule.resources(
                List.of("create"),
                List.of("authorization.k8s.io"),
                List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews")),
            PolicyRule.resources(
                List.of("create"),
                List.of("authentication.k8s.io"),
                List.of("selfsubjectreviews"))));
    roles.add(
        role(
            "system:discovery",
            Map.of(),
            PolicyRule.nonResourceURLs(
                List.of("get"),
                List.of(
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/openapi",
                    "/openapi/*",
                    "/readyz",
                    "/version",
                    "/version/"))));
    roles.add(
        role(
            "system:public-info-viewer",
            Map.of(),
            PolicyRule.nonResourceURLs(
                List.of("get"),
                List.of("/healthz", "/livez", "/readyz", "/version", "/version/"))));
    roles.add(aggregated("view", "view", Map.of(AGGREGATE_TO + "edit", "true")));
    for (ControllerPolicy.Role role :
        List.of(
            ControllerPolicy.kubeControllerManager(),
            ControllerPolicy.kubeScheduler(),
            ControllerPolicy.node())) {
      roles.add(role(role.name(), Map.of(), role.rules().toArray(PolicyRule[]::new)));
    }
    roles.addAll(controllerRoles());
    roles.sort(java.util.Comparator.comparing(r -> r.getMetadata().getName()));
    return roles;
  }

  /**
   * The roles of kube-controller-manager's controllers, {@code system:controller:<name>}, as
   * kube-apiserver 1.33 with its default feature gates creates them ({@code controller_policy.go}):
   * those of the controllers behind gates that are off by default in 1.33 (resource claims, volume
   * attributes classes, cluster trust bundles, storage versions) are left out.
   *
   * @return new objects, sorted by name
   */
  public static List<ClusterRole> controllerRoles() {
    List<ClusterRole> roles = new ArrayList<>();
    for (ControllerPolicy.Role role : ControllerPolicy.controllers()) {
      roles.add(
          role(
              ControllerPolicy.CONTROLLER_PREFIX + role.name(),
              Map.of(),
              role.rules().toArray(PolicyRule[]::new)));
    }
    return roles;
  }

  /**
   * The bindings of the controllers' roles: each binds {@code system:controller:<name>} to the
   * service account {@code kube-system/<name>}.
   *
   * @return new objects, sorted by name
   */
  public static List<ClusterRoleBinding> controllerRoleBindings() {
    List<ClusterRoleBinding> bindings = new ArrayList<>();
    for (ControllerPolicy.Role role : ControllerPolicy.controllers()) {
      bindings.add(
          binding(
              ControllerPolicy.CONTROLLER_PREFIX + role.name(),
              Subject.serviceAccount("kube-system", role.name())));
    }
    return bindings;
  }

  /**
   * The default ClusterRoleBindings: each binds the ClusterRole of its name ({@code system:node}'s
   * binds it to nobody, as kube's).
   *
   * @return new objects, sorted by name
   */
  public static List<ClusterRoleBinding> clusterRoleBindings() {
    List<ClusterRoleBinding> bindings = new ArrayList<>();
    bindings.add(binding("cluster-admin", Subject.group(SYSTEM_MASTERS)));
    bindings.add(binding("system:basic-user", Subject.group("system:authenticated")));
    bindings.add(binding("system:discovery", Subject.group("system:authenticated")));
    bindings.add(
        binding(
            "system:public-info-viewer",
            Subject.group("system:authenticated"),
            Subject.group("system:unauthenticated")));
    bindings.add(
        binding("system:kube-controller-manager", Subject.user("system:kube-controller-manager")));
    bindings.add(binding("system:kube-scheduler", Subject.user("system:kube-scheduler")));
    // kube keeps this binding with no subjects (the Node authorizer grants kubelets their access).
    bindings.add(binding("system:node"));
    bindings.addAll(controllerRoleBindings());
    bindings.sort(java.util.Comparator.comparing(b -> b.getMetadata().getName()));
    return bindings;
  }

  private static ObjectMeta meta(String name, Map<String, String> labels) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    Map<String, String> all = new LinkedHashMap<>();
    all.put(BOOTSTRAPPING_LABEL, "rbac-defaults");
    all.putAll(labels);
    meta.setLabels(all);
    meta.setAnnotations(Map.of(AUTOUPDATE_ANNOTATION, "true"));
    return meta;
  }

  private static ClusterRole role(String name, Map<String, String> labels, PolicyRule... rules) {
    ClusterRole role = new ClusterRole();
    role.setApiVersion(RbacV1.V1.toString());
    role.setKind("ClusterRole");
    role.setMetadata(meta(name, labels));
    role.setRules(List.of(rules));
    return role;
  }

  private static ClusterRole aggregated(String name, String from, Map<String, String> labels) {
    ClusterRole role = role(name, labels);
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(Map.of(AGGREGATE_TO + from, "true"));
    role.setAggregationRule(new AggregationRule(List.of(selector)));
    role.setRules(List.of());
    return role;
  }

  private static ClusterRoleBinding binding(String name, Subject... subjects) {
    ClusterRoleBinding binding = new ClusterRoleBinding();
    binding.setApiVersion(RbacV1.V1.toString());
    binding.setKind("ClusterRoleBinding");
    binding.setMetadata(meta(name, Map.of()));
    binding.setSubjects(List.of(subjects));
    binding.setRoleRef(RoleRef.clusterRole(name));
    return binding;
  }
}
