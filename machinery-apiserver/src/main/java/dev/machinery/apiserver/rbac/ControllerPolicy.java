package dev.machinery.apiserver.rbac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rules of kube-apiserver 1.33's roles for the control plane's components ({@code
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy}): the {@code system:controller:*} ClusterRoles
 * of kube-controller-manager's controllers (those of 1.33's default feature gates), {@code
 * system:kube-controller-manager}, {@code system:kube-scheduler} and {@code system:node}. Each
 * rule's verbs, groups, resources and names are sorted, as kube's rule builder sorts them, and the
 * rules are in kube's order.
 *
 * <p>Stateless; thread-safe.
 */
final class ControllerPolicy {
  /** The prefix of a controller's role; the rest is its service account's name. */
  static final String CONTROLLER_PREFIX = "system:controller:";

  private static final PolicyRule EVENTS = r("create patch update", ",events.k8s.io", "events");
  private static final String CORE = "";
  private static final String APPS_EXTENSIONS = "apps,extensions";
  private static final String STORAGE = "storage.k8s.io";
  private static final String BATCH = "batch";
  private static final String NETWORKING = "networking.k8s.io";

  private ControllerPolicy() {}

  /** A role's name and rules. */
  record Role(String name, List<PolicyRule> rules) {}

  /** A rule: space-separated verbs and resources, comma-separated groups ({@code ""} is core). */
  private static PolicyRule r(String verbs, String groups, String resources) {
    return PolicyRule.resources(
        Arrays.asList(verbs.split(" ")),
        Arrays.asList(groups.split(",", -1)),
        Arrays.asList(resources.split(" ")));
  }

  private static Role role(String name, PolicyRule... rules) {
    return new Role(name, List.of(rules));
  }

  /** The controllers' roles, by name, without the {@value #CONTROLLER_PREFIX} prefix. */
  static List<Role> controllers() {
    List<Role> roles = new ArrayList<>();
    roles.add(
        role(
            "attachdetach-controller",
            r("list watch", CORE, "persistentvolumeclaims persistentvolumes"),
            r("get list watch", CORE, "nodes"),
            r("patch update", CORE, "nodes/status"),
            r("list watch", CORE, "pods"),
            EVENTS,
            r("create delete get list watch", STORAGE, "volumeattachments"),
            r("get list watch", STORAGE, "csidrivers"),
            r("get list watch", STORAGE, "csinodes")));
    roles.add(
        role(
            "certificate-controller",
            r("delete get list watch", "certificates.k8s.io", "certificatesigningrequests"),
            r(
                "update",
                "certificates.k8s.io",
                "certificatesigningrequests/approval certificatesigningrequests/status"),
            r("approve", "certificates.k8s.io", "signers")
                .withResourceNames(List.of("kubernetes.io/kube-apiserver-client-kubelet")),
            r("sign", "certificates.k8s.io", "signers")
                .withResourceNames(
                    List.of(
                        "kubernetes.io/kube-apiserver-client",
                        "kubernetes.io/kube-apiserver-client-kubelet",
                        "kubernetes.io/kubelet-serving",
                        "kubernetes.io/legacy-unknown")),
            r("create", "authorization.k8s.io", "subjectaccessreviews"),
            EVENTS));
    roles.add(
        role(
            "clusterrole-aggregation-controller",
            r(
                "escalate get list patch update watch",
                "rbac.authorization.k8s.io",
                "clusterroles")));
    roles.add(
        role(
            "cronjob-controller",
            r("get list update watch", BATCH, "cronjobs"),
            r("create delete get list patch update watch", BATCH, "jobs"),
            r("update", BATCH, "cronjobs/status"),
            r("update", BATCH, "cronjobs/finalizers"),
            r("delete list watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "daemon-set-controller",
            r("get list watch", APPS_EXTENSIONS, "daemonsets"),
            r("update", APPS_EXTENSIONS, "daemonsets/status"),
            r("update", APPS_EXTENSIONS, "daemonsets/finalizers"),
            r("list watch", CORE, "nodes"),
            r("create delete list patch watch", CORE, "pods"),
            r("create", CORE, "pods/binding"),
            r("create delete get list patch update watch", "apps", "controllerrevisions"),
            EVENTS));
    roles.add(
        role(
            "deployment-controller",
            r("get list update watch", APPS_EXTENSIONS, "deployments"),
            r("update", APPS_EXTENSIONS, "deployments/status"),
            r("update", APPS_EXTENSIONS, "deployments/finalizers"),
            r("create delete get list patch update watch", APPS_EXTENSIONS, "replicasets"),
            r("get list update watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "disruption-controller",
            r("get list watch", APPS_EXTENSIONS, "deployments"),
            r("get list watch", APPS_EXTENSIONS, "replicasets"),
            r("get list watch", CORE, "replicationcontrollers"),
            r("get list watch", "policy", "poddisruptionbudgets"),
            r("get list watch", "apps", "statefulsets"),
            r("update", "policy", "poddisruptionbudgets/status"),
            r("patch update", CORE, "pods/status"),
            r("get", "*", "*/scale"),
            EVENTS));
    roles.add(
        role(
            "endpoint-controller",
            r("get list watch", CORE, "pods services"),
            r("create delete get list update watch", CORE, "endpoints"),
            r("create", CORE, "endpoints/restricted"),
            EVENTS));
    roles.add(
        role(
            "endpointslice-controller",
            r("get list watch", CORE, "nodes pods services"),
            r("update", CORE, "services/finalizers"),
            r("create delete get list update watch", "discovery.k8s.io", "endpointslices"),
            EVENTS));
    roles.add(
        role(
            "endpointslicemirroring-controller",
            r("get list watch", CORE, "endpoints services"),
            r("update", CORE, "services/finalizers"),
            r("update", CORE, "endpoints/finalizers"),
            r("create delete get list update watch", "discovery.k8s.io", "endpointslices"),
            EVENTS));
    roles.add(
        role(
            "ephemeral-volume-controller",
            r("get list watch", CORE, "pods"),
            r("update", CORE, "pods/finalizers"),
            r("create get list watch", CORE, "persistentvolumeclaims"),
            EVENTS));
    roles.add(
        role(
            "expand-controller",
            r("get list patch update watch", CORE, "persistentvolumes"),
            r("patch update", CORE, "persistentvolumeclaims/status"),
            r("get list watch", CORE, "persistentvolumeclaims"),
            EVENTS,
            // the Portworx volume plugin
            r("get", CORE, "services")));
    roles.add(
        role(
            "generic-garbage-collector",
            r("delete get list patch update watch", "*", "*"),
            EVENTS));
    roles.add(
        role(
            "horizontal-pod-autoscaler",
            r("get list watch", "autoscaling", "horizontalpodautoscalers"),
            r("update", "autoscaling", "horizontalpodautoscalers/status"),
            r("get update", "*", "*/scale"),
            r("list watch", CORE, "pods"),
            r("list watch", "metrics.k8s.io", "pods"),
            r("get list watch", "custom.metrics.k8s.io", "*"),
            r("get list watch", "external.metrics.k8s.io", "*"),
            EVENTS));
    roles.add(
        role(
            "job-controller",
            r("get list patch update watch", BATCH, "jobs"),
            r("update", BATCH, "jobs/status"),
            r("update", BATCH, "jobs/finalizers"),
            r("create delete list patch watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "legacy-service-account-token-cleaner",
            r("get", CORE, "configmaps")
                .withResourceNames(List.of("kube-apiserver-legacy-service-account-token-tracking")),
            r("delete patch", CORE, "secrets")));
    roles.add(
        role(
            "namespace-controller",
            r("delete get list watch", CORE, "namespaces"),
            r("update", CORE, "namespaces/finalize namespaces/status"),
            r("delete deletecollection get list watch", "*", "*")));
    roles.add(
        role(
            "node-controller",
            r("delete get list patch update watch", CORE, "nodes"),
            r("patch update", CORE, "nodes/status"),
            r("patch update", CORE, "pods/status"),
            r("delete get list watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "persistent-volume-binder",
            r("create delete get list update watch", CORE, "persistentvolumes"),
            r("update", CORE, "persistentvolumes/status"),
            r("get list update watch", CORE, "persistentvolumeclaims"),
            r("update", CORE, "persistentvolumeclaims/status"),
            r("create delete get list watch", CORE, "pods"),
            r("get list watch", STORAGE, "storageclasses"),
            r("list watch", CORE, "nodes"),
            EVENTS,
            r("watch", CORE, "events"),
            // the Portworx volume plugin
            r("get", CORE, "services")));
    roles.add(
        role(
            "pod-garbage-collector",
            r("delete list watch", CORE, "pods"),
            r("get list watch", CORE, "nodes"),
            r("patch", CORE, "pods/status")));
    roles.add(
        role(
            "pv-protection-controller",
            r("get list update watch", CORE, "persistentvolumes"),
            EVENTS));
    roles.add(
        role(
            "pvc-protection-controller",
            r("get list update watch", CORE, "persistentvolumeclaims"),
            r("get list watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "replicaset-controller",
            r("get list update watch", APPS_EXTENSIONS, "replicasets"),
            r("update", APPS_EXTENSIONS, "replicasets/status"),
            r("update", APPS_EXTENSIONS, "replicasets/finalizers"),
            r("create delete list patch watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "replication-controller",
            r("get list update watch", CORE, "replicationcontrollers"),
            r("update", CORE, "replicationcontrollers/status"),
            r("update", CORE, "replicationcontrollers/finalizers"),
            r("create delete list patch watch", CORE, "pods"),
            EVENTS));
    roles.add(
        role(
            "resourcequota-controller",
            r("list watch", "*", "*"),
            r("update", CORE, "resourcequotas/status"),
            EVENTS));
    roles.add(role("root-ca-cert-publisher", r("create update", CORE, "configmaps"), EVENTS));
    roles.add(
        role(
            "route-controller",
            r("list watch", CORE, "nodes"),
            r("patch", CORE, "nodes/status"),
            EVENTS));
    roles.add(
        role(
            "selinux-warning-controller",
            EVENTS,
            r("get list watch", CORE, "persistentvolumes"),
            r("get list watch", CORE, "persistentvolumeclaims"),
            r("get list watch", CORE, "pods"),
            r("get list watch", STORAGE, "csidrivers")));
    roles.add(role("service-account-controller", r("create", CORE, "serviceaccounts"), EVENTS));
    roles.add(
        role(
            "service-cidrs-controller",
            r("get list patch update watch", NETWORKING, "servicecidrs"),
            r("patch update", NETWORKING, "servicecidrs/finalizers"),
            r("patch update", NETWORKING, "servicecidrs/status"),
            r("get list watch", NETWORKING, "ipaddresses"),
            EVENTS));
    roles.add(
        role(
            "service-controller",
            r("get list watch", CORE, "services"),
            r("patch update", CORE, "services/status"),
            r("list watch", CORE, "nodes"),
            EVENTS));
    roles.add(
        role(
            "statefulset-controller",
            r("list watch", CORE, "pods"),
            r("get list watch", "apps", "statefulsets"),
            r("update", "apps", "statefulsets/status"),
            r("update", "apps", "statefulsets/finalizers"),
            r("create delete get patch update", CORE, "pods"),
            r("create delete get list patch update watch", "apps", "controllerrevisions"),
            r("create get list watch", CORE, "persistentvolumeclaims"),
            r("delete update", CORE, "persistentvolumeclaims"),
            r("update", CORE, "pods/finalizers"),
            EVENTS));
    roles.add(
        role("ttl-after-finished-controller", r("delete get list watch", BATCH, "jobs"), EVENTS));
    roles.add(role("ttl-controller", r("list patch update watch", CORE, "nodes"), EVENTS));
    roles.add(
        role(
            "validatingadmissionpolicy-status-controller",
            r("get list watch", "admissionregistration.k8s.io", "validatingadmissionpolicies"),
            r(
                "get patch update",
                "admissionregistration.k8s.io",
                "validatingadmissionpolicies/status"),
            EVENTS));
    return roles;
  }

  /** kube-controller-manager's own role: leader election, informers, service account tokens. */
  static Role kubeControllerManager() {
    return role(
        "system:kube-controller-manager",
        EVENTS,
        r("create", "coordination.k8s.io", "leases"),
        r("get update", "coordination.k8s.io", "leases")
            .withResourceNames(List.of("kube-controller-manager")),
        r("create", CORE, "secrets serviceaccounts"),
        r("delete", CORE, "secrets"),
        r("get", CORE, "configmaps namespaces secrets serviceaccounts"),
        r("update", CORE, "secrets serviceaccounts"),
        r("create", "authentication.k8s.io", "tokenreviews"),
        r("create", "authorization.k8s.io", "subjectaccessreviews"),
        r("list watch", "*", "*"),
        r("create", CORE, "serviceaccounts/token"));
  }

  /** kube-scheduler's role: leader election, binding pods, and what its plugins read. */
  static Role kubeScheduler() {
    return role(
        "system:kube-scheduler",
        EVENTS,
        r("create", "coordination.k8s.io", "leases"),
        r("get update", "coordination.k8s.io", "leases")
            .withResourceNames(List.of("kube-scheduler")),
        r("get list watch", CORE, "nodes"),
        r("delete get list watch", CORE, "pods"),
        r("create", CORE, "bindings pods/binding"),
        r("patch update", CORE, "pods/status"),
        r("get list watch", CORE, "replicationcontrollers services"),
        r("get list watch", APPS_EXTENSIONS, "replicasets"),
        r("get list watch", "apps", "statefulsets"),
        r("get list watch", "policy", "poddisruptionbudgets"),
        r("get list watch", CORE, "persistentvolumeclaims persistentvolumes"),
        r("create", "authentication.k8s.io", "tokenreviews"),
        r("create", "authorization.k8s.io", "subjectaccessreviews"),
        r("get list watch", STORAGE, "csinodes"),
        r("get list watch", CORE, "namespaces"),
        r("get list watch", STORAGE, "csidrivers"),
        r("get list watch", STORAGE, "csistoragecapacities"));
  }

  /**
   * A kubelet's role (what the Node authorizer and NodeRestriction narrow to a node's own objects
   * in kube-apiserver; here the rules alone).
   */
  static Role node() {
    return role(
        "system:node",
        r("create", "authentication.k8s.io", "tokenreviews"),
        r("create", "authorization.k8s.io", "localsubjectaccessreviews subjectaccessreviews"),
        r("get list watch", CORE, "services"),
        r("create get list watch", CORE, "nodes"),
        r("patch update", CORE, "nodes/status"),
        r("patch update", CORE, "nodes"),
        r("create patch update", CORE, "events"),
        r("get list watch", CORE, "pods"),
        r("create delete", CORE, "pods"),
        r("patch update", CORE, "pods/status"),
        r("create", CORE, "pods/eviction"),
        r("get list watch", CORE, "configmaps secrets"),
        r("get", CORE, "persistentvolumeclaims persistentvolumes"),
        r("get", CORE, "endpoints"),
        r("create get list watch", "certificates.k8s.io", "certificatesigningrequests"),
        r("create delete get patch update", "coordination.k8s.io", "leases"),
        r("get", STORAGE, "volumeattachments"),
        r("create", CORE, "serviceaccounts/token"),
        r("get patch update", CORE, "persistentvolumeclaims/status"),
        r("get list watch", STORAGE, "csidrivers"),
        r("create delete get patch update", STORAGE, "csinodes"),
        r("get list watch", "node.k8s.io", "runtimeclasses"));
  }
}
