package dev.machinery.builtins;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The fields a field selector may name beyond {@code metadata.name} and {@code metadata.namespace},
 * kind by kind, as kube-apiserver's registries offer them.
 */
final class FieldLabels {
  private FieldLabels() {}

  private static final Map<String, List<String>> LABELS =
      Map.of(
          "/Pod",
          List.of(
              "spec.nodeName",
              "spec.restartPolicy",
              "spec.schedulerName",
              "spec.serviceAccountName",
              "spec.hostNetwork",
              "status.phase",
              "status.podIP",
              "status.nominatedNodeName"),
          "/Event",
          List.of(
              "involvedObject.kind",
              "involvedObject.namespace",
              "involvedObject.name",
              "involvedObject.uid",
              "involvedObject.apiVersion",
              "involvedObject.resourceVersion",
              "involvedObject.fieldPath",
              "reason",
              "reportingComponent",
              "source",
              "type"),
          "/Secret",
          List.of("type"),
          "/Namespace",
          List.of("status.phase"),
          "/Node",
          List.of("spec.unschedulable"),
          "/ReplicationController",
          List.of("status.replicas"),
          "apps/ReplicaSet",
          List.of("status.replicas"),
          "batch/Job",
          List.of("status.successful"),
          "certificates.k8s.io/CertificateSigningRequest",
          List.of("spec.signerName"),
          "events.k8s.io/Event",
          List.of(
              "regarding.kind",
              "regarding.namespace",
              "regarding.name",
              "regarding.uid",
              "regarding.apiVersion",
              "regarding.resourceVersion",
              "regarding.fieldPath",
              "reason",
              "reportingController",
              "source",
              "type"));

  /**
   * The labels read from a field of another name: {@code events.k8s.io} Events are stored as core
   * Events, and kube-apiserver maps that group's labels onto the core Event's fields (its {@code
   * events/v1} field label conversion).
   */
  private static final Map<String, String> STORED_AS =
      Map.of(
          "regarding.kind", "involvedObject.kind",
          "regarding.namespace", "involvedObject.namespace",
          "regarding.name", "involvedObject.name",
          "regarding.uid", "involvedObject.uid",
          "regarding.apiVersion", "involvedObject.apiVersion",
          "regarding.resourceVersion", "involvedObject.resourceVersion",
          "regarding.fieldPath", "involvedObject.fieldPath",
          "reportingController", "reportingComponent");

  /** The labels kube-apiserver's watch cache indexes: a Pod's node (its pod registry's indexer). */
  static List<String> indexedFor(GroupKind kind) {
    return kind.group().isEmpty() && kind.kind().equals("Pod")
        ? List.of("spec.nodeName")
        : List.of();
  }

  static Map<String, Function<Object, String>> forKind(GroupKind kind) {
    Map<String, Function<Object, String>> out = new LinkedHashMap<>();
    boolean storedAsCore = kind.equals(EventConversion.EVENTS_EVENT);
    for (String label : LABELS.getOrDefault(kind.group() + "/" + kind.kind(), List.of())) {
      String[] path = (storedAsCore ? STORED_AS.getOrDefault(label, label) : label).split("\\.");
      out.put(
          label,
          object -> {
            Map<String, Object> content = ((Unstructured) object).content();
            Object value = JsonTrees.get(content, path);
            if (label.equals("source")) {
              // An Event's source is its source's component, or else its reporting controller.
              value = value instanceof Map<?, ?> source ? source.get("component") : null;
              if (value == null || "".equals(value)) {
                value = content.get("reportingComponent");
              }
            }
            if (label.equals("spec.hostNetwork") || label.equals("spec.unschedulable")) {
              return value == null ? "false" : String.valueOf(value);
            }
            return value == null ? "" : String.valueOf(value);
          });
    }
    return out;
  }
}
