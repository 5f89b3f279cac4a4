package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * HorizontalPodAutoscalers between {@code autoscaling/v2} and {@code autoscaling/v1}: the cases of
 * Kubernetes' {@code pkg/apis/autoscaling/v1/conversion_test.go} (which CPU target {@code v1}
 * gets), annotations as kube-apiserver writes them on {@code v1} objects, and round trips that lose
 * nothing.
 */
class HorizontalPodAutoscalerConversionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HorizontalPodAutoscalerConversion CONVERSION =
      new HorizontalPodAutoscalerConversion();

  private static Map<String, Object> object(String json) {
    try {
      return JSON.readValue(json.replace('\'', '"'), new TypeReference<Map<String, Object>>() {});
    } catch (Exception e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  private static Map<String, Object> to(Map<String, Object> object, String version) {
    CONVERSION.convert(object, dev.machinery.core.schema.GroupVersion.parse(version));
    return object;
  }

  private static final String CPU_VALUE =
      "{'type':'Resource','resource':{'name':'cpu','target':{'type':'AverageValue','averageValue':'300m'}}}";

  private static String cpuUtilization(int percent) {
    return "{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization','averageUtilization':"
        + percent
        + "}}}";
  }

  private static Map<String, Object> v2(String metrics) {
    return object(
        "{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler','metadata':{'name':'h'},"
            + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
            + "'minReplicas':1,'maxReplicas':3,'metrics':"
            + metrics
            + "}}");
  }

  @Test
  void v1GetsTheFirstCpuUtilizationTargetAsKubeConvertsIt() {
    // conversion_test.go: a CPU average value before the utilization does not hide it.
    Map<String, Object> both =
        to(v2("[" + CPU_VALUE + "," + cpuUtilization(70) + "]"), "autoscaling/v1");
    assertEquals(70, ((Map<?, ?>) both.get("spec")).get("targetCPUUtilizationPercentage"));
    Map<String, Object> only = to(v2("[" + cpuUtilization(60) + "]"), "autoscaling/v1");
    assertEquals(60, ((Map<?, ?>) only.get("spec")).get("targetCPUUtilizationPercentage"));
    // The utilization metric is the field; the average value travels in the annotation.
    assertEquals(
        "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"targetAverageValue\":\"300m\"}}]",
        annotations(both).get(HorizontalPodAutoscalerConversion.METRICS));
    assertNull(annotations(only));
    Map<String, Object> none = to(v2("[]"), "autoscaling/v1");
    assertFalse(((Map<?, ?>) none.get("spec")).containsKey("targetCPUUtilizationPercentage"));
    assertEquals(
        List.of("scaleTargetRef", "minReplicas", "maxReplicas", "targetCPUUtilizationPercentage"),
        List.copyOf(((Map<?, ?>) only.get("spec")).keySet()));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> annotations(Map<String, Object> object) {
    return (Map<String, Object>) ((Map<String, Object>) object.get("metadata")).get("annotations");
  }

  @Test
  void aV1ObjectWithoutTargetGetsKubesDefaultOfEightyPercent() {
    Map<String, Object> v1 =
        object(
            "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'h'},"
                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3}}");
    Map<String, Object> converted = to(v1, "autoscaling/v2");
    assertEquals(
        json(object("{'metrics':[" + cpuUtilization(80) + "]}").get("metrics")),
        json(((Map<?, ?>) converted.get("spec")).get("metrics")));
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A v1 object as kube-apiserver serves one its controller has worked on. */
  @Test
  void kubesV1AnnotationsBecomeV2FieldsAndAreDropped() {
    Map<String, Object> v1 =
        object(
            "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'h',"
                + "'annotations':{'team':'web',"
                + "'autoscaling.alpha.kubernetes.io/conditions':'[{\\'type\\':\\'AbleToScale\\',"
                + "\\'status\\':\\'True\\',\\'lastTransitionTime\\':\\'2026-11-30T01:00:00Z\\',"
                + "\\'reason\\':\\'SucceededGetScale\\',\\'message\\':\\'the HPA controller was able to get"
                + " the target\\\\u0027s current scale\\'}]',"
                + "'autoscaling.alpha.kubernetes.io/current-metrics':'[{\\'type\\':\\'Resource\\',"
                + "\\'resource\\':{\\'name\\':\\'cpu\\',\\'currentAverageUtilization\\':12,"
                + "\\'currentAverageValue\\':\\'3m\\'}}]'}},"
                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
                + "'minReplicas':1,'maxReplicas':3,'targetCPUUtilizationPercentage':50},"
                + "'status':{'currentReplicas':2,'desiredReplicas':2,"
                + "'currentCPUUtilizationPercentage':12}}".replace("\\'", "\\\""));
    Map<String, Object> v2 = to(v1, "autoscaling/v2");
    assertEquals(Map.of("team", "web"), annotations(v2));
    Map<?, ?> status = (Map<?, ?>) v2.get("status");
    assertEquals(
        object(
                "{'m':[{'type':'Resource','resource':{'name':'cpu','current':{'averageValue':'3m',"
                    + "'averageUtilization':12}}}]}")
            .get("m"),
        status.get("currentMetrics"));
    Map<?, ?> condition = (Map<?, ?>) ((List<?>) status.get("conditions")).get(0);
    assertEquals("SucceededGetScale", condition.get("reason"));
    assertEquals(
        "the HPA controller was able to get the target's current scale", condition.get("message"));
    assertEquals(2, status.get("currentReplicas"));
    assertEquals(
        object("{'metrics':[" + cpuUtilization(50) + "]}").get("metrics"),
        ((Map<?, ?>) v2.get("spec")).get("metrics"));
  }

  private static final String RICH =
      "{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler',"
          + "'metadata':{'name':'h','namespace':'n','annotations':{'team':'web'}},"
          + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
          + "'minReplicas':2,'maxReplicas':10,'metrics':["
          + "{'type':'Resource','resource':{'name':'memory','target':{'type':'AverageValue','averageValue':'500Mi'}}},"
          + "{'type':'Pods','pods':{'metric':{'name':'rps'},'target':{'type':'AverageValue','averageValue':'10'}}},"
          + "{'type':'Object','object':{'describedObject':{'kind':'Ingress','name':'main','apiVersion':'networking.k8s.io/v1'},"
          + "'target':{'type':'Value','value':'2k'},'metric':{'name':'hits','selector':{'matchLabels':{'a':'b'}}}}},"
          + "{'type':'External','external':{'metric':{'name':'queue'},'target':{'type':'AverageValue','averageValue':'30'}}},"
          + "{'type':'ContainerResource','containerResource':{'name':'cpu',"
          + "'target':{'type':'Utilization','averageUtilization':60},'container':'app'}},"
          + cpuUtilization(75)
          + "],'behavior':{'scaleUp':{'stabilizationWindowSeconds':0,'selectPolicy':'Max',"
          + "'policies':[{'type':'Pods','value':4,'periodSeconds':15},{'type':'Percent','value':100,'periodSeconds':15}]},"
          + "'scaleDown':{'stabilizationWindowSeconds':300,'selectPolicy':'Min',"
          + "'policies':[{'type':'Percent','value':10,'periodSeconds':60}]}}},"
          + "'status':{'observedGeneration':3,'lastScaleTime':'2026-11-30T01:00:00Z','currentReplicas':4,"
          + "'desiredReplicas':5,'currentMetrics':["
          + "{'type':'Resource','resource':{'name':'memory','current':{'averageValue':'450Mi'}}},"
          + "{'type':'Resource','resource':{'name':'cpu','current':{'averageValue':'120m','averageUtilization':40}}}],"
          + "'conditions':[{'type':'ScalingActive','status':'True','lastTransitionTime':'2026-11-30T00:00:00Z',"
          + "'reason':'ValidMetricFound','message':'ok'}]}}";

  @Test
  void v2ThroughV1AndBackLosesNothing() {
    Map<String, Object> v1 = to(object(RICH), "autoscaling/v1");
    assertEquals("autoscaling/v1", v1.get("apiVersion"));
    Map<?, ?> spec = (Map<?, ?>) v1.get("spec");
    assertEquals(75, spec.get("targetCPUUtilizationPercentage"));
    assertFalse(spec.containsKey("metrics") || spec.containsKey("behavior"));
    Map<?, ?> status = (Map<?, ?>) v1.get("status");
    assertEquals(40, status.get("currentCPUUtilizationPercentage"));
    assertFalse(status.containsKey("currentMetrics") || status.containsKey("conditions"));
    Map<String, Object> annotations = annotations(v1);
    assertEquals("web", annotations.get("team"));
    assertTrue(
        ((String) annotations.get(HorizontalPodAutoscalerConversion.BEHAVIOR))
            .startsWith("{\"ScaleUp\":{\"StabilizationWindowSeconds\":0,\"SelectPolicy\":\"Max\","),
        annotations.toString());
    assertEquals(
        "[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageValue\":\"500Mi\"}},"
            + "{\"type\":\"Pods\",\"pods\":{\"metricName\":\"rps\",\"targetAverageValue\":\"10\"}},"
            + "{\"type\":\"Object\",\"object\":{\"target\":{\"kind\":\"Ingress\",\"name\":\"main\","
            + "\"apiVersion\":\"networking.k8s.io/v1\"},\"metricName\":\"hits\",\"targetValue\":\"2k\","
            + "\"selector\":{\"matchLabels\":{\"a\":\"b\"}}}},"
            + "{\"type\":\"External\",\"external\":{\"metricName\":\"queue\",\"targetAverageValue\":\"30\"}},"
            + "{\"type\":\"ContainerResource\",\"containerResource\":{\"name\":\"cpu\","
            + "\"targetAverageUtilization\":60,\"container\":\"app\"}}]",
        annotations.get(HorizontalPodAutoscalerConversion.METRICS));

    // Back: everything returns, in the order of v2's Go types, the CPU target last among the
    // metrics (where it was here).
    assertEquals(json(object(RICH)), json(to(v1, "autoscaling/v2")));
  }

  @Test
  void annotationsAnObjectAlreadyHadAreReplacedOnTheWayToV1() {
    Map<String, Object> stale = object(RICH);
    annotations(stale).put(HorizontalPodAutoscalerConversion.METRICS, "[{\"type\":\"Pods\"}]");
    annotations(stale).put("autoscaling.alpha.kubernetes.io/scale-up-tolerance", "50m");
    Map<String, Object> v1 = to(stale, "autoscaling/v1");
    assertFalse(annotations(v1).containsKey("autoscaling.alpha.kubernetes.io/scale-up-tolerance"));
    assertTrue(
        ((String) annotations(v1).get(HorizontalPodAutoscalerConversion.METRICS))
            .contains("memory"));
  }

  @Test
  void aMalformedAnnotationFailsNamingItAndAMalformedBehaviorIsIgnored() {
    Map<String, Object> v1 =
        object(
            "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'h',"
                + "'annotations':{'autoscaling.alpha.kubernetes.io/metrics':'not json'}},"
                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3}}");
    dev.machinery.unversioned.errors.StatusException failure =
        assertThrows(
            dev.machinery.unversioned.errors.StatusException.class, () -> to(v1, "autoscaling/v2"));
    assertEquals(400, failure.status().getCode());
    assertTrue(
        failure
            .getMessage()
            .startsWith(
                "metadata.annotations[autoscaling.alpha.kubernetes.io/metrics]: is not a JSON"),
        failure.getMessage());
    Map<String, Object> behavior =
        object(
            "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'h',"
                + "'annotations':{'autoscaling.alpha.kubernetes.io/behavior':'{'}},"
                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3}}");
    Map<String, Object> converted = to(behavior, "autoscaling/v2");
    assertFalse(((Map<?, ?>) converted.get("spec")).containsKey("behavior"));
    assertFalse(((Map<?, ?>) converted.get("metadata")).containsKey("annotations"));
    // Go's decoder matches the behavior's field names whatever their case.
    Map<String, Object> lower =
        object(
            "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'h',"
                + "'annotations':{'autoscaling.alpha.kubernetes.io/behavior':"
                + "'{\\'scaledown\\':{\\'stabilizationwindowseconds\\':60}}'}},"
                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3}}"
                    .replace("\\'", "\\\""));
    assertEquals(
        Map.of("scaleDown", Map.of("stabilizationWindowSeconds", 60)),
        ((Map<?, ?>) to(lower, "autoscaling/v2").get("spec")).get("behavior"));
    assertThrows(
        IllegalArgumentException.class,
        () -> to(object("{'apiVersion':'apps/v1','kind':'Deployment'}"), "autoscaling/v1"));
  }
}
