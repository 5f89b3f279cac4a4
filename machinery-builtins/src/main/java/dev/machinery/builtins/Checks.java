package dev.machinery.builtins;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A few of the checks Kubernetes writes in Go beyond its schemas, those clients meet first, with
 * kube-apiserver's field paths and messages: a workload's selector must be non-empty and select its
 * template's labels, a pod needs a container, and a Job's pods restart {@code OnFailure} or {@code
 * Never}.
 */
final class Checks {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Checks() {}

  static List<FieldError> validate(GroupKind kind, Map<String, Object> object) {
    List<FieldError> errors = new ArrayList<>();
    FieldPath spec = FieldPath.of("spec");
    switch (kind.group() + "/" + kind.kind()) {
      case "apps/Deployment", "apps/ReplicaSet", "apps/StatefulSet", "apps/DaemonSet" -> {
        selectsTemplate(object, spec, errors);
        podSpec(
            Trees.map(object, "spec", "template", "spec"),
            spec.child("template").child("spec"),
            errors);
      }
      case "batch/Job" -> {
        Map<String, Object> podSpec = Trees.map(object, "spec", "template", "spec");
        podSpec(podSpec, spec.child("template").child("spec"), errors);
        restartPolicy(podSpec, spec.child("template").child("spec"), errors);
      }
      case "batch/CronJob" -> {
        Map<String, Object> podSpec =
            Trees.map(object, "spec", "jobTemplate", "spec", "template", "spec");
        FieldPath at = spec.child("jobTemplate").child("spec").child("template").child("spec");
        podSpec(podSpec, at, errors);
        restartPolicy(podSpec, at, errors);
      }
      case "/Pod" -> podSpec(Trees.map(object, "spec"), spec, errors);
      case "/Service" -> {
        Map<String, Object> service = Trees.map(object, "spec");
        if (service != null) {
          oneOf(
              service,
              "type",
              spec,
              List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort"),
              errors);
          List<Map<String, Object>> ports = Trees.maps(service, "ports");
          for (int p = 0; p < ports.size(); p++) {
            oneOf(ports.get(p), "protocol", spec.child("ports").index(p), PROTOCOLS, errors);
          }
        }
      }
      default -> {}
    }
    return errors;
  }

  /**
   * The checks of an update beyond those of any write, with kube-apiserver's messages: a Secret's
   * {@code type} never changes, and an immutable ConfigMap or Secret ({@code immutable: true})
   * keeps its data and stays immutable.
   */
  static List<FieldError> validateUpdate(
      GroupKind kind, Map<String, Object> object, Map<String, Object> old) {
    List<FieldError> errors = new ArrayList<>();
    switch (kind.group() + "/" + kind.kind()) {
      case "/ConfigMap" -> immutable(object, old, List.of("data", "binaryData"), errors);
      case "/Secret" -> {
        if (!Objects.equals(object.get("type"), old.get("type"))) {
          errors.add(
              FieldError.invalid(
                  FieldPath.of("type"), object.get("type"), ObjectMetaValidation.FIELD_IMMUTABLE));
        }
        immutable(object, old, List.of("data"), errors);
      }
      default -> {}
    }
    return errors;
  }

  /**
   * What {@code immutable: true} keeps, as Go's ValidateConfigMapUpdate and ValidateSecretUpdate.
   */
  private static void immutable(
      Map<String, Object> object,
      Map<String, Object> old,
      List<String> fields,
      List<FieldError> errors) {
    if (!Boolean.TRUE.equals(old.get("immutable"))) {
      return;
    }
    String detail = "field is immutable when `immutable` is set";
    if (!Boolean.TRUE.equals(object.get("immutable"))) {
      errors.add(FieldError.forbidden(FieldPath.of("immutable"), detail));
    }
    for (String field : fields) {
      if (!Objects.equals(object.get(field), old.get(field))) {
        errors.add(FieldError.forbidden(FieldPath.of(field), detail));
      }
    }
  }

  private static void selectsTemplate(
      Map<String, Object> object, FieldPath spec, List<FieldError> errors) {
    Map<String, Object> selector = Trees.map(object, "spec", "selector");
    if (selector == null) {
      return; // the schema reports it missing
    }
    Selector parsed;
    try {
      parsed = LabelSelectors.toSelector(JSON.convertValue(selector, LabelSelector.class));
    } catch (RuntimeException e) {
      errors.add(FieldError.invalid(spec.child("selector"), selector, e.getMessage()));
      return;
    }
    if (parsed.toString().isEmpty()) {
      errors.add(
          FieldError.invalid(
              spec.child("selector"), selector, "empty selector is invalid for deployment"));
      return;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, Object> given = Trees.map(object, "spec", "template", "metadata", "labels");
    if (given != null) {
      given.forEach((k, v) -> labels.put(k, String.valueOf(v)));
    }
    if (!parsed.matches(labels)) {
      errors.add(
          FieldError.invalid(
              spec.child("template").child("metadata").child("labels"),
              labels,
              "`selector` does not match template `labels`"));
    }
  }

  private static void podSpec(Map<String, Object> spec, FieldPath at, List<FieldError> errors) {
    if (spec == null) {
      return;
    }
    if (Trees.maps(spec, "containers").isEmpty()) {
      errors.add(FieldError.required(at.child("containers"), ""));
    }
    oneOf(spec, "restartPolicy", at, List.of("Always", "OnFailure", "Never"), errors);
    oneOf(
        spec,
        "dnsPolicy",
        at,
        List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"),
        errors);
    for (String list : List.of("initContainers", "containers")) {
      List<Map<String, Object>> containers = Trees.maps(spec, list);
      for (int i = 0; i < containers.size(); i++) {
        FieldPath container = at.child(list).index(i);
        oneOf(
            containers.get(i),
            "imagePullPolicy",
            container,
            List.of("Always", "IfNotPresent", "Never"),
            errors);
        List<Map<String, Object>> ports = Trees.maps(containers.get(i), "ports");
        for (int p = 0; p < ports.size(); p++) {
          oneOf(ports.get(p), "protocol", container.child("ports").index(p), PROTOCOLS, errors);
        }
      }
    }
  }

  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  /** A field that holds one of a set of values, reported as Go's {@code field.NotSupported}. */
  private static void oneOf(
      Map<String, Object> object,
      String field,
      FieldPath at,
      List<String> supported,
      List<FieldError> errors) {
    Object value = object.get(field);
    if (value != null && !supported.contains(value)) {
      errors.add(FieldError.notSupported(at.child(field), value, supported));
    }
  }

  private static void restartPolicy(
      Map<String, Object> spec, FieldPath at, List<FieldError> errors) {
    if (spec == null) {
      return;
    }
    Object policy = spec.get("restartPolicy");
    if (!"OnFailure".equals(policy) && !"Never".equals(policy)) {
      errors.add(
          policy == null
              ? FieldError.required(
                  at.child("restartPolicy"), "valid values: \"OnFailure\", \"Never\"")
              : FieldError.notSupported(
                  at.child("restartPolicy"), policy, List.of("OnFailure", "Never")));
    }
  }
}
