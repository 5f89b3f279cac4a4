package dev.machinery.builtins;

import static dev.machinery.builtins.DefaultAdmissionPluginsTest.request;
import static dev.machinery.builtins.DefaultAdmissionPluginsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kube-apiserver's DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize,
 * RuntimeClass, TaintNodesByCondition and DefaultIngressClass admission, as Kubernetes' tests of
 * them assert ({@code plugin/pkg/admission/storage/...}, {@code runtimeclass}, {@code nodetaint},
 * {@code network/defaultingressclass}).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StorageAndRuntimeClassAdmissionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApiServer server() {
    ApiServer server = BuiltinKinds.apiServer().build();
    assertEquals(
        201,
        request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}").status());
    return server;
  }

  private static JsonNode created(ApiServer server, String path, String body) throws Exception {
    ApiResponse r = request(server, "POST", path, body);
    assertEquals(201, r.status(), text(r));
    return JSON.readTree(text(r));
  }

  private static String refused(ApiServer server, String path, String body) throws Exception {
    ApiResponse r = request(server, "POST", path, body);
    assertEquals(403, r.status(), text(r));
    return JSON.readTree(text(r)).path("message").asText();
  }

  private static String claim(String name, String spec) {
    return "{\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":"
        + "{\"storage\":\"1Gi\"}}"
        + spec
        + "}}";
  }

  private static String storageClass(String name, boolean isDefault) {
    return "{\"metadata\":{\"name\":\""
        + name
        + "\",\"annotations\":{\"storageclass.kubernetes.io/is-default-class\":\""
        + isDefault
        + "\"}},\"provisioner\":\"example.com/x\"}";
  }

  @Test
  void claimsGetTheDefaultClassAndTheirFinalizer() throws Exception {
    ApiServer server = server();
    String claims = "/api/v1/namespaces/ns/persistentvolumeclaims";
    JsonNode none = created(server, claims, claim("none", ""));
    assertTrue(none.at("/spec/storageClassName").isMissingNode(), none.toString());
    assertEquals("[\"kubernetes.io/pvc-protection\"]", none.at("/metadata/finalizers").toString());
    created(server, "/apis/storage.k8s.io/v1/storageclasses", storageClass("not-default", false));
    created(server, "/apis/storage.k8s.io/v1/storageclasses", storageClass("standard", true));
    assertEquals(
        "standard", created(server, claims, claim("a", "")).at("/spec/storageClassName").asText());
    // A class named, even the empty one, is kept.
    assertEquals(
        "",
        created(server, claims, claim("b", ",\"storageClassName\":\"\""))
            .at("/spec/storageClassName")
            .asText());
    assertEquals(
        "fast",
        created(server, claims, claim("c", ",\"storageClassName\":\"fast\""))
            .at("/spec/storageClassName")
            .asText());
    JsonNode pv =
        created(
            server,
            "/api/v1/persistentvolumes",
            "{\"metadata\":{\"name\":\"pv\"},\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},"
                + "\"accessModes\":[\"ReadWriteOnce\"],\"hostPath\":{\"path\":\"/tmp\"}}}");
    assertEquals("[\"kubernetes.io/pv-protection\"]", pv.at("/metadata/finalizers").toString());
  }

  private static String pod(String name, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]"
        + spec
        + "}}";
  }

  @Test
  void runtimeClassOverheadAndScheduling() throws Exception {
    ApiServer server = server();
    String pods = "/api/v1/namespaces/ns/pods";
    assertEquals(
        "pods \"missing\" is forbidden: pod rejected: RuntimeClass \"kata\" not found",
        refused(server, pods, pod("missing", ",\"runtimeClassName\":\"kata\"")));
    created(
        server,
        "/apis/node.k8s.io/v1/runtimeclasses",
        "{\"metadata\":{\"name\":\"kata\"},\"handler\":\"kata\","
            + "\"overhead\":{\"podFixed\":{\"cpu\":\"250m\",\"memory\":\"120Mi\"}},"
            + "\"scheduling\":{\"nodeSelector\":{\"runtime\":\"kata\"},"
            + "\"tolerations\":[{\"key\":\"kata\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]}}");
    JsonNode pod = created(server, pods, pod("ok", ",\"runtimeClassName\":\"kata\""));
    assertEquals("{\"cpu\":\"250m\",\"memory\":\"120Mi\"}", pod.at("/spec/overhead").toString());
    assertEquals("{\"runtime\":\"kata\"}", pod.at("/spec/nodeSelector").toString());
    // After DefaultTolerationSeconds' two, as RuntimeClass runs after it.
    assertEquals("kata", pod.at("/spec/tolerations/2/key").asText());
    assertEquals(
        "pods \"other\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's"
            + " defined Overhead",
        refused(
            server,
            pods,
            pod("other", ",\"runtimeClassName\":\"kata\",\"overhead\":{\"cpu\":\"1\"}")));
    // The same overhead written another way is the same.
    created(
        server,
        pods,
        pod(
            "same",
            ",\"runtimeClassName\":\"kata\",\"overhead\":{\"cpu\":\"0.25\",\"memory\":\"120Mi\"}"));
    assertEquals(
        "pods \"conflict\" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime] ="
            + " kata; pod.spec.nodeSelector[runtime] = runc",
        refused(
            server,
            pods,
            pod(
                "conflict",
                ",\"runtimeClassName\":\"kata\",\"nodeSelector\":{\"runtime\":\"runc\"}")));
    assertEquals(
        "pods \"alone\" is forbidden: pod rejected: Pod Overhead set without corresponding"
            + " RuntimeClass defined Overhead",
        refused(server, pods, pod("alone", ",\"overhead\":{\"cpu\":\"1\"}")));
  }

  private static ApiResponse patch(ApiServer server, String path, String body) {
    return server.handle(
        new dev.machinery.apiserver.http.ApiRequest(
            "PATCH",
            path,
            java.util.Map.of(),
            java.util.Map.of("Content-Type", java.util.List.of("application/merge-patch+json")),
            new java.io.ByteArrayInputStream(
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
  }

  @Test
  void claimsGrowOnlyBoundAndByAClassThatAllowsIt() throws Exception {
    ApiServer server = server();
    created(
        server,
        "/apis/storage.k8s.io/v1/storageclasses",
        "{\"metadata\":{\"name\":\"exp\"},\"provisioner\":\"x\",\"allowVolumeExpansion\":true}");
    created(
        server,
        "/apis/storage.k8s.io/v1/storageclasses",
        "{\"metadata\":{\"name\":\"fixed\"},\"provisioner\":\"x\"}");
    String claims = "/api/v1/namespaces/ns/persistentvolumeclaims/";
    for (String name : new String[] {"exp", "fixed"}) {
      created(
          server,
          "/api/v1/namespaces/ns/persistentvolumeclaims",
          claim(name, ",\"storageClassName\":\"" + name + "\""));
    }
    String grow = "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}";
    ApiResponse unbound = patch(server, claims + "exp", grow);
    assertEquals(403, unbound.status(), text(unbound));
    assertEquals(
        "persistentvolumeclaims \"exp\" is forbidden: Only bound persistent volume claims can be"
            + " expanded",
        JSON.readTree(text(unbound)).path("message").asText());
    for (String name : new String[] {"exp", "fixed"}) {
      ApiResponse bound =
          patch(server, claims + name + "/status", "{\"status\":{\"phase\":\"Bound\"}}");
      assertEquals(200, bound.status(), text(bound));
    }
    ApiResponse grown = patch(server, claims + "exp", grow);
    assertEquals(200, grown.status(), text(grown));
    ApiResponse refused = patch(server, claims + "fixed", grow);
    assertEquals(403, refused.status(), text(refused));
    assertEquals(
        "persistentvolumeclaims \"fixed\" is forbidden: only dynamically provisioned pvc can be"
            + " resized and the storageclass that provisions the pvc must support resize",
        JSON.readTree(text(refused)).path("message").asText());
  }

  @Test
  void nodesAreTaintedNotReadyAndIngressesGetTheDefaultClass() throws Exception {
    ApiServer server = server();
    JsonNode node = created(server, "/api/v1/nodes", "{\"metadata\":{\"name\":\"n1\"}}");
    assertEquals(
        "[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"}]",
        node.at("/spec/taints").toString());
    JsonNode tainted =
        created(
            server,
            "/api/v1/nodes",
            "{\"metadata\":{\"name\":\"n2\"},\"spec\":{\"taints\":[{\"key\":"
                + "\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\",\"value\":\"x\"}]}}");
    assertEquals(1, tainted.at("/spec/taints").size());
    String ingresses = "/apis/networking.k8s.io/v1/namespaces/ns/ingresses";
    String ingress =
        "{\"metadata\":{\"name\":\"%s\"%s},\"spec\":{\"defaultBackend\":{\"service\":"
            + "{\"name\":\"s\",\"port\":{\"number\":80}}}}}";
    assertTrue(
        created(server, ingresses, String.format(ingress, "before", ""))
            .at("/spec/ingressClassName")
            .isMissingNode());
    created(
        server,
        "/apis/networking.k8s.io/v1/ingressclasses",
        "{\"metadata\":{\"name\":\"nginx\",\"annotations\":"
            + "{\"ingressclass.kubernetes.io/is-default-class\":\"true\"}},"
            + "\"spec\":{\"controller\":\"k8s.io/ingress-nginx\"}}");
    assertEquals(
        "nginx",
        created(server, ingresses, String.format(ingress, "after", ""))
            .at("/spec/ingressClassName")
            .asText());
    // The old annotation names a class too.
    assertTrue(
        created(
                server,
                ingresses,
                String.format(
                    ingress,
                    "annotated",
                    ",\"annotations\":{\"kubernetes.io/ingress.class\":\"x\"}"))
            .at("/spec/ingressClassName")
            .isMissingNode());
  }
}
