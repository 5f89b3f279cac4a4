package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-apiserver's ServiceAccount, Priority and DefaultTolerationSeconds admission on a server, as
 * Kubernetes' own tests of them assert ({@code plugin/pkg/admission/serviceaccount}, {@code
 * priority}, {@code defaulttolerationseconds}: their {@code admission_test.go} tables).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DefaultAdmissionPluginsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApiServer server(DefaultAdmission admission) {
    ApiServer server = BuiltinKinds.apiServer(admission).build();
    assertEquals(
        201,
        request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}").status());
    return server;
  }

  private static String pod(String name, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]"
        + (spec.isEmpty() ? "" : "," + spec)
        + "}}";
  }

  private static JsonNode created(ApiServer server, String path, String body) throws Exception {
    ApiResponse r = request(server, "POST", path, body);
    assertEquals(201, r.status(), text(r));
    return JSON.readTree(text(r));
  }

  private static String refusal(ApiServer server, String path, String body) throws Exception {
    ApiResponse r = request(server, "POST", path, body);
    assertEquals(403, r.status(), text(r));
    return JSON.readTree(text(r)).path("message").asText();
  }

  // DefaultTolerationSeconds: defaulttolerationseconds/admission_test.go.

  static Stream<Arguments> tolerations() {
    String notReady300 =
        "{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}";
    String unreachable300 =
        "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}";
    String foo =
        "{\"key\":\"foo\",\"operator\":\"Equal\",\"value\":\"bar\",\"effect\":\"NoSchedule\","
            + "\"tolerationSeconds\":700}";
    String notReady700 =
        "{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":700}";
    String unreachable700 =
        "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":700}";
    String unreachableAnyEffect =
        "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"tolerationSeconds\":700}";
    String wildcard = "{\"operator\":\"Exists\",\"tolerationSeconds\":700}";
    return Stream.of(
        Arguments.of("no tolerations", "", List.of(notReady300, unreachable300)),
        Arguments.of(
            "none for the two taints", "[" + foo + "]", List.of(foo, notReady300, unreachable300)),
        Arguments.of(
            "not-ready tolerated", "[" + notReady700 + "]", List.of(notReady700, unreachable300)),
        Arguments.of(
            "unreachable tolerated",
            "[" + unreachable700 + "]",
            List.of(unreachable700, notReady300)),
        Arguments.of(
            "both tolerated",
            "[" + notReady700 + "," + unreachable700 + "]",
            List.of(notReady700, unreachable700)),
        Arguments.of(
            "unreachable of any effect",
            "[" + unreachableAnyEffect + "]",
            List.of(unreachableAnyEffect, notReady300)),
        Arguments.of("a wildcard toleration", "[" + wildcard + "]", List.of(wildcard)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tolerations")
  void defaultTolerationSeconds(String name, String given, List<String> expected) throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("DefaultTolerationSeconds"));
    JsonNode pod =
        created(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("p", given.isEmpty() ? "" : "\"tolerations\":" + given));
    List<JsonNode> want = new java.util.ArrayList<>();
    for (String t : expected) {
      want.add(JSON.readTree(t));
    }
    List<JsonNode> got = new java.util.ArrayList<>();
    pod.at("/spec/tolerations").forEach(got::add);
    assertEquals(want, got);
  }

  @Test
  void defaultTolerationSecondsHandlesCreateAndUpdateOnly() {
    DefaultTolerationSeconds plugin = new DefaultTolerationSeconds(300, 300);
    assertTrue(plugin.handles(Operation.CREATE));
    assertTrue(plugin.handles(Operation.UPDATE));
    assertFalse(plugin.handles(Operation.DELETE));
  }

  // Priority: priority/admission_test.go.

  @Test
  void priorityOfPodsAndTheSystemClasses() throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("Priority"));
    ApiResponse list = request(server, "GET", "/apis/scheduling.k8s.io/v1/priorityclasses", null);
    Map<String, Integer> classes = new LinkedHashMap<>();
    JSON.readTree(text(list))
        .path("items")
        .forEach(i -> classes.put(i.at("/metadata/name").asText(), i.path("value").asInt()));
    assertEquals(
        Map.of("system-node-critical", 2000001000, "system-cluster-critical", 2000000000), classes);
    // No class, no global default: 0 and PreemptLowerPriority, no class name.
    JsonNode plain = created(server, "/api/v1/namespaces/ns/pods", pod("plain", ""));
    assertEquals(0, plain.at("/spec/priority").asInt());
    assertTrue(plain.at("/spec/priority").isInt());
    assertEquals("PreemptLowerPriority", plain.at("/spec/preemptionPolicy").asText());
    assertTrue(plain.at("/spec/priorityClassName").isMissingNode());
    // A system class, in any namespace.
    JsonNode critical =
        created(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("critical", "\"priorityClassName\":\"system-cluster-critical\""));
    assertEquals(2000000000, critical.at("/spec/priority").asInt());
    assertEquals(
        "pods \"missing\" is forbidden: no PriorityClass with name foo was found",
        refusal(
            server, "/api/v1/namespaces/ns/pods", pod("missing", "\"priorityClassName\":\"foo\"")));
    assertEquals(
        "pods \"given\" is forbidden: the integer value of priority (10) must not be provided in"
            + " pod spec; priority admission controller computed 0 from the given PriorityClass"
            + " name",
        refusal(server, "/api/v1/namespaces/ns/pods", pod("given", "\"priority\":10")));
    // A global default gives its name, value and policy; a second one is refused.
    created(
        server,
        "/apis/scheduling.k8s.io/v1/priorityclasses",
        "{\"metadata\":{\"name\":\"default-1000\"},\"value\":1000,\"globalDefault\":true,"
            + "\"preemptionPolicy\":\"Never\"}");
    JsonNode defaulted = created(server, "/api/v1/namespaces/ns/pods", pod("defaulted", ""));
    assertEquals("default-1000", defaulted.at("/spec/priorityClassName").asText());
    assertEquals(1000, defaulted.at("/spec/priority").asInt());
    assertEquals("Never", defaulted.at("/spec/preemptionPolicy").asText());
    assertEquals(
        "priorityclasses.scheduling.k8s.io \"other\" is forbidden: PriorityClass default-1000 is"
            + " already marked as default. Only one default can exist",
        refusal(
            server,
            "/apis/scheduling.k8s.io/v1/priorityclasses",
            "{\"metadata\":{\"name\":\"other\"},\"value\":1,\"globalDefault\":true}"));
    assertEquals(
        "pods \"policy\" is forbidden: the string value of PreemptionPolicy"
            + " (PreemptLowerPriority) must not be provided in pod spec; priority admission"
            + " controller computed Never from the given PriorityClass name",
        refusal(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("policy", "\"preemptionPolicy\":\"PreemptLowerPriority\"")));
  }

  // ServiceAccount: serviceaccount/admission_test.go.

  private static final Pattern VOLUME =
      Pattern.compile("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");

  @Test
  void serviceAccountRefusesAPodWhoseAccountIsMissing() throws Exception {
    ApiServer server =
        BuiltinKinds.apiServer(DefaultAdmission.none())
            .admission(new ServiceAccountAdmission(ServiceAccountAdmission::generateName, 1))
            .build();
    request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}");
    assertEquals(
        "pods \"p\" is forbidden: error looking up service account ns/default: serviceaccount"
            + " \"default\" not found",
        refusal(server, "/api/v1/namespaces/ns/pods", pod("p", "")));
    assertEquals(
        "pods \"q\" is forbidden: error looking up service account ns/builder: serviceaccount"
            + " \"builder\" not found",
        refusal(
            server, "/api/v1/namespaces/ns/pods", pod("q", "\"serviceAccountName\":\"builder\"")));
  }

  @Test
  void serviceAccountMountsTheTokenVolume() throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("ServiceAccount"));
    created(
        server,
        "/api/v1/namespaces/ns/serviceaccounts",
        "{\"metadata\":{\"name\":\"default\"},\"imagePullSecrets\":[{\"name\":\"pull\"}]}");
    JsonNode pod =
        created(
            server,
            "/api/v1/namespaces/ns/pods",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
                + "\"initContainers\":[{\"name\":\"i\",\"image\":\"busybox\"}],"
                + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"},"
                + "{\"name\":\"own\",\"image\":\"nginx\",\"volumeMounts\":[{\"name\":\"mine\","
                + "\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}]}],"
                + "\"volumes\":[{\"name\":\"mine\",\"emptyDir\":{}}]}}");
    JsonNode spec = pod.path("spec");
    assertEquals("default", spec.path("serviceAccountName").asText());
    // Go's conversion writes the deprecated name too.
    assertEquals("default", spec.path("serviceAccount").asText());
    JsonNode volume = spec.path("volumes").get(1);
    String name = volume.path("name").asText();
    assertTrue(VOLUME.matcher(name).matches(), name);
    assertEquals(
        JSON.readTree(
            """
            {"defaultMode":420,"sources":[
             {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
             {"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
             {"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1",
              "fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}"""),
        volume.path("projected"));
    JsonNode mount =
        JSON.readTree(
            "{\"name\":\""
                + name
                + "\",\"readOnly\":true,"
                + "\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}");
    assertEquals(mount, spec.at("/initContainers/0/volumeMounts/0"));
    assertEquals(mount, spec.at("/containers/0/volumeMounts/0"));
    // A container that mounts something at the path keeps its own mount.
    assertEquals(1, spec.at("/containers/1/volumeMounts").size());
    assertEquals("mine", spec.at("/containers/1/volumeMounts/0/name").asText());
    assertEquals("[{\"name\":\"pull\"}]", spec.path("imagePullSecrets").toString());
  }

  /** A volume already named kube-api-access-* is the token volume: mounted, not added again. */
  @Test
  void serviceAccountReusesAnExistingTokenVolume() throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("ServiceAccount"));
    created(
        server, "/api/v1/namespaces/ns/serviceaccounts", "{\"metadata\":{\"name\":\"default\"}}");
    JsonNode pod =
        created(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("p", "\"volumes\":[{\"name\":\"kube-api-access-abcde\",\"emptyDir\":{}}]"));
    assertEquals(1, pod.at("/spec/volumes").size());
    assertEquals(
        "kube-api-access-abcde", pod.at("/spec/containers/0/volumeMounts/0/name").asText());
  }

  @Test
  void serviceAccountRespectsAutomountAndMirrorPods() throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("ServiceAccount"));
    created(
        server,
        "/api/v1/namespaces/ns/serviceaccounts",
        "{\"metadata\":{\"name\":\"default\"},\"automountServiceAccountToken\":false}");
    JsonNode off = created(server, "/api/v1/namespaces/ns/pods", pod("off", ""));
    assertTrue(off.at("/spec/volumes").isMissingNode(), off.toString());
    // The pod's own preference wins over its account's.
    JsonNode on =
        created(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("on", "\"automountServiceAccountToken\":true"));
    assertEquals(1, on.at("/spec/volumes").size());
    String mirror =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"m\",\"annotations\":"
            + "{\"kubernetes.io/config.mirror\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
            + "\"image\":\"nginx\"}]%s}}";
    JsonNode plainMirror = created(server, "/api/v1/namespaces/ns/pods", String.format(mirror, ""));
    assertTrue(plainMirror.at("/spec/serviceAccountName").isMissingNode());
    assertEquals(
        "pods \"m\" is forbidden: a mirror pod may not reference service accounts",
        refusal(
            server,
            "/api/v1/namespaces/ns/pods",
            String.format(mirror, ",\"serviceAccountName\":\"default\"")));
    assertEquals(
        "pods \"m\" is forbidden: a mirror pod may not reference secrets",
        refusal(
            server,
            "/api/v1/namespaces/ns/pods",
            String.format(
                mirror, ",\"volumes\":[{\"name\":\"s\",\"secret\":{\"secretName\":\"x\"}}]")));
  }

  @Test
  void serviceAccountEnforcesMountableSecrets() throws Exception {
    ApiServer server = server(DefaultAdmission.none().enable("ServiceAccount"));
    created(
        server,
        "/api/v1/namespaces/ns/serviceaccounts",
        "{\"metadata\":{\"name\":\"default\",\"annotations\":"
            + "{\"kubernetes.io/enforce-mountable-secrets\":\"true\"}},"
            + "\"secrets\":[{\"name\":\"allowed\"}]}");
    created(
        server,
        "/api/v1/namespaces/ns/pods",
        pod("ok", "\"volumes\":[{\"name\":\"s\",\"secret\":{\"secretName\":\"allowed\"}}]"));
    assertEquals(
        "pods \"vol\" is forbidden: volume with secret.secretName=\"denied\" is not allowed because"
            + " service account default does not reference that secret",
        refusal(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("vol", "\"volumes\":[{\"name\":\"s\",\"secret\":{\"secretName\":\"denied\"}}]")));
    String env =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"env\"},\"spec\":{"
            + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"env\":[{\"name\":\"E\","
            + "\"valueFrom\":{\"secretKeyRef\":{\"name\":\"denied\",\"key\":\"k\"}}}]}]}}";
    assertEquals(
        "pods \"env\" is forbidden: container c with envVar E referencing"
            + " secret.secretName=\"denied\" is not allowed because service account default does"
            + " not reference that secret",
        refusal(server, "/api/v1/namespaces/ns/pods", env));
    assertEquals(
        "pods \"pull\" is forbidden: imagePullSecrets[0].name=\"denied\" is not allowed because"
            + " service account default does not reference that imagePullSecret",
        refusal(
            server,
            "/api/v1/namespaces/ns/pods",
            pod("pull", "\"imagePullSecrets\":[{\"name\":\"denied\"}]")));
  }

  /**
   * ServiceAccount beside the controller that makes the accounts it requires, as a cluster runs.
   */
  @Test
  void serviceAccountIsOnWhereItsControllerRuns() {
    List<String> withIt =
        DefaultAdmission.forControllers(
                List.of("namespace-controller", "serviceaccount-controller"))
            .enabled();
    assertEquals("ServiceAccount", withIt.get(1), withIt.toString());
    assertEquals(DefaultAdmission.ENABLED_BY_DEFAULT.size() + 1, withIt.size());
    assertEquals(
        DefaultAdmission.kubernetes().enabled(),
        DefaultAdmission.forControllers(List.of("namespace-controller")).enabled());
  }

  @Test
  void pluginNamesAsKubeApiserverTakesThem() {
    // In kube-apiserver's order.
    assertEquals(
        List.of(
            "LimitRanger",
            "TaintNodesByCondition",
            "PodSecurity",
            "Priority",
            "DefaultTolerationSeconds",
            "DefaultStorageClass",
            "StorageObjectInUseProtection",
            "PersistentVolumeClaimResize",
            "RuntimeClass",
            "CertificateApproval",
            "CertificateSigning",
            "CertificateSubjectRestriction",
            "DefaultIngressClass",
            "ResourceQuota"),
        DefaultAdmission.kubernetes().enabled());
    assertEquals(
        List.of("ServiceAccount", "PodSecurity", "DefaultTolerationSeconds"),
        DefaultAdmission.none()
            .enable("DefaultTolerationSeconds", "Priority", "PodSecurity", "ServiceAccount")
            .disable("Priority")
            .enabled());
    assertEquals(List.of(), DefaultAdmission.none().enabled());
  }

  static ApiResponse request(ApiServer server, String method, String path, String body) {
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

  static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
