package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What kube-apiserver's registry strategies ({@code pkg/registry/**}/strategy.go) do to the
 * built-in kinds on create and update, asserted as kube-apiserver 1.33 answers: the status a
 * created object starts with, a Job's generated selector and labels, the generation, a Namespace's
 * finalizer, immutable ConfigMaps and Secrets, a Service's allocated values kept on replace.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StrategiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEMPLATE =
      """
      "template":{"metadata":{"labels":{"app":"a"}},
       "spec":{"containers":[{"name":"c","image":"busybox:1.36"}]}}""";
  private static final String SELECTOR = "\"selector\":{\"matchLabels\":{\"app\":\"a\"}}";
  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
    ApiResponse ns = request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}");
    assertEquals(201, ns.status(), text(ns));
  }

  /**
   * Each kind with a status, created with a status in its body: the status kube-apiserver answers
   * (Go's zero value of the status struct, written with the fields that have no omitempty; a Pod's
   * phase and QoS class, a Namespace's phase, a claim's phase from its defaults).
   */
  static Stream<Arguments> createdStatuses() {
    String apps = "/apis/apps/v1/namespaces/default/";
    String core = "/api/v1/namespaces/default/";
    return Stream.of(
        Arguments.of(
            apps + "deployments",
            "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"d\"},"
                + "\"spec\":{"
                + SELECTOR
                + ","
                + TEMPLATE
                + "},\"status\":{\"replicas\":3,\"readyReplicas\":3}}",
            "{}"),
        Arguments.of(
            apps + "replicasets",
            "{\"metadata\":{\"name\":\"rs\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}",
            "{\"replicas\":0}"),
        Arguments.of(
            apps + "statefulsets",
            "{\"metadata\":{\"name\":\"ss\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}",
            "{\"replicas\":0,\"availableReplicas\":0}"),
        Arguments.of(
            apps + "daemonsets",
            "{\"metadata\":{\"name\":\"ds\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}",
            "{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,"
                + "\"desiredNumberScheduled\":0,\"numberReady\":0}"),
        Arguments.of(
            core + "replicationcontrollers",
            "{\"metadata\":{\"name\":\"rc\"},\"spec\":{\"selector\":{\"app\":\"a\"},"
                + TEMPLATE
                + "}}",
            "{\"replicas\":0}"),
        Arguments.of(
            "/apis/batch/v1/namespaces/default/jobs",
            "{\"metadata\":{\"name\":\"j\"},\"spec\":{\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"busybox\"}],\"restartPolicy\":\"Never\"}}},"
                + "\"status\":{\"active\":1}}",
            "{}"),
        Arguments.of(
            "/apis/batch/v1/namespaces/default/cronjobs",
            "{\"metadata\":{\"name\":\"cj\"},\"spec\":{\"schedule\":\"* * * * *\",\"jobTemplate\":"
                + "{\"spec\":{\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"busybox\"}],\"restartPolicy\":\"OnFailure\"}}}}}}",
            "{}"),
        Arguments.of(
            "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
            "{\"metadata\":{\"name\":\"hpa\"},\"spec\":{\"maxReplicas\":3,\"scaleTargetRef\":"
                + "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"d\"}}}",
            "{\"desiredReplicas\":0}"),
        Arguments.of(
            "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
            "{\"metadata\":{\"name\":\"pdb\"},\"spec\":{\"minAvailable\":1," + SELECTOR + "}}",
            "{\"disruptionsAllowed\":0,\"currentHealthy\":0,\"desiredHealthy\":0,"
                + "\"expectedPods\":0}"),
        Arguments.of(
            "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
            "{\"metadata\":{\"name\":\"ing\"},\"spec\":{\"defaultBackend\":{\"service\":"
                + "{\"name\":\"web\",\"port\":{\"number\":80}}}}}",
            "{\"loadBalancer\":{}}"),
        Arguments.of(
            core + "resourcequotas",
            "{\"metadata\":{\"name\":\"rq\"},\"spec\":{\"hard\":{\"pods\":\"10\"}},"
                + "\"status\":{\"used\":{\"pods\":\"1\"}}}",
            "{}"),
        Arguments.of(
            core + "persistentvolumeclaims",
            "{\"metadata\":{\"name\":\"pvc\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}},"
                + "\"status\":{\"phase\":\"Bound\"}}",
            "{\"phase\":\"Pending\"}"),
        Arguments.of(
            core + "services",
            "{\"metadata\":{\"name\":\"svc\"},\"spec\":{\"ports\":[{\"port\":80}]}}",
            "{\"loadBalancer\":{}}"),
        Arguments.of(
            core + "pods",
            "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"busybox\"}]},\"status\":{\"phase\":\"Running\"}}",
            "{\"phase\":\"Pending\",\"qosClass\":\"BestEffort\"}"),
        Arguments.of(
            "/api/v1/namespaces",
            "{\"metadata\":{\"name\":\"fresh\"},\"status\":{\"phase\":\"Terminating\"}}",
            "{\"phase\":\"Active\"}"),
        Arguments.of(
            "/apis/storage.k8s.io/v1/volumeattachments",
            "{\"metadata\":{\"name\":\"va\"},\"spec\":{\"attacher\":\"csi.example.dev\","
                + "\"nodeName\":\"node-1\",\"source\":{\"persistentVolumeName\":\"pv\"}},"
                + "\"status\":{\"attached\":true}}",
            "{\"attached\":false}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("createdStatuses")
  void aCreatedObjectHasTheStatusKubernetesWrites(String path, String body, String status)
      throws Exception {
    ApiResponse created = request("POST", path, body);
    assertEquals(201, created.status(), text(created));
    assertEquals(JSON.readTree(status), JSON.readTree(created.body()).get("status"));
    String name = JSON.readTree(created.body()).at("/metadata/name").asText();
    ApiResponse read = request("GET", path + "/" + name, null);
    assertEquals(JSON.readTree(status), JSON.readTree(read.body()).get("status"));
  }

  @Test
  void aPersistentVolumeStartsPendingAndRetained() throws Exception {
    JsonNode pv =
        created(
            "/api/v1/persistentvolumes",
            """
            {"metadata":{"name":"pv-1"},"spec":{"capacity":{"storage":"1Gi"},
             "accessModes":["ReadWriteOnce"],"hostPath":{"path":"/data"}},
             "status":{"phase":"Bound"}}
            """);
    assertEquals("Pending", pv.at("/status/phase").asText());
    assertTrue(pv.at("/status/lastPhaseTransitionTime").isTextual(), pv.toString());
    assertEquals("Retain", pv.at("/spec/persistentVolumeReclaimPolicy").asText());
    assertEquals("Filesystem", pv.at("/spec/volumeMode").asText());
  }

  @Test
  void aPodWithSchedulingGatesSaysItIsNotScheduled() throws Exception {
    JsonNode pod =
        created(
            "/api/v1/namespaces/default/pods",
            """
            {"metadata":{"name":"gated"},"spec":{"schedulingGates":[{"name":"example.dev/wait"}],
             "containers":[{"name":"c","image":"busybox",
              "resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}}
            """);
    assertEquals(
        JSON.readTree("{\"cpu\":\"1\",\"memory\":\"1Gi\"}"),
        pod.at("/spec/containers/0/resources/requests"),
        "a Pod's requests default to its limits");
    assertEquals("Guaranteed", pod.at("/status/qosClass").asText());
    JsonNode condition = pod.at("/status/conditions/0");
    assertEquals("PodScheduled", condition.get("type").asText());
    assertEquals("False", condition.get("status").asText());
    assertEquals("SchedulingGated", condition.get("reason").asText());
    assertEquals(
        "Scheduling is blocked due to non-empty scheduling gates",
        condition.get("message").asText());
    assertTrue(condition.get("lastTransitionTime").isTextual(), condition.toString());
    assertEquals(1, pod.at("/status/conditions").size());
  }

  @Test
  void aPodOnTheHostsNetworkExposesItsPortsOnTheHost() throws Exception {
    JsonNode pod =
        created(
            "/api/v1/namespaces/default/pods",
            """
            {"metadata":{"name":"host"},"spec":{"hostNetwork":true,
             "containers":[{"name":"c","image":"busybox","ports":[{"containerPort":8080}]}]}}
            """);
    assertEquals(8080, pod.at("/spec/containers/0/ports/0/hostPort").asInt());
  }

  @Test
  void theStatusIsKeptWhenTheMainResourceIsWritten() throws Exception {
    String path = "/apis/apps/v1/namespaces/default/deployments";
    JsonNode d =
        created(
            path,
            "{\"metadata\":{\"name\":\"kept\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}");
    ((ObjectNode) d).set("status", JSON.readTree("{\"replicas\":7}"));
    ApiResponse put = request("PUT", path + "/kept", d.toString());
    assertEquals(200, put.status(), text(put));
    assertEquals(JSON.readTree("{}"), JSON.readTree(put.body()).get("status"));
  }

  /** As {@code kubectl create job pi --image=perl:5.34.0 -- perl} sends it. */
  @Test
  void aJobGetsTheSelectorAndLabelsKubernetesGenerates() throws Exception {
    JsonNode job =
        created(
            "/apis/batch/v1/namespaces/default/jobs",
            """
            {"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"pi","creationTimestamp":null},
             "spec":{"template":{"metadata":{"creationTimestamp":null},
              "spec":{"containers":[{"name":"pi","image":"perl:5.34.0","command":["perl"],
               "resources":{}}],"restartPolicy":"Never"}}},"status":{}}
            """);
    String uid = job.at("/metadata/uid").asText();
    assertFalse(uid.isEmpty());
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("batch.kubernetes.io/controller-uid", uid);
    labels.put("batch.kubernetes.io/job-name", "pi");
    labels.put("controller-uid", uid);
    labels.put("job-name", "pi");
    assertEquals(JSON.valueToTree(labels), sorted(job.at("/spec/template/metadata/labels")));
    assertEquals(
        JSON.valueToTree(Map.of("batch.kubernetes.io/controller-uid", uid)),
        job.at("/spec/selector/matchLabels"));
    assertEquals(JSON.valueToTree(labels), sorted(job.at("/metadata/labels")), "the template's");
    assertFalse(job.at("/spec/manualSelector").asBoolean(true));
    assertEquals(JSON.readTree("{}"), job.get("status"));
    assertEquals(1, job.at("/metadata/generation").asInt());
  }

  @Test
  void aJobKeepsItsOwnLabelsAndAManualSelector() throws Exception {
    JsonNode own =
        created(
            "/apis/batch/v1/namespaces/default/jobs",
            """
            {"metadata":{"name":"own","labels":{"team":"a"}},
             "spec":{"template":{"metadata":{"labels":{"app":"x","job-name":"given"}},
              "spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
            """);
    assertEquals(JSON.readTree("{\"team\":\"a\"}"), own.at("/metadata/labels"));
    JsonNode template = own.at("/spec/template/metadata/labels");
    assertEquals("given", template.get("job-name").asText(), "a label given is kept");
    assertEquals("own", template.get("batch.kubernetes.io/job-name").asText());
    assertEquals("x", template.get("app").asText());

    JsonNode manual =
        created(
            "/apis/batch/v1/namespaces/default/jobs",
            """
            {"metadata":{"name":"manual"},
             "spec":{"manualSelector":true,"selector":{"matchLabels":{"app":"m"}},
              "template":{"metadata":{"labels":{"app":"m"}},
              "spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
            """);
    assertEquals(JSON.readTree("{\"app\":\"m\"}"), manual.at("/spec/selector/matchLabels"));
    assertEquals(JSON.readTree("{\"app\":\"m\"}"), manual.at("/spec/template/metadata/labels"));
  }

  @Test
  void aJobIsDefaultedAsKubernetesDefaultsIt() throws Exception {
    JsonNode perIndex =
        created(
            "/apis/batch/v1/namespaces/default/jobs",
            """
            {"metadata":{"name":"per-index"},
             "spec":{"completions":2,"completionMode":"Indexed","backoffLimitPerIndex":1,
              "podFailurePolicy":{"rules":[{"action":"Ignore",
               "onPodConditions":[{"type":"DisruptionTarget"}]}]},
              "template":{"spec":{"containers":[{"name":"c","image":"busybox"}],
               "restartPolicy":"Never"}}}}
            """);
    assertEquals(2147483647, perIndex.at("/spec/backoffLimit").asInt());
    assertEquals("Failed", perIndex.at("/spec/podReplacementPolicy").asText());
    assertEquals(
        "True", perIndex.at("/spec/podFailurePolicy/rules/0/onPodConditions/0/status").asText());

    // Go defaults restartPolicy to Always in every pod spec; a Job's validation then refuses it.
    ApiResponse always =
        request(
            "POST",
            "/apis/batch/v1/namespaces/default/jobs",
            """
            {"metadata":{"name":"always"},
             "spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}
            """);
    assertEquals(422, always.status(), text(always));
    assertTrue(
        JSON.readTree(always.body())
            .get("message")
            .asText()
            .contains(
                "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values:"
                    + " \"OnFailure\", \"Never\""),
        text(always));
  }

  @Test
  void aStatefulSetsClaimTemplatesAreDefaultedAsClaims() throws Exception {
    JsonNode set =
        created(
            "/apis/apps/v1/namespaces/default/statefulsets",
            "{\"metadata\":{\"name\":\"claims\"},\"spec\":{"
                + SELECTOR
                + ","
                + TEMPLATE
                + ",\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"data\"},"
                + "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}]}}");
    JsonNode claim = set.at("/spec/volumeClaimTemplates/0");
    assertEquals("v1", claim.get("apiVersion").asText());
    assertEquals("PersistentVolumeClaim", claim.get("kind").asText());
    assertEquals("Filesystem", claim.at("/spec/volumeMode").asText());
    assertEquals(JSON.readTree("{\"phase\":\"Pending\"}"), claim.get("status"));
  }

  @Test
  void aCronJobsTemplateGetsNoJobDefaults() throws Exception {
    JsonNode cronJob =
        created(
            "/apis/batch/v1/namespaces/default/cronjobs",
            """
            {"metadata":{"name":"nightly"},"spec":{"schedule":"0 3 * * *","jobTemplate":
             {"metadata":{"name":"nightly"},"spec":{"template":{"spec":{"containers":
              [{"name":"c","image":"busybox"}],"restartPolicy":"OnFailure"}}}}}}
            """);
    JsonNode jobSpec = cronJob.at("/spec/jobTemplate/spec");
    List<String> fields = new ArrayList<>();
    jobSpec.fieldNames().forEachRemaining(fields::add);
    assertEquals(List.of("template"), fields, jobSpec.toString());
    assertEquals("ClusterFirst", jobSpec.at("/template/spec/dnsPolicy").asText());
    assertEquals("Allow", cronJob.at("/spec/concurrencyPolicy").asText());
  }

  /** Which kinds keep a generation (1 on create), as their strategies set it. */
  static Stream<Arguments> generations() {
    return Stream.of(
        Arguments.of(
            "/apis/apps/v1/namespaces/default/deployments",
            "{\"metadata\":{\"name\":\"g\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}",
            1),
        Arguments.of(
            "/api/v1/namespaces/default/podtemplates",
            "{\"metadata\":{\"name\":\"g\"}," + TEMPLATE + "}",
            1),
        Arguments.of(
            "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
            "{\"metadata\":{\"name\":\"g\"},\"addressType\":\"IPv4\",\"endpoints\":[]}",
            1),
        Arguments.of(
            "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
            "{\"metadata\":{\"name\":\"g\"},\"webhooks\":[]}",
            1),
        Arguments.of(
            "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
            "{\"metadata\":{\"name\":\"g\"},\"spec\":{\"maxReplicas\":3,\"scaleTargetRef\":"
                + "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"d\"}}}",
            0),
        Arguments.of(
            "/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"g\"}}", 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generations")
  void theGenerationStartsAsKubernetesStartsIt(String path, String body, int generation)
      throws Exception {
    assertEquals(generation, created(path, body).at("/metadata/generation").asInt());
  }

  @Test
  void aDeploymentsGenerationFollowsItsSpecAndAnnotations() throws Exception {
    String path = "/apis/apps/v1/namespaces/default/deployments/gen";
    created(
        "/apis/apps/v1/namespaces/default/deployments",
        "{\"metadata\":{\"name\":\"gen\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}");
    assertEquals(1, patch(path, "{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}"), "labels");
    assertEquals(2, patch(path, "{\"metadata\":{\"annotations\":{\"note\":\"x\"}}}"));
    assertEquals(3, patch(path, "{\"spec\":{\"replicas\":4}}"));
    assertEquals(
        4, patch(path, "{\"spec\":{\"replicas\":5},\"metadata\":{\"annotations\":{\"n\":\"y\"}}}"));

    String slice = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/labelled";
    created(
        "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices",
        "{\"metadata\":{\"name\":\"labelled\"},\"addressType\":\"IPv4\",\"endpoints\":[]}");
    assertEquals(2, patch(slice, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
    assertEquals(2, patch(slice, "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}"));
  }

  @Test
  void aNamespaceGetsAndKeepsTheKubernetesFinalizer() throws Exception {
    JsonNode ns =
        created(
            "/api/v1/namespaces",
            "{\"metadata\":{\"name\":\"finalized\"},\"spec\":{\"finalizers\":[\"example.dev/x\"]}}");
    assertEquals(JSON.readTree("[\"example.dev/x\",\"kubernetes\"]"), ns.at("/spec/finalizers"));
    JsonNode plain = created("/api/v1/namespaces", "{\"metadata\":{\"name\":\"plain\"}}");
    assertEquals(JSON.readTree("[\"kubernetes\"]"), plain.at("/spec/finalizers"));
    ApiResponse put =
        request(
            "PUT",
            "/api/v1/namespaces/plain",
            "{\"metadata\":{\"name\":\"plain\",\"labels\":{\"a\":\"b\"}},\"spec\":{}}");
    assertEquals(200, put.status(), text(put));
    assertEquals(
        JSON.readTree("[\"kubernetes\"]"),
        JSON.readTree(put.body()).at("/spec/finalizers"),
        "only namespaces/finalize changes them");
  }

  @Test
  void aNamespaceIsLabelledWithItsName() throws Exception {
    JsonNode ns =
        created(
            "/api/v1/namespaces",
            """
            {"metadata":{"generateName":"team-","labels":{"kubernetes.io/metadata.name":"other",
             "owner":"a"}}}
            """);
    String name = ns.at("/metadata/name").asText();
    assertTrue(name.startsWith("team-"), name);
    assertEquals(name, ns.at("/metadata/labels/kubernetes.io~1metadata.name").asText());
    assertEquals("a", ns.at("/metadata/labels/owner").asText());
    ApiResponse put =
        request(
            "PUT",
            "/api/v1/namespaces/" + name,
            "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"owner\":\"b\"}}}");
    assertEquals(200, put.status(), text(put));
    assertEquals(
        name,
        JSON.readTree(put.body()).at("/metadata/labels/kubernetes.io~1metadata.name").asText());
  }

  @Test
  void aHorizontalPodAutoscalerIsDefaultedAsKubernetesDefaultsIt() throws Exception {
    JsonNode hpa =
        created(
            "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
            """
            {"metadata":{"name":"cpu"},"spec":{"maxReplicas":5,"scaleTargetRef":
             {"apiVersion":"apps/v1","kind":"Deployment","name":"web"}}}
            """);
    assertEquals(1, hpa.at("/spec/minReplicas").asInt());
    assertEquals(
        JSON.readTree(
            "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\","
                + "\"target\":{\"type\":\"Utilization\",\"averageUtilization\":80}}}]"),
        hpa.at("/spec/metrics"));
    assertTrue(hpa.at("/spec/behavior").isMissingNode(), "no behavior given, none filled");

    JsonNode shaped =
        created(
            "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
            """
            {"metadata":{"name":"shaped"},"spec":{"maxReplicas":5,"scaleTargetRef":
             {"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
             "behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}
            """);
    assertEquals(
        JSON.readTree(
            "{\"scaleDown\":{\"stabilizationWindowSeconds\":60,\"selectPolicy\":\"Max\","
                + "\"policies\":[{\"type\":\"Percent\",\"value\":100,\"periodSeconds\":15}]},"
                + "\"scaleUp\":{\"stabilizationWindowSeconds\":0,\"selectPolicy\":\"Max\","
                + "\"policies\":[{\"type\":\"Pods\",\"value\":4,\"periodSeconds\":15},"
                + "{\"type\":\"Percent\",\"value\":100,\"periodSeconds\":15}]}}"),
        shaped.at("/spec/behavior"));
  }

  @Test
  void anImmutableConfigMapOrSecretKeepsItsData() throws Exception {
    created(
        "/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"data\":{\"a\":\"1\"}}");
    ApiResponse changed =
        request(
            "PUT",
            "/api/v1/namespaces/default/configmaps/frozen",
            "{\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"data\":{\"a\":\"2\"}}");
    assertEquals(422, changed.status(), text(changed));
    assertEquals(
        "ConfigMap \"frozen\" is invalid: data: Forbidden: field is immutable when `immutable` is"
            + " set",
        JSON.readTree(changed.body()).get("message").asText());
    ApiResponse thawed =
        request(
            "PUT",
            "/api/v1/namespaces/default/configmaps/frozen",
            "{\"metadata\":{\"name\":\"frozen\"},\"immutable\":false,\"data\":{\"a\":\"1\"}}");
    assertEquals(422, thawed.status(), text(thawed));
    assertEquals(
        "ConfigMap \"frozen\" is invalid: immutable: Forbidden: field is immutable when"
            + " `immutable` is set",
        JSON.readTree(thawed.body()).get("message").asText());
    ApiResponse labelled =
        request(
            "PUT",
            "/api/v1/namespaces/default/configmaps/frozen",
            "{\"metadata\":{\"name\":\"frozen\",\"labels\":{\"a\":\"b\"}},\"immutable\":true,"
                + "\"data\":{\"a\":\"1\"}}");
    assertEquals(200, labelled.status(), "metadata still changes: " + text(labelled));

    created(
        "/api/v1/namespaces/default/secrets",
        "{\"metadata\":{\"name\":\"sealed\"},\"immutable\":true,\"stringData\":{\"a\":\"1\"}}");
    ApiResponse secret =
        request(
            "PUT",
            "/api/v1/namespaces/default/secrets/sealed",
            "{\"metadata\":{\"name\":\"sealed\"},\"immutable\":true,\"stringData\":{\"a\":\"2\"}}");
    assertEquals(422, secret.status(), text(secret));
    assertEquals(
        "Secret \"sealed\" is invalid: data: Forbidden: field is immutable when `immutable` is set",
        JSON.readTree(secret.body()).get("message").asText());
  }

  @Test
  void aSecretsTypeNeverChanges() throws Exception {
    created(
        "/api/v1/namespaces/default/secrets",
        "{\"metadata\":{\"name\":\"typed\"},\"data\":{\"a\":\"MQ==\"}}");
    ApiResponse changed =
        request(
            "PUT",
            "/api/v1/namespaces/default/secrets/typed",
            "{\"metadata\":{\"name\":\"typed\"},\"type\":\"example.dev/other\","
                + "\"data\":{\"a\":\"MQ==\"}}");
    assertEquals(422, changed.status(), text(changed));
    assertEquals(
        "Secret \"typed\" is invalid: type: Invalid value: \"example.dev/other\": field is"
            + " immutable",
        JSON.readTree(changed.body()).get("message").asText());
  }

  @Test
  void aServiceReplacedWithoutItsAllocatedValuesKeepsThem() throws Exception {
    JsonNode svc =
        created(
            "/api/v1/namespaces/default/services",
            """
            {"metadata":{"name":"np"},"spec":{"type":"NodePort",
             "ports":[{"name":"http","port":80},{"name":"https","port":443}]}}
            """);
    String ip = svc.at("/spec/clusterIP").asText();
    long http = svc.at("/spec/ports/0/nodePort").asLong();
    long https = svc.at("/spec/ports/1/nodePort").asLong();
    assertNotEquals(0, http);
    ApiResponse replaced =
        request(
            "PUT",
            "/api/v1/namespaces/default/services/np",
            """
            {"metadata":{"name":"np"},"spec":{"type":"NodePort",
             "ports":[{"name":"https","port":443},{"name":"http","port":80}]}}
            """);
    assertEquals(200, replaced.status(), text(replaced));
    JsonNode after = JSON.readTree(replaced.body());
    assertEquals(ip, after.at("/spec/clusterIP").asText());
    assertEquals(JSON.readTree("[\"" + ip + "\"]"), after.at("/spec/clusterIPs"));
    assertEquals(https, after.at("/spec/ports/0/nodePort").asLong(), "by the port's name");
    assertEquals(http, after.at("/spec/ports/1/nodePort").asLong());
  }

  @Test
  void aServiceWhoseTypeChangesGetsWhatItsNewTypeNeeds() throws Exception {
    created(
        "/api/v1/namespaces/default/services",
        "{\"metadata\":{\"name\":\"widen\"},\"spec\":{\"ports\":[{\"port\":80}]}}");
    ApiResponse widened =
        request(
            "PUT",
            "/api/v1/namespaces/default/services/widen",
            "{\"metadata\":{\"name\":\"widen\"},\"spec\":{\"type\":\"NodePort\","
                + "\"ports\":[{\"port\":80}]}}");
    assertEquals(200, widened.status(), text(widened));
    long nodePort = JSON.readTree(widened.body()).at("/spec/ports/0/nodePort").asLong();
    assertTrue(nodePort >= 30000 && nodePort <= 32767, widened.toString());
  }

  @Test
  void aWorkloadsSelectorNeverChanges() throws Exception {
    created(
        "/apis/apps/v1/namespaces/default/deployments",
        "{\"metadata\":{\"name\":\"sel\"},\"spec\":{" + SELECTOR + "," + TEMPLATE + "}}");
    ApiResponse moved =
        request(
            "PUT",
            "/apis/apps/v1/namespaces/default/deployments/sel",
            """
            {"metadata":{"name":"sel"},"spec":{"selector":{"matchLabels":{"app":"b","tier":"x"}},
             "template":{"metadata":{"labels":{"app":"b","tier":"x"}},
              "spec":{"containers":[{"name":"c","image":"busybox"}]}}}}
            """);
    assertEquals(422, moved.status(), text(moved));
    assertEquals(
        "Deployment.apps \"sel\" is invalid: spec.selector: Invalid value:"
            + " v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"b\", \"tier\":\"x\"},"
            + " MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable",
        JSON.readTree(moved.body()).get("message").asText());

    created(
        "/apis/batch/v1/namespaces/default/jobs",
        """
        {"metadata":{"name":"expr"},"spec":{"manualSelector":true,
         "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["m"]}]},
         "template":{"metadata":{"labels":{"app":"m"}},
          "spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
        """);
    ApiResponse job =
        request(
            "PUT",
            "/apis/batch/v1/namespaces/default/jobs/expr",
            """
            {"metadata":{"name":"expr"},"spec":{"manualSelector":true,
             "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["m","n"]}]},
             "template":{"metadata":{"labels":{"app":"m"}},
              "spec":{"containers":[{"name":"c","image":"busybox"}],"restartPolicy":"Never"}}}}
            """);
    assertEquals(422, job.status(), text(job));
    assertTrue(
        JSON.readTree(job.body())
            .get("message")
            .asText()
            .contains(
                "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil),"
                    + " MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement"
                    + "{Key:\"app\", Operator:\"In\", Values:[]string{\"m\", \"n\"}}}}: field is"
                    + " immutable"),
        text(job));
  }

  @Test
  void aCertificateSigningRequestsSpecChangesThroughNoUpdate() throws Exception {
    JsonNode csr =
        created(
            "/apis/certificates.k8s.io/v1/certificatesigningrequests",
            """
            {"metadata":{"name":"csr"},"spec":{"request":"%s",
             "signerName":"example.dev/signer","usages":["client auth"]}}
            """
                .formatted(TestCsrs.base64(TestCsrs.pem("csr"))));
    assertEquals(0, csr.at("/metadata/generation").asInt());
    ((ObjectNode) csr.get("spec")).put("signerName", "example.dev/other");
    ApiResponse put =
        request(
            "PUT", "/apis/certificates.k8s.io/v1/certificatesigningrequests/csr", csr.toString());
    assertEquals(200, put.status(), text(put));
    assertEquals("example.dev/signer", JSON.readTree(put.body()).at("/spec/signerName").asText());
  }

  private static JsonNode sorted(JsonNode node) {
    Map<String, JsonNode> sorted = new java.util.TreeMap<>();
    node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return JSON.valueToTree(sorted);
  }

  private static JsonNode created(String path, String body) throws Exception {
    ApiResponse created = request("POST", path, body);
    assertEquals(201, created.status(), text(created));
    return JSON.readTree(created.body());
  }

  /** A merge patch; returns the generation it leaves. */
  private static int patch(String path, String body) throws Exception {
    ApiResponse patched =
        server.handle(
            new ApiRequest(
                "PATCH",
                path,
                Map.of(),
                Map.of("Content-Type", List.of("application/merge-patch+json")),
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
    assertEquals(200, patched.status(), text(patched));
    return JSON.readTree(patched.body()).at("/metadata/generation").asInt();
  }

  private static ApiResponse request(String method, String path, String body) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of("application/json"));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
