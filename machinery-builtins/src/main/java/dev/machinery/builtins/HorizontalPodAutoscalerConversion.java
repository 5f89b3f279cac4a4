package dev.machinery.builtins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converts HorizontalPodAutoscalers between {@code autoscaling/v2}, the version they are stored in,
 * and {@code autoscaling/v1}, which kubectl 1.27 to 1.32 write with {@code kubectl autoscale}
 * (Kubernetes' {@code pkg/apis/autoscaling/v1} conversions). {@code v1} has only a CPU utilization
 * target and its current value; everything else {@code v2} holds travels in annotations, so that a
 * {@code v1} client that reads an object and writes it back loses nothing:
 *
 * <ul>
 *   <li>{@code autoscaling.alpha.kubernetes.io/metrics}: the metrics other than a CPU utilization
 *       target, in {@code v1}'s metric shape ({@code targetAverageUtilization}, {@code metricName},
 *       ...);
 *   <li>{@code autoscaling.alpha.kubernetes.io/current-metrics}: every current metric, the CPU one
 *       too (its raw value is kept);
 *   <li>{@code autoscaling.alpha.kubernetes.io/conditions}: the status conditions;
 *   <li>{@code autoscaling.alpha.kubernetes.io/behavior}: the scaling behavior, written as
 *       kube-apiserver writes it, with the Go field names of its internal type ({@code ScaleUp},
 *       {@code StabilizationWindowSeconds}, ...), read back whatever their case.
 * </ul>
 *
 * <p>Into {@code v1}, those annotations an object already had are dropped first; into {@code v2}
 * they are read and dropped, the CPU target ({@code targetCPUUtilizationPercentage}) coming last
 * among the metrics, and an object naming no metric gets a CPU target of 80% utilization (the
 * default {@code v1} applied in its controller). A metrics, current metrics or conditions
 * annotation that is not valid JSON fails the conversion; a behavior annotation that is not is
 * ignored, as kube-apiserver ignores it.
 *
 * <p>Thread-safe: stateless.
 */
final class HorizontalPodAutoscalerConversion implements UnstructuredConversion {
  static final GroupVersion V1 = GroupVersion.of("autoscaling", "v1");
  static final GroupVersion V2 = GroupVersion.of("autoscaling", "v2");

  static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
  static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";
  static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
  static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";

  /** The annotations that carry fields between versions (kube's round-trip annotations). */
  private static final List<String> ROUND_TRIP =
      List.of(
          METRICS,
          BEHAVIOR,
          "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
          "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
          CURRENT_METRICS,
          CONDITIONS);

  private static final long DEFAULT_CPU_UTILIZATION = 80;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public void convert(Map<String, Object> object, GroupVersion to) {
    Object apiVersion = object.get("apiVersion");
    GroupVersion from = apiVersion instanceof String text ? GroupVersion.parse(text) : null;
    if (from == null || !(isServed(from) && isServed(to))) {
      throw new IllegalArgumentException(
          "a HorizontalPodAutoscaler converts between autoscaling/v1 and autoscaling/v2, not from "
              + (from == null ? "an object without apiVersion" : from.toString())
              + " to "
              + to);
    }
    if (from.equals(to)) {
      return;
    }
    Map<String, Object> converted = to.equals(V1) ? toV1(object) : toV2(object);
    converted.put("apiVersion", to.toString());
    object.clear();
    object.putAll(converted);
  }

  /**
   * A copy of an {@code autoscaling/v1} object's fields in the {@code v2} form, the object
   * unchanged (for kube's printer, which reads {@code v2}'s fields).
   *
   * @param v1 the fields of an {@code autoscaling/v1} object
   * @return the {@code v2} form
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> v2View(Map<String, Object> v1) {
    Map<String, Object> copy = (Map<String, Object>) JsonTrees.deepCopy(v1);
    copy.put("apiVersion", V1.toString());
    new HorizontalPodAutoscalerConversion().convert(copy, V2);
    return copy;
  }

  private static boolean isServed(GroupVersion version) {
    return version.equals(V1) || version.equals(V2);
  }

  // ---- autoscaling/v2 to autoscaling/v1

  private static Map<String, Object> toV1(Map<String, Object> v2) {
    Map<String, Object> spec = JsonTrees.map(v2, "spec");
    Map<String, Object> status = JsonTrees.map(v2, "status");
    Map<String, Object> annotations = withoutRoundTrip(JsonTrees.map(v2, "metadata"));

    Map<String, Object> outSpec = new LinkedHashMap<>();
    List<Object> otherMetrics = new ArrayList<>();
    if (spec != null) {
      copy(spec, outSpec, "scaleTargetRef", "scaleTargetRef");
      copy(spec, outSpec, "minReplicas", "minReplicas");
      copy(spec, outSpec, "maxReplicas", "maxReplicas");
      List<Map<String, Object>> metrics = JsonTrees.maps(spec, "metrics");
      // The first CPU metric with a utilization target (one of average value is passed over, as
      // kube does since kubernetes#101370).
      for (Map<String, Object> metric : metrics) {
        Object utilization = JsonTrees.get(metric, "resource", "target", "averageUtilization");
        if (isCpuResource(metric) && utilization != null) {
          outSpec.put("targetCPUUtilizationPercentage", utilization);
          break;
        }
      }
      for (Map<String, Object> metric : metrics) {
        if (!(isCpuResource(metric)
            && JsonTrees.get(metric, "resource", "target", "averageUtilization") != null)) {
          otherMetrics.add(metricSpecToV1(metric));
        }
      }
      if (spec.get("behavior") instanceof Map<?, ?> behavior) {
        annotations = put(annotations, BEHAVIOR, json(goBehavior(behavior)));
      }
    }
    if (!otherMetrics.isEmpty()) {
      annotations = put(annotations, METRICS, json(otherMetrics));
    }

    Map<String, Object> outStatus = null;
    if (status != null) {
      outStatus = new LinkedHashMap<>();
      copy(status, outStatus, "observedGeneration", "observedGeneration");
      copy(status, outStatus, "lastScaleTime", "lastScaleTime");
      outStatus.put("currentReplicas", orZero(status.get("currentReplicas")));
      outStatus.put("desiredReplicas", orZero(status.get("desiredReplicas")));
      List<Object> currentMetrics = new ArrayList<>();
      for (Map<String, Object> metric : JsonTrees.maps(status, "currentMetrics")) {
        Object utilization = JsonTrees.get(metric, "resource", "current", "averageUtilization");
        if (isCpuResource(metric) && utilization != null) {
          outStatus.put("currentCPUUtilizationPercentage", utilization);
        }
        currentMetrics.add(metricStatusToV1(metric));
      }
      if (!currentMetrics.isEmpty()) {
        annotations = put(annotations, CURRENT_METRICS, json(currentMetrics));
      }
      List<Object> conditions = new ArrayList<>();
      for (Map<String, Object> condition : JsonTrees.maps(status, "conditions")) {
        Map<String, Object> out = new LinkedHashMap<>();
        copy(condition, out, "type", "type");
        copy(condition, out, "status", "status");
        out.put("lastTransitionTime", condition.get("lastTransitionTime"));
        copy(condition, out, "reason", "reason");
        copy(condition, out, "message", "message");
        conditions.add(out);
      }
      if (!conditions.isEmpty()) {
        annotations = put(annotations, CONDITIONS, json(conditions));
      }
    }
    return assemble(v2, annotations, outSpec, spec != null, outStatus);
  }

  private static Map<String, Object> metricSpecToV1(Map<String, Object> metric) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", metric.getOrDefault("type", ""));
    if (metric.get("object") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("target", reference(source.get("describedObject")));
      v.put("metricName", metricName(source));
      v.put("targetValue", quantity(JsonTrees.get(tree(source), "target", "value")));
      putPresent(v, "selector", JsonTrees.get(tree(source), "metric", "selector"));
      putPresent(v, "averageValue", JsonTrees.get(tree(source), "target", "averageValue"));
      out.put("object", v);
    }
    if (metric.get("pods") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metricName", metricName(source));
      v.put("targetAverageValue", quantity(JsonTrees.get(tree(source), "target", "averageValue")));
      putPresent(v, "selector", JsonTrees.get(tree(source), "metric", "selector"));
      out.put("pods", v);
    }
    for (String key : List.of("resource", "containerResource")) {
      if (metric.get(key) instanceof Map<?, ?> source) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", tree(source).getOrDefault("name", ""));
        putPresent(
            v,
            "targetAverageUtilization",
            JsonTrees.get(tree(source), "target", "averageUtilization"));
        putPresent(v, "targetAverageValue", JsonTrees.get(tree(source), "target", "averageValue"));
        if (key.equals("containerResource")) {
          v.put("container", tree(source).getOrDefault("container", ""));
        }
        out.put(key, v);
      }
    }
    if (metric.get("external") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metricName", metricName(source));
      putPresent(v, "metricSelector", JsonTrees.get(tree(source), "metric", "selector"));
      putPresent(v, "targetValue", JsonTrees.get(tree(source), "target", "value"));
      putPresent(v, "targetAverageValue", JsonTrees.get(tree(source), "target", "averageValue"));
      out.put("external", v);
    }
    return out;
  }

  private static Map<String, Object> metricStatusToV1(Map<String, Object> metric) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", metric.getOrDefault("type", ""));
    if (metric.get("object") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("target", reference(source.get("describedObject")));
      v.put("metricName", metricName(source));
      v.put("currentValue", quantity(JsonTrees.get(tree(source), "current", "value")));
      putPresent(v, "selector", JsonTrees.get(tree(source), "metric", "selector"));
      putPresent(v, "averageValue", JsonTrees.get(tree(source), "current", "averageValue"));
      out.put("object", v);
    }
    if (metric.get("pods") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metricName", metricName(source));
      v.put(
          "currentAverageValue", quantity(JsonTrees.get(tree(source), "current", "averageValue")));
      putPresent(v, "selector", JsonTrees.get(tree(source), "metric", "selector"));
      out.put("pods", v);
    }
    for (String key : List.of("resource", "containerResource")) {
      if (metric.get(key) instanceof Map<?, ?> source) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", tree(source).getOrDefault("name", ""));
        putPresent(
            v,
            "currentAverageUtilization",
            JsonTrees.get(tree(source), "current", "averageUtilization"));
        v.put(
            "currentAverageValue",
            quantity(JsonTrees.get(tree(source), "current", "averageValue")));
        if (key.equals("containerResource")) {
          v.put("container", tree(source).getOrDefault("container", ""));
        }
        out.put(key, v);
      }
    }
    if (metric.get("external") instanceof Map<?, ?> source) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metricName", metricName(source));
      putPresent(v, "metricSelector", JsonTrees.get(tree(source), "metric", "selector"));
      v.put("currentValue", quantity(JsonTrees.get(tree(source), "current", "value")));
      putPresent(v, "currentAverageValue", JsonTrees.get(tree(source), "current", "averageValue"));
      out.put("external", v);
    }
    return out;
  }

  /** A behavior as Go writes kube's internal type: its field names, every field, nil as null. */
  private static Map<String, Object> goBehavior(Map<?, ?> behavior) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ScaleUp", goRules(behavior.get("scaleUp")));
    out.put("ScaleDown", goRules(behavior.get("scaleDown")));
    return out;
  }

  private static Map<String, Object> goRules(Object rules) {
    if (!(rules instanceof Map<?, ?> map)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("StabilizationWindowSeconds", map.get("stabilizationWindowSeconds"));
    out.put("SelectPolicy", map.get("selectPolicy"));
    List<Object> policies = null;
    if (map.get("policies") instanceof List<?> list) {
      policies = new ArrayList<>();
      for (Object item : list) {
        if (item instanceof Map<?, ?> policy) {
          Map<String, Object> p = new LinkedHashMap<>();
          p.put("Type", policy.containsKey("type") ? policy.get("type") : "");
          p.put("Value", orZero(policy.get("value")));
          p.put("PeriodSeconds", orZero(policy.get("periodSeconds")));
          policies.add(p);
        }
      }
    }
    out.put("Policies", policies);
    out.put("Tolerance", map.get("tolerance"));
    return out;
  }

  // ---- autoscaling/v1 to autoscaling/v2

  private static Map<String, Object> toV2(Map<String, Object> v1) {
    Map<String, Object> spec = JsonTrees.map(v1, "spec");
    Map<String, Object> status = JsonTrees.map(v1, "status");
    Map<String, Object> metadata = JsonTrees.map(v1, "metadata");
    Map<String, Object> annotations =
        metadata != null && metadata.get("annotations") instanceof Map<?, ?> map
            ? tree(map)
            : Map.of();

    Map<String, Object> outSpec = new LinkedHashMap<>();
    List<Object> metrics = new ArrayList<>();
    if (spec != null) {
      copy(spec, outSpec, "scaleTargetRef", "scaleTargetRef");
      copy(spec, outSpec, "minReplicas", "minReplicas");
      copy(spec, outSpec, "maxReplicas", "maxReplicas");
    }
    Object cpu = spec == null ? null : spec.get("targetCPUUtilizationPercentage");
    if (annotations.get(METRICS) instanceof String text) {
      for (Object metric : parseList(text, METRICS)) {
        metrics.add(metricSpecToV2(tree(metric, METRICS)));
      }
    }
    if (cpu != null) {
      metrics.add(cpuMetric("target", utilizationTarget(cpu)));
    }
    if (metrics.isEmpty()) {
      metrics.add(cpuMetric("target", utilizationTarget(DEFAULT_CPU_UTILIZATION)));
    }
    outSpec.put("metrics", metrics);
    if (annotations.get(BEHAVIOR) instanceof String text) {
      Map<String, Object> behavior = behaviorFromGo(text);
      if (behavior != null && !behavior.isEmpty()) {
        outSpec.put("behavior", behavior);
      }
    }

    Map<String, Object> outStatus = null;
    if (status != null
        || annotations.containsKey(CURRENT_METRICS)
        || annotations.containsKey(CONDITIONS)) {
      Map<String, Object> in = status == null ? Map.of() : status;
      outStatus = new LinkedHashMap<>();
      copy(in, outStatus, "observedGeneration", "observedGeneration");
      copy(in, outStatus, "lastScaleTime", "lastScaleTime");
      if (in.get("currentReplicas") instanceof Number n && n.longValue() != 0) {
        // v2 leaves a zero out (omitempty), v1 always writes it.
        outStatus.put("currentReplicas", n);
      }
      outStatus.put("desiredReplicas", orZero(in.get("desiredReplicas")));
      List<Object> current = new ArrayList<>();
      if (annotations.get(CURRENT_METRICS) instanceof String text) {
        // The annotation has more than the CPU percentage: it replaces it.
        for (Object metric : parseList(text, CURRENT_METRICS)) {
          current.add(metricStatusToV2(tree(metric, CURRENT_METRICS)));
        }
      } else if (in.get("currentCPUUtilizationPercentage") != null) {
        Map<String, Object> utilization = new LinkedHashMap<>();
        utilization.put("averageUtilization", in.get("currentCPUUtilizationPercentage"));
        current.add(cpuMetric("current", utilization));
      }
      if (!current.isEmpty()) {
        outStatus.put("currentMetrics", current);
      }
      if (annotations.get(CONDITIONS) instanceof String text) {
        List<Object> conditions = new ArrayList<>();
        for (Object condition : parseList(text, CONDITIONS)) {
          Map<String, Object> c = tree(condition, CONDITIONS);
          Map<String, Object> out = new LinkedHashMap<>();
          copy(c, out, "type", "type");
          copy(c, out, "status", "status");
          copy(c, out, "lastTransitionTime", "lastTransitionTime");
          copy(c, out, "reason", "reason");
          copy(c, out, "message", "message");
          conditions.add(out);
        }
        if (!conditions.isEmpty()) {
          outStatus.put("conditions", conditions);
        }
      }
    }
    return assemble(v1, withoutRoundTrip(metadata), outSpec, true, outStatus);
  }

  private static Map<String, Object> metricSpecToV2(Map<String, Object> metric) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", metric.getOrDefault("type", ""));
    if (metric.get("object") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("type", source.get("averageValue") == null ? "Value" : "AverageValue");
      target.put("value", quantity(source.get("targetValue")));
      putPresent(target, "averageValue", source.get("averageValue"));
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("describedObject", reference(source.get("target")));
      v.put("target", target);
      v.put("metric", identifier(source, "metricName", "selector"));
      out.put("object", v);
    }
    if (metric.get("pods") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("type", "AverageValue");
      target.put("averageValue", quantity(source.get("targetAverageValue")));
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", identifier(source, "metricName", "selector"));
      v.put("target", target);
      out.put("pods", v);
    }
    for (String key : List.of("resource", "containerResource")) {
      if (metric.get(key) instanceof Map<?, ?> raw) {
        Map<String, Object> source = tree(raw);
        Map<String, Object> target = new LinkedHashMap<>();
        Object utilization = source.get("targetAverageUtilization");
        target.put("type", utilization == null ? "AverageValue" : "Utilization");
        putPresent(target, "averageUtilization", utilization);
        putPresent(target, "averageValue", source.get("targetAverageValue"));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", source.getOrDefault("name", ""));
        v.put("target", target);
        if (key.equals("containerResource")) {
          v.put("container", source.getOrDefault("container", ""));
        }
        out.put(key, v);
      }
    }
    if (metric.get("external") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("type", source.get("targetValue") == null ? "AverageValue" : "Value");
      putPresent(target, "value", source.get("targetValue"));
      putPresent(target, "averageValue", source.get("targetAverageValue"));
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", identifier(source, "metricName", "metricSelector"));
      v.put("target", target);
      out.put("external", v);
    }
    return out;
  }

  private static Map<String, Object> metricStatusToV2(Map<String, Object> metric) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", metric.getOrDefault("type", ""));
    if (metric.get("object") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> current = new LinkedHashMap<>();
      current.put("value", quantity(source.get("currentValue")));
      putPresent(current, "averageValue", source.get("averageValue"));
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", identifier(source, "metricName", "selector"));
      v.put("current", current);
      v.put("describedObject", reference(source.get("target")));
      out.put("object", v);
    }
    if (metric.get("pods") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", identifier(source, "metricName", "selector"));
      Map<String, Object> current = new LinkedHashMap<>();
      current.put("averageValue", quantity(source.get("currentAverageValue")));
      v.put("current", current);
      out.put("pods", v);
    }
    for (String key : List.of("resource", "containerResource")) {
      if (metric.get(key) instanceof Map<?, ?> raw) {
        Map<String, Object> source = tree(raw);
        Map<String, Object> current = new LinkedHashMap<>();
        current.put("averageValue", quantity(source.get("currentAverageValue")));
        putPresent(current, "averageUtilization", source.get("currentAverageUtilization"));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", source.getOrDefault("name", ""));
        v.put("current", current);
        if (key.equals("containerResource")) {
          v.put("container", source.getOrDefault("container", ""));
        }
        out.put(key, v);
      }
    }
    if (metric.get("external") instanceof Map<?, ?> raw) {
      Map<String, Object> source = tree(raw);
      Map<String, Object> current = new LinkedHashMap<>();
      current.put("value", quantity(source.get("currentValue")));
      putPresent(current, "averageValue", source.get("currentAverageValue"));
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("metric", identifier(source, "metricName", "metricSelector"));
      v.put("current", current);
      out.put("external", v);
    }
    return out;
  }

  /**
   * The behavior annotation read as Go's decoder reads kube's internal type (field names in any
   * case), in {@code v2}'s names; null when it is not a JSON object.
   */
  private static Map<String, Object> behaviorFromGo(String text) {
    Object parsed;
    try {
      parsed = JSON.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      return null;
    }
    if (!(parsed instanceof Map<?, ?> map)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    putPresent(out, "scaleUp", rulesFromGo(field(map, "ScaleUp")));
    putPresent(out, "scaleDown", rulesFromGo(field(map, "ScaleDown")));
    return out;
  }

  private static Map<String, Object> rulesFromGo(Object rules) {
    if (!(rules instanceof Map<?, ?> map)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    putPresent(out, "stabilizationWindowSeconds", field(map, "StabilizationWindowSeconds"));
    putPresent(out, "selectPolicy", field(map, "SelectPolicy"));
    if (field(map, "Policies") instanceof List<?> list) {
      List<Object> policies = new ArrayList<>();
      for (Object item : list) {
        if (item instanceof Map<?, ?> policy) {
          Map<String, Object> p = new LinkedHashMap<>();
          p.put("type", orEmpty(field(policy, "Type")));
          p.put("value", orZero(field(policy, "Value")));
          p.put("periodSeconds", orZero(field(policy, "PeriodSeconds")));
          policies.add(p);
        }
      }
      out.put("policies", policies);
    }
    putPresent(out, "tolerance", field(map, "Tolerance"));
    return out;
  }

  /** A field of a Go-encoded object, its name matched without case, as Go's decoder does. */
  private static Object field(Map<?, ?> map, String name) {
    Object exact = map.get(name);
    if (exact != null) {
      return exact;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (entry.getKey() instanceof String key && key.toLowerCase(Locale.ROOT).equals(lower)) {
        return entry.getValue();
      }
    }
    return null;
  }

  // ---- shared

  private static boolean isCpuResource(Map<String, Object> metric) {
    return "Resource".equals(metric.get("type"))
        && metric.get("resource") instanceof Map<?, ?> resource
        && "cpu".equals(resource.get("name"));
  }

  /** A MetricTarget of a utilization, its fields in v2's order. */
  private static Map<String, Object> utilizationTarget(Object percent) {
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("type", "Utilization");
    target.put("averageUtilization", percent);
    return target;
  }

  private static Map<String, Object> cpuMetric(String field, Map<String, Object> value) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("name", "cpu");
    resource.put(field, value);
    Map<String, Object> metric = new LinkedHashMap<>();
    metric.put("type", "Resource");
    metric.put("resource", resource);
    return metric;
  }

  private static Map<String, Object> identifier(
      Map<String, Object> source, String nameField, String selectorField) {
    Map<String, Object> metric = new LinkedHashMap<>();
    metric.put("name", source.getOrDefault(nameField, ""));
    putPresent(metric, "selector", source.get(selectorField));
    return metric;
  }

  private static Object metricName(Map<?, ?> source) {
    return orEmpty(JsonTrees.get(tree(source), "metric", "name"));
  }

  /** A CrossVersionObjectReference: kind and name always, apiVersion when set. */
  private static Map<String, Object> reference(Object reference) {
    Map<String, Object> in = reference instanceof Map<?, ?> map ? tree(map) : Map.of();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", in.getOrDefault("kind", ""));
    out.put("name", in.getOrDefault("name", ""));
    putPresent(out, "apiVersion", in.get("apiVersion"));
    return out;
  }

  /** A Quantity Go declares without a pointer: its zero value is {@code "0"}. */
  private static Object quantity(Object value) {
    return value == null ? "0" : value;
  }

  private static Object orZero(Object value) {
    return value == null ? 0L : value;
  }

  private static Object orEmpty(Object value) {
    return value == null ? "" : value;
  }

  private static void copy(
      Map<String, Object> from, Map<String, Object> to, String fromName, String toName) {
    Object value = from.get(fromName);
    if (value != null) {
      to.put(toName, value);
    }
  }

  private static void putPresent(Map<String, Object> to, String name, Object value) {
    if (value != null) {
      to.put(name, value);
    }
  }

  /** The object's annotations without the round-trip ones (a copy), or null when none are left. */
  private static Map<String, Object> withoutRoundTrip(Map<String, Object> metadata) {
    if (metadata == null || !(metadata.get("annotations") instanceof Map<?, ?> annotations)) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>(tree(annotations));
    ROUND_TRIP.forEach(out::remove);
    return out.isEmpty() ? null : out;
  }

  private static Map<String, Object> put(
      Map<String, Object> annotations, String key, String value) {
    Map<String, Object> out = annotations == null ? new LinkedHashMap<>() : annotations;
    out.put(key, value);
    return out;
  }

  /** The converted object: its other top-level fields as they were, in their order. */
  private static Map<String, Object> assemble(
      Map<String, Object> in,
      Map<String, Object> annotations,
      Map<String, Object> spec,
      boolean hasSpec,
      Map<String, Object> status) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("apiVersion", in.get("apiVersion"));
    out.put("kind", in.getOrDefault("kind", "HorizontalPodAutoscaler"));
    Map<String, Object> metadata = JsonTrees.map(in, "metadata");
    if (metadata != null || annotations != null) {
      Map<String, Object> meta =
          metadata == null ? new LinkedHashMap<>() : new LinkedHashMap<>(metadata);
      if (annotations == null) {
        meta.remove("annotations");
      } else {
        meta.put("annotations", annotations);
      }
      out.put("metadata", meta);
    }
    if (hasSpec) {
      out.put("spec", spec);
    }
    if (status != null) {
      out.put("status", status);
    }
    for (Map.Entry<String, Object> field : in.entrySet()) {
      out.putIfAbsent(field.getKey(), field.getValue());
    }
    return out;
  }

  /**
   * A round-trip annotation's list. It is read only from an {@code autoscaling/v1} object a client
   * wrote (the stored {@code v2} objects carry none), so one that is not a JSON list is the
   * client's error: {@code 400}, as kube-apiserver's decoder answers it.
   */
  private static List<?> parseList(String text, String annotation) {
    try {
      Object parsed = JSON.readValue(text, Object.class);
      if (parsed instanceof List<?> list) {
        return list;
      }
    } catch (JsonProcessingException e) {
      throw malformed(annotation, "is not a JSON list: " + e.getOriginalMessage());
    }
    throw malformed(annotation, "is not a JSON list");
  }

  private static StatusException malformed(String annotation, String problem) {
    return ApiErrors.newBadRequest("metadata.annotations[" + annotation + "]: " + problem);
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing an annotation failed", e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tree(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  private static Map<String, Object> tree(Object value, String annotation) {
    if (value instanceof Map<?, ?> map) {
      return tree(map);
    }
    throw malformed(annotation, "holds " + value + " where an object belongs");
  }
}
