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
 * kube-apiserver's DefaultStorageClass, StorageObjectInUseProtection and RuntimeClass admission, as
 * Kubernetes' tests of them assert ({@code plugin/pkg/admission/storage/...}, {@code
 * runtimeclass}).
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
}
