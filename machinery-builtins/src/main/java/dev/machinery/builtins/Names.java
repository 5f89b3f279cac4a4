package dev.machinery.builtins;

import dev.machinery.core.schema.GroupKind;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What kube-apiserver's registries say of the built-in resources beyond their OpenAPI description:
 * short names and categories (as its discovery lists them), and which kinds keep {@code
 * metadata.generation}.
 */
final class Names {
  private Names() {}

  private static final Map<String, List<String>> SHORT_NAMES =
      Map.ofEntries(
          Map.entry("configmaps", List.of("cm")),
          Map.entry("endpoints", List.of("ep")),
          Map.entry("events", List.of("ev")),
          Map.entry("limitranges", List.of("limits")),
          Map.entry("namespaces", List.of("ns")),
          Map.entry("nodes", List.of("no")),
          Map.entry("persistentvolumeclaims", List.of("pvc")),
          Map.entry("persistentvolumes", List.of("pv")),
          Map.entry("pods", List.of("po")),
          Map.entry("replicationcontrollers", List.of("rc")),
          Map.entry("resourcequotas", List.of("quota")),
          Map.entry("serviceaccounts", List.of("sa")),
          Map.entry("services", List.of("svc")),
          Map.entry("daemonsets", List.of("ds")),
          Map.entry("deployments", List.of("deploy")),
          Map.entry("replicasets", List.of("rs")),
          Map.entry("statefulsets", List.of("sts")),
          Map.entry("horizontalpodautoscalers", List.of("hpa")),
          Map.entry("cronjobs", List.of("cj")),
          Map.entry("certificatesigningrequests", List.of("csr")),
          Map.entry("ingresses", List.of("ing")),
          Map.entry("networkpolicies", List.of("netpol")),
          Map.entry("ipaddresses", List.of("ip")),
          Map.entry("poddisruptionbudgets", List.of("pdb")),
          Map.entry("storageclasses", List.of("sc")),
          Map.entry("priorityclasses", List.of("pc")),
          Map.entry("volumeattributesclasses", List.of("vac")));

  private static final Set<String> ALL =
      Set.of(
          "pods",
          "replicationcontrollers",
          "services",
          "daemonsets",
          "deployments",
          "replicasets",
          "statefulsets",
          "horizontalpodautoscalers",
          "cronjobs",
          "jobs");

  private static final Set<String> API_EXTENSIONS =
      Set.of(
          "apiservices",
          "mutatingwebhookconfigurations",
          "validatingwebhookconfigurations",
          "validatingadmissionpolicies",
          "validatingadmissionpolicybindings",
          "mutatingadmissionpolicies",
          "mutatingadmissionpolicybindings");

  /**
   * The kinds whose strategies set {@code metadata.generation} to 1 on create and bump it on a
   * change outside metadata (and status): k8s.io/kubernetes {@code pkg/registry/**}/strategy.go.
   * HorizontalPodAutoscalers and CertificateSigningRequests have none.
   */
  private static final Set<String> GENERATION =
      Set.of(
          "Deployment",
          "ReplicaSet",
          "StatefulSet",
          "DaemonSet",
          "Job",
          "CronJob",
          "ReplicationController",
          "PodTemplate",
          "PodDisruptionBudget",
          "NetworkPolicy",
          "Ingress",
          "EndpointSlice",
          "ValidatingWebhookConfiguration",
          "MutatingWebhookConfiguration",
          "ValidatingAdmissionPolicy",
          "ValidatingAdmissionPolicyBinding",
          "FlowSchema",
          "PriorityLevelConfiguration");

  static List<String> shortNames(String resource) {
    return SHORT_NAMES.getOrDefault(resource, List.of());
  }

  static List<String> categories(String resource) {
    if (ALL.contains(resource)) {
      return List.of("all");
    }
    return API_EXTENSIONS.contains(resource) ? List.of("api-extensions") : List.of();
  }

  static boolean tracksGeneration(GroupKind kind) {
    return GENERATION.contains(kind.kind());
  }
}
