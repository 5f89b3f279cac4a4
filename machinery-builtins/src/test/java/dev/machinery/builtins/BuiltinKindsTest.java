package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built-in kinds served in process: created, read back with Kubernetes' defaults, pruned,
 * validated against Kubernetes' schemas, listed as Tables, scaled and deleted as kube-apiserver
 * answers.
 */
class BuiltinKindsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
    ApiResponse ns =
        request("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}", Map.of());
    assertEquals(201, ns.status(), text(ns));
  }

  @Test
  void aDeploymentIsDefaultedAsKubernetesDefaultsIt() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments",
            """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
             "spec":{"selector":{"matchLabels":{"app":"web"}},
              "template":{"metadata":{"labels":{"app":"web"},"creationTimestamp":null},
               "spec":{"containers":[{"name":"nginx","image":"nginx","ports":[{"containerPort":80}]}]}}},
             "status":{}}
            """,
            Map.of());
    assertEquals(201, created.status(), text(created));
    JsonNode d = JSON.readTree(created.body());
    assertEquals(1, d.at("/spec/replicas").asInt());
    assertEquals("RollingUpdate", d.at("/spec/strategy/type").asText());
    assertEquals("25%", d.at("/spec/strategy/rollingUpdate/maxSurge").asText());
    assertEquals(10, d.at("/spec/revisionHistoryLimit").asInt());
    assertEquals(600, d.at("/spec/progressDeadlineSeconds").asInt());
    JsonNode pod = d.at("/spec/template/spec");
    assertEquals("Always", pod.at("/restartPolicy").asText());
    assertEquals("ClusterFirst", pod.at("/dnsPolicy").asText());
    assertEquals(30, pod.at("/terminationGracePeriodSeconds").asInt());
    assertEquals("default-scheduler", pod.at("/schedulerName").asText());
    assertEquals("Always", pod.at("/containers/0/imagePullPolicy").asText());
    assertEquals("TCP", pod.at("/containers/0/ports/0/protocol").asText());
    assertEquals("/dev/termination-log", pod.at("/containers/0/terminationMessagePath").asText());
    assertFalse(d.at("/spec/template/metadata").has("creationTimestamp"), d.toString());
    assertEquals(1, d.at("/metadata/generation").asInt());
  }

  @Test
  void unknownFieldsArePrunedAndStrictValidationRefusesThem() throws Exception {
    String body =
        """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"pruned"},
         "data":{"a":"b"},"bogus":1}
        """;
    ApiResponse strict =
        request(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            body,
            Map.of(),
            Map.of("fieldValidation", List.of("Strict")));
    assertEquals(400, strict.status(), text(strict));
    assertTrue(text(strict).contains("unknown field \\\"bogus\\\""), text(strict));
    ApiResponse created = request("POST", "/api/v1/namespaces/default/configmaps", body, Map.of());
    assertEquals(201, created.status(), text(created));
    assertFalse(JSON.readTree(created.body()).has("bogus"));

    String metadata =
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
            + "\"metadata\":{\"name\":\"meta\",\"colour\":\"red\"}}";
    ApiResponse strictMetadata =
        request(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            metadata,
            Map.of(),
            Map.of("fieldValidation", List.of("Strict")));
    assertEquals(400, strictMetadata.status(), text(strictMetadata));
    assertTrue(
        text(strictMetadata).contains("unknown field \\\"metadata.colour\\\""),
        text(strictMetadata));
    ApiResponse pruned =
        request("POST", "/api/v1/namespaces/default/configmaps", metadata, Map.of());
    assertEquals(201, pruned.status(), text(pruned));
    assertFalse(JSON.readTree(pruned.body()).get("metadata").has("colour"), text(pruned));
  }

  @Test
  void invalidObjectsAreRefusedNamingTheField() throws Exception {
    ApiResponse refused =
        request(
            "POST",
            "/api/v1/namespaces/default/pods",
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"bad"},
             "spec":{"containers":[{"name":"c","image":"busybox","imagePullPolicy":"Sometimes"}]}}
            """,
            Map.of());
    assertEquals(422, refused.status(), text(refused));
    JsonNode status = JSON.readTree(refused.body());
    assertEquals("Invalid", status.get("reason").asText());
    assertTrue(
        status
            .at("/message")
            .asText()
            .contains("spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\""),
        status.toString());

    ApiResponse mismatch =
        request(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments",
            """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"mismatch"},
             "spec":{"selector":{"matchLabels":{"app":"a"}},
              "template":{"metadata":{"labels":{"app":"b"}},
               "spec":{"containers":[{"name":"c","image":"busybox"}]}}}}
            """,
            Map.of());
    assertEquals(422, mismatch.status(), text(mismatch));
    assertTrue(
        text(mismatch).contains("spec.template.metadata.labels: Invalid value"), text(mismatch));
    assertTrue(text(mismatch).contains("`selector` does not match template `labels`"));
  }

  @Test
  void aServiceGetsAClusterIpAndKubernetesDefaults() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/api/v1/namespaces/default/services",
            """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},
             "spec":{"selector":{"app":"web"},"ports":[{"port":80}]}}
            """,
            Map.of());
    assertEquals(201, created.status(), text(created));
    JsonNode spec = JSON.readTree(created.body()).get("spec");
    assertEquals("ClusterIP", spec.get("type").asText());
    assertTrue(spec.get("clusterIP").asText().startsWith("10."), spec.toString());
    assertEquals(spec.get("clusterIP"), spec.at("/clusterIPs/0"));
    assertEquals(80, spec.at("/ports/0/targetPort").asInt());
    assertEquals("TCP", spec.at("/ports/0/protocol").asText());
    assertEquals("SingleStack", spec.get("ipFamilyPolicy").asText());

    ApiResponse deleted =
        request("DELETE", "/api/v1/namespaces/default/services/web", null, Map.of());
    assertEquals(200, deleted.status(), text(deleted));
    assertEquals(
        "Service", JSON.readTree(deleted.body()).get("kind").asText(), "as the OpenAPI says");
  }

  @Test
  void aConfigMapDeleteAnswersAStatus() throws Exception {
    request(
        "POST",
        "/api/v1/namespaces/default/configmaps",
        "{\"metadata\":{\"name\":\"gone\"}}",
        Map.of());
    ApiResponse deleted =
        request("DELETE", "/api/v1/namespaces/default/configmaps/gone", null, Map.of());
    JsonNode status = JSON.readTree(deleted.body());
    assertEquals("Status", status.get("kind").asText(), status.toString());
    assertEquals("Success", status.get("status").asText());
    assertEquals("configmaps", status.at("/details/kind").asText());
  }

  @Test
  void deploymentsScaleAndListAsKubectlTables() throws Exception {
    request(
        "POST",
        "/apis/apps/v1/namespaces/default/deployments",
        """
        {"metadata":{"name":"scaled"},"spec":{"selector":{"matchLabels":{"app":"s"}},
          "template":{"metadata":{"labels":{"app":"s"}},"spec":{"containers":[{"name":"c","image":"busybox:1.36"}]}}}}
        """,
        Map.of());
    ApiResponse scale =
        request("GET", "/apis/apps/v1/namespaces/default/deployments/scaled/scale", null, Map.of());
    assertEquals(200, scale.status(), text(scale));
    JsonNode s = JSON.readTree(scale.body());
    assertEquals("Scale", s.get("kind").asText());
    assertEquals("app=s", s.at("/status/selector").asText());
    ApiResponse patched =
        request(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/scaled/scale",
            "{\"spec\":{\"replicas\":3}}",
            Map.of("Content-Type", "application/merge-patch+json"));
    assertEquals(200, patched.status(), text(patched));
    ApiResponse table =
        request(
            "GET",
            "/apis/apps/v1/namespaces/default/deployments/scaled",
            null,
            Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
    JsonNode t = JSON.readTree(table.body());
    assertEquals("Table", t.get("kind").asText(), t.toString());
    assertEquals("Ready", t.at("/columnDefinitions/1/name").asText());
    assertEquals("0/3", t.at("/rows/0/cells/1").asText());
    assertEquals("busybox:1.36", t.at("/rows/0/cells/6").asText());
  }

  @Test
  void discoveryListsShortNamesCategoriesAndSubresources() throws Exception {
    JsonNode apps = JSON.readTree(request("GET", "/apis/apps/v1", null, Map.of()).body());
    Map<String, JsonNode> byName = new LinkedHashMap<>();
    apps.get("resources").forEach(r -> byName.put(r.get("name").asText(), r));
    assertEquals("[\"deploy\"]", byName.get("deployments").get("shortNames").toString());
    assertEquals("[\"all\"]", byName.get("deployments").get("categories").toString());
    assertTrue(byName.containsKey("deployments/scale"));
    assertTrue(byName.containsKey("deployments/status"));
    JsonNode core = JSON.readTree(request("GET", "/api/v1", null, Map.of()).body());
    List<String> names = core.get("resources").findValuesAsText("name");
    assertTrue(names.containsAll(List.of("pods", "services", "secrets", "serviceaccounts")));
    JsonNode openapi =
        JSON.readTree(request("GET", "/openapi/v3/apis/apps/v1", null, Map.of()).body());
    assertTrue(
        openapi.at("/components/schemas").has("io.k8s.api.apps.v1.Deployment"),
        "Kubernetes' own schema is published");
    assertTrue(openapi.at("/components/schemas").has("io.k8s.api.core.v1.PodSpec"));
  }

  @Test
  void serverSideApplyMergesContainersByName() throws Exception {
    String first =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: applied}
        spec:
          selector: {matchLabels: {app: x}}
          template:
            metadata: {labels: {app: x}}
            spec:
              containers:
              - {name: a, image: busybox}
        """;
    ApiResponse applied =
        request(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/applied",
            first,
            Map.of("Content-Type", "application/apply-patch+yaml"),
            Map.of("fieldManager", List.of("one")));
    assertEquals(201, applied.status(), text(applied));
    String second =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: applied}
        spec:
          template:
            spec:
              containers:
              - {name: b, image: nginx}
        """;
    ApiResponse merged =
        request(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/applied",
            second,
            Map.of("Content-Type", "application/apply-patch+yaml"),
            Map.of("fieldManager", List.of("two")));
    assertEquals(200, merged.status(), text(merged));
    JsonNode containers = JSON.readTree(merged.body()).at("/spec/template/spec/containers");
    assertEquals(2, containers.size(), containers.toString());
  }

  @Test
  void aDefinitionOfABuiltInResourceIsNotAccepted() throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":{\"name\":\"leases.coordination.k8s.io\"},"
                + "\"spec\":{\"group\":\"coordination.k8s.io\",\"scope\":\"Namespaced\","
                + "\"names\":{\"plural\":\"leases\",\"kind\":\"Lease\"},"
                + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
                + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}}]}}",
            Map.of());
    assertEquals(201, created.status(), text(created));
    JsonNode accepted = null;
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline && accepted == null) {
      JsonNode crd =
          JSON.readTree(
              request(
                      "GET",
                      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
                          + "leases.coordination.k8s.io",
                      null,
                      Map.of())
                  .body());
      for (JsonNode condition : crd.at("/status/conditions")) {
        if (condition.path("type").asText().equals("NamesAccepted")) {
          accepted = condition;
        }
      }
      Thread.sleep(10);
    }
    assertEquals("False", accepted.path("status").asText(), String.valueOf(accepted));
    assertEquals("PluralConflict", accepted.path("reason").asText());
    assertEquals(
        "\"leases\" is already served in coordination.k8s.io/v1 by the server's own Lease",
        accepted.path("message").asText());
    ApiResponse lease =
        request(
            "POST",
            "/apis/coordination.k8s.io/v1/namespaces/default/leases",
            "{\"metadata\":{\"name\":\"held\"},\"spec\":{\"holderIdentity\":\"me\"}}",
            Map.of(),
            Map.of("fieldValidation", List.of("Strict")));
    assertEquals(201, lease.status(), "the built-in Lease still answers: " + text(lease));
  }

  @Test
  void kindsUsedForTheFirstTimeFromManyThreadsAtOnceAreServed() throws Exception {
    // Each kind's schema is built on its first use: six kinds first used at once.
    List<String[]> kinds =
        List.of(
            new String[] {"/apis/scheduling.k8s.io/v1/priorityclasses", "\"value\":1000"},
            new String[] {"/apis/storage.k8s.io/v1/storageclasses", "\"provisioner\":\"x.dev/p\""},
            new String[] {"/apis/networking.k8s.io/v1/ingressclasses", "\"spec\":{}"},
            new String[] {"/apis/node.k8s.io/v1/runtimeclasses", "\"handler\":\"runc\""},
            new String[] {"/apis/rbac.authorization.k8s.io/v1/clusterroles", "\"rules\":[]"},
            new String[] {"/apis/storage.k8s.io/v1/csidrivers", "\"spec\":{}"});
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(kinds.size());
    try {
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<ApiResponse>> answers = new java.util.ArrayList<>();
      for (String[] kind : kinds) {
        String body = "{\"metadata\":{\"name\":\"concurrent\"}," + kind[1] + "}";
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return request("POST", kind[0], body, Map.of());
                }));
      }
      start.countDown();
      for (int i = 0; i < kinds.size(); i++) {
        ApiResponse answer = answers.get(i).get();
        assertEquals(201, answer.status(), kinds.get(i)[0] + ": " + text(answer));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static ApiResponse request(String method, String path, String body, Map<String, String> headers) {
    return request(method, path, body, headers, Map.of());
  }

  static ApiResponse request(
      String method,
      String path,
      String body,
      Map<String, String> headers,
      Map<String, List<String>> query) {
    Map<String, List<String>> h = new LinkedHashMap<>();
    headers.forEach((k, v) -> h.put(k, List.of(v)));
    if (body != null) {
      h.putIfAbsent("Content-Type", List.of("application/json"));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            h,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
