package dev.machinery.builtins;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

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
            JsonTrees.map(object, "spec", "template", "spec"),
            spec.child("template").child("spec"),
            errors);
      }
      case "batch/Job" -> {
        Map<String, Object> podSpec = JsonTrees.map(object, "spec", "template", "spec");
        podSpec(podSpec, spec.child("template").child("spec"), errors);
        restartPolicy(podSpec, spec.child("template").child("spec"), errors);
      }
      case "batch/CronJob" -> {
        Map<String, Object> podSpec =
            JsonTrees.map(object, "spec", "jobTemplate", "spec", "template", "spec");
        FieldPath at = spec.child("jobTemplate").child("spec").child("template").child("spec");
        podSpec(podSpec, at, errors);
        restartPolicy(podSpec, at, errors);
      }
      case "/Pod" -> podSpec(JsonTrees.map(object, "spec"), spec, errors);
      case "/Service" -> {
        Map<String, Object> service = JsonTrees.map(object, "spec");
        if (service != null) {
          oneOf(
              service,
              "type",
              spec,
              List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort"),
              errors);
          List<Map<String, Object>> ports = JsonTrees.maps(service, "ports");
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
      case "apps/Deployment", "apps/ReplicaSet", "apps/DaemonSet", "batch/Job" -> {
        Object selector = JsonTrees.get(object, "spec", "selector");
        if (!sameSelector(selector, JsonTrees.get(old, "spec", "selector"))) {
          errors.add(
              FieldError.invalid(
                  FieldPath.of("spec").child("selector"),
                  selector instanceof Map<?, ?> map ? new RawValue(goSelector(map)) : "null",
                  ObjectMetaValidation.FIELD_IMMUTABLE));
        }
      }
      default -> {}
    }
    return errors;
  }

  /** Two label selectors equal as Go's semantic equality holds them (nil and empty alike). */
  private static boolean sameSelector(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    for (String part : List.of("matchLabels", "matchExpressions")) {
      Object x = JsonTrees.get(a, part);
      Object y = JsonTrees.get(b, part);
      boolean xEmpty =
          x == null
              || x instanceof Map<?, ?> m && m.isEmpty()
              || x instanceof List<?> l && l.isEmpty();
      boolean yEmpty =
          y == null
              || y instanceof Map<?, ?> m && m.isEmpty()
              || y instanceof List<?> l && l.isEmpty();
      if (!(xEmpty && yEmpty) && !Objects.equals(x, y)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A label selector as Go's {@code %#v} prints a {@code metav1.LabelSelector}, the value of
   * kube-apiserver's "field is immutable" error: {@code v1.LabelSelector{MatchLabels:map[string]
   * string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}, map keys sorted.
   */
  static String goSelector(Map<?, ?> selector) {
    StringBuilder out = new StringBuilder("v1.LabelSelector{MatchLabels:map[string]string");
    if (selector.get("matchLabels") instanceof Map<?, ?> labels) {
      out.append('{');
      String separator = "";
      for (Map.Entry<String, Object> entry : new TreeMap<>(stringKeys(labels)).entrySet()) {
        out.append(separator)
            .append(goQuote(entry.getKey()))
            .append(':')
            .append(goQuote(String.valueOf(entry.getValue())));
        separator = ", ";
      }
      out.append('}');
    } else {
      out.append("(nil)");
    }
    out.append(", MatchExpressions:[]v1.LabelSelectorRequirement");
    if (selector.get("matchExpressions") instanceof List<?> expressions) {
      out.append('{');
      String separator = "";
      for (Object item : expressions) {
        Map<?, ?> expression = item instanceof Map<?, ?> map ? map : Map.of();
        out.append(separator)
            .append("v1.LabelSelectorRequirement{Key:")
            .append(
                goQuote(String.valueOf(expression.get("key") == null ? "" : expression.get("key"))))
            .append(", Operator:")
            .append(
                goQuote(
                    String.valueOf(
                        expression.get("operator") == null ? "" : expression.get("operator"))))
            .append(", Values:[]string");
        if (expression.get("values") instanceof List<?> values) {
          out.append('{');
          String comma = "";
          for (Object value : values) {
            out.append(comma).append(goQuote(String.valueOf(value)));
            comma = ", ";
          }
          out.append('}');
        } else {
          out.append("(nil)");
        }
        out.append('}');
        separator = ", ";
      }
      out.append('}');
    } else {
      out.append("(nil)");
    }
    return out.append('}').toString();
  }

  private static Map<String, Object> stringKeys(Map<?, ?> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  /** A string as Go's {@code %q} quotes one (for the printable text labels hold). */
  private static String goQuote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
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
    Map<String, Object> selector = JsonTrees.map(object, "spec", "selector");
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
    Map<String, Object> given = JsonTrees.map(object, "spec", "template", "metadata", "labels");
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
    if (JsonTrees.maps(spec, "containers").isEmpty()) {
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
      List<Map<String, Object>> containers = JsonTrees.maps(spec, list);
      for (int i = 0; i < containers.size(); i++) {
        FieldPath container = at.child(list).index(i);
        oneOf(
            containers.get(i),
            "imagePullPolicy",
            container,
            List.of("Always", "IfNotPresent", "Never"),
            errors);
        List<Map<String, Object>> ports = JsonTrees.maps(containers.get(i), "ports");
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
