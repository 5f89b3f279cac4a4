package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Admission of the {@code scale} subresource as kube-apiserver does it, on the sample server with
 * the built-in kinds: webhooks (a plain JDK HTTPS server) and ValidatingAdmissionPolicies
 * registered on {@code RESOURCE/scale} are given the {@code autoscaling/v1 Scale}, not the object
 * it scales. The rows of kube's {@code
 * test/integration/apiserver/admissionwebhook/admission_test.go} that apply here: an update and a
 * merge patch of each scale subresource the server serves (Deployments, ReplicaSets, StatefulSets,
 * ReplicationControllers and a custom resource's), seen by a mutating and a validating webhook of
 * each review version, and by one matched through {@code matchPolicy: Equivalent} in another
 * version of the custom resource.
 */
class ScaleAdmissionTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final List<Recorded> reviews = new CopyOnWriteArrayList<>();
  private HttpsServer webhook;
  private String caBundle;
  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient client;
  private final HttpClient http = HttpClient.newHttpClient();

  /** A review a webhook was sent, with the path it was sent to. */
  private record Recorded(String path, JsonNode review) {
    JsonNode request() {
      return review.get("request");
    }
  }

  @BeforeEach
  void start() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setExecutor(Executors.newCachedThreadPool());
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    for (String path :
        List.of(
            "/v1/mutation",
            "/v1/validation",
            "/v1beta1/mutation",
            "/v1beta1/validation",
            "/v1/convert/mutation",
            "/v1/convert/validation",
            "/replicas",
            "/at-most-5")) {
      webhook.createContext(
          path,
          exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            reviews.add(new Recorded(path, review));
            byte[] answer = answer(path, review);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          });
    }
    webhook.start();
    server =
        SampleServer.builder(
                Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100)
            .build();
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "jdk");
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.close();
    webhook.stop(0);
  }

  /**
   * The webhooks' answers: each allows with a warning naming it; the mutating ones add {@code /foo}
   * by JSON patch as kube's test webhooks do (a field a Scale does not have), {@code /replicas}
   * sets {@code spec.replicas} to 3, {@code /at-most-5} refuses more than 5 replicas.
   */
  private static byte[] answer(String path, JsonNode review) throws IOException {
    JsonNode request = review.get("request");
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", review.path("apiVersion").asText());
    out.put("kind", "AdmissionReview");
    ObjectNode response = out.putObject("response");
    response.put("uid", request.path("uid").asText());
    if (path.equals("/at-most-5")
        && request.path("object").path("spec").path("replicas").asInt() > 5) {
      response.put("allowed", false);
      response
          .putObject("status")
          .put("code", 403)
          .put("reason", "Forbidden")
          .put("message", "at most 5 replicas");
      return JSON.writeValueAsBytes(out);
    }
    response.put("allowed", true);
    response.putArray("warnings").add(path);
    String patch = null;
    if (path.endsWith("/mutation")) {
      patch = "[{\"op\":\"add\",\"path\":\"/foo\",\"value\":\"test\"}]";
    } else if (path.equals("/replicas")) {
      patch = "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]";
    }
    if (patch != null) {
      response.put(
          "patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
      response.put("patchType", "JSONPatch");
    }
    return JSON.writeValueAsBytes(out);
  }

  private void configure(String kind, String name, String webhooks) {
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: "
                + kind
                + "\nmetadata:\n  name: "
                + name
                + "\nwebhooks:\n"
                + webhooks)
        .create();
  }

  private String webhookYaml(String name, String path, String rules, String extra) {
    return "- name: "
        + name
        + "\n  clientConfig:\n    url: https://127.0.0.1:"
        + webhook.getAddress().getPort()
        + path
        + "\n    caBundle: "
        + caBundle
        + "\n  rules:\n"
        + rules
        + "  sideEffects: None\n"
        + extra;
  }

  /** The rules of kube's test: each scale subresource in the version it is served in. */
  private static String scaleRules(String gadgetVersion) {
    return rule("apps", "v1", "deployments/scale", "replicasets/scale", "statefulsets/scale")
        + rule("", "v1", "replicationcontrollers/scale")
        + rule("example.com", gadgetVersion, "gadgets/scale");
  }

  private static String rule(String group, String version, String... resources) {
    return "  - operations: [\"*\"]\n    apiGroups: [\""
        + group
        + "\"]\n    apiVersions: [\""
        + version
        + "\"]\n    resources: [\""
        + String.join("\", \"", resources)
        + "\"]\n";
  }

  /** A custom resource served in v1 (stored) and v2, with a scale subresource, and one of them. */
  private void createGadgets() throws InterruptedException {
    String schema =
        "    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
            + "    subresources:\n      status: {}\n      scale: {specReplicasPath: .spec.replicas,"
            + " statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}\n";
    client
        .resource(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
                + "  name: gadgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n"
                + "  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}\n"
                + "  versions:\n"
                + "  - name: v1\n    served: true\n    storage: true\n"
                + schema
                + "  - name: v2\n    served: true\n    storage: false\n"
                + schema)
        .create();
    for (int i = 0; ; i++) {
      try {
        client
            .resource(
                "apiVersion: example.com/v2\nkind: Gadget\nmetadata:\n  name: probe\n"
                    + "  namespace: default\n")
            .dryRun()
            .create();
        break;
      } catch (KubernetesClientException e) {
        if (i > 100) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
    client
        .resource(
            "apiVersion: example.com/v2\nkind: Gadget\nmetadata: {name: web, namespace: default}\n"
                + "spec: {replicas: 1}\nstatus: {replicas: 1, selector: app=web}\n")
        .create();
  }

  private static final String TEMPLATE =
      "  selector: {matchLabels: {app: web}}\n"
          + "  template:\n    metadata: {labels: {app: web}}\n"
          + "    spec: {containers: [{name: web, image: nginx}]}\n";

  /** A Deployment, a ReplicaSet, a StatefulSet and a ReplicationController, named web. */
  private void createParents() {
    client
        .resource(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n"
                + "spec:\n  replicas: 1\n"
                + TEMPLATE)
        .create();
    client
        .resource(
            "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web, namespace: default}\n"
                + "spec:\n  replicas: 1\n"
                + TEMPLATE)
        .create();
    client
        .resource(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, namespace: default}\n"
                + "spec:\n  replicas: 1\n  serviceName: web\n"
                + TEMPLATE)
        .create();
    client
        .resource(
            "apiVersion: v1\nkind: ReplicationController\n"
                + "metadata: {name: web, namespace: default}\n"
                + "spec:\n  replicas: 1\n  selector: {app: web}\n"
                + "  template:\n    metadata: {labels: {app: web}}\n"
                + "    spec: {containers: [{name: web, image: nginx}]}\n")
        .create();
  }

  private HttpResponse<String> send(String method, String path, String contentType, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + path))
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", contentType)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }

  /** Sets a scale subresource's replicas by PUT. */
  private HttpResponse<String> putScale(String scalePath, int replicas)
      throws IOException, InterruptedException {
    ObjectNode scale = (ObjectNode) get(scalePath);
    ((ObjectNode) scale.get("spec")).put("replicas", replicas);
    return send("PUT", scalePath, "application/json", scale.toString());
  }

  /**
   * One row of kube's table: the group, version and resource a scale subresource is written
   * through, its path, and the group, version and resource a webhook with {@code matchPolicy:
   * Equivalent} naming the first version kube's test saw is called with.
   */
  static Stream<Arguments> scaleRows() {
    List<Arguments> rows = new ArrayList<>();
    for (String verb : List.of("update", "patch")) {
      rows.add(row(verb, "apps", "v1", "deployments", "v1"));
      rows.add(row(verb, "apps", "v1", "replicasets", "v1"));
      rows.add(row(verb, "apps", "v1", "statefulsets", "v1"));
      rows.add(row(verb, "", "v1", "replicationcontrollers", "v1"));
      rows.add(row(verb, "example.com", "v1", "gadgets", "v1"));
      rows.add(row(verb, "example.com", "v2", "gadgets", "v1"));
    }
    return rows.stream();
  }

  private static Arguments row(
      String verb, String group, String version, String resource, String converted) {
    return Arguments.of(verb, group, version, resource, converted);
  }

  @ParameterizedTest(name = "{0} {1}/{2} {3}/scale")
  @MethodSource("scaleRows")
  void webhooksAreSentTheScale(
      String verb, String group, String version, String resource, String converted)
      throws Exception {
    createGadgets();
    createParents();
    // The other webhooks match exactly the version requested (kube's test has a rule for each).
    String exact = group.equals("example.com") ? version : "v1";
    configure(
        "MutatingWebhookConfiguration",
        "mutation",
        (webhookYaml("v1.mutation.example.com", "/v1/mutation", scaleRules(exact), v1())
            + webhookYaml(
                "v1beta1.mutation.example.com", "/v1beta1/mutation", scaleRules(exact), v1beta1())
            + webhookYaml(
                "v1.convert.example.com",
                "/v1/convert/mutation",
                scaleRules(converted),
                v1() + "  matchPolicy: Equivalent\n")));
    configure(
        "ValidatingWebhookConfiguration",
        "validation",
        (webhookYaml("v1.validation.example.com", "/v1/validation", scaleRules(exact), v1())
            + webhookYaml(
                "v1beta1.validation.example.com",
                "/v1beta1/validation",
                scaleRules(exact),
                v1beta1())
            + webhookYaml(
                "v1.convert.example.com",
                "/v1/convert/validation",
                scaleRules(converted),
                v1() + "  matchPolicy: Equivalent\n")));
    String prefix = group.isEmpty() ? "/api/v1" : "/apis/" + group + "/" + version;
    String scalePath = prefix + "/namespaces/default/" + resource + "/web/scale";
    reviews.clear();
    HttpResponse<String> response =
        verb.equals("update")
            ? putScale(scalePath, 2)
            : send(
                "PATCH",
                scalePath,
                "application/merge-patch+json",
                "{\"metadata\":{\"annotations\":{\"subresourcepatch\":\"true\"}}}");
    assertEquals(200, response.statusCode(), response.body());
    JsonNode answered = JSON.readTree(response.body());
    assertEquals("autoscaling/v1", answered.path("apiVersion").asText(), response.body());
    assertEquals("Scale", answered.path("kind").asText(), response.body());

    List<String> paths = reviews.stream().map(Recorded::path).sorted().toList();
    assertEquals(
        List.of(
            "/v1/convert/mutation",
            "/v1/convert/validation",
            "/v1/mutation",
            "/v1/validation",
            "/v1beta1/mutation",
            "/v1beta1/validation"),
        paths);
    // kube's test: every webhook's warning reaches the client.
    List<String> warnings = response.headers().allValues("Warning");
    for (String path : paths) {
      assertTrue(
          warnings.stream().anyMatch(w -> w.contains("\"" + path + "\"")),
          path + " not in " + warnings);
    }
    for (Recorded recorded : reviews) {
      JsonNode request = recorded.request();
      boolean isConverted = recorded.path().contains("/convert/");
      String what = recorded.path() + " " + request;
      assertEquals(
          recorded.path().startsWith("/v1beta1/")
              ? "admission.k8s.io/v1beta1"
              : "admission.k8s.io/v1",
          recorded.review().path("apiVersion").asText(),
          what);
      String expectedVersion = isConverted ? converted : version;
      assertEquals(
          "{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"}",
          request.get("kind").toString(),
          what);
      assertEquals(
          "{\"group\":\""
              + group
              + "\",\"version\":\""
              + expectedVersion
              + "\",\"resource\":\""
              + resource
              + "\"}",
          request.get("resource").toString(),
          what);
      assertEquals("scale", request.path("subResource").asText(), what);
      assertEquals(
          "{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"}",
          request.get("requestKind").toString(),
          what);
      assertEquals(
          "{\"group\":\""
              + group
              + "\",\"version\":\""
              + version
              + "\",\"resource\":\""
              + resource
              + "\"}",
          request.get("requestResource").toString(),
          what);
      assertEquals("scale", request.path("requestSubResource").asText(), what);
      assertEquals("UPDATE", request.path("operation").asText(), what);
      assertEquals("web", request.path("name").asText(), what);
      assertEquals("default", request.path("namespace").asText(), what);
      assertEquals("UpdateOptions", request.path("options").path("kind").asText(), what);
      assertEquals("meta.k8s.io/v1", request.path("options").path("apiVersion").asText(), what);
      for (String field : List.of("object", "oldObject")) {
        JsonNode object = request.path(field);
        assertEquals("autoscaling/v1", object.path("apiVersion").asText(), what);
        assertEquals("Scale", object.path("kind").asText(), what);
        assertEquals("web", object.path("metadata").path("name").asText(), what);
        assertEquals("default", object.path("metadata").path("namespace").asText(), what);
        assertFalse(object.path("metadata").path("uid").asText().isEmpty(), what);
        assertTrue(object.path("spec").has("replicas"), what);
        assertFalse(object.path("spec").has("template"), what);
      }
      assertEquals(1, request.path("oldObject").path("spec").path("replicas").asInt(), what);
      assertEquals(
          verb.equals("update") ? 2 : 1,
          request.path("object").path("spec").path("replicas").asInt(),
          what);
      if (!resource.equals("gadgets")) {
        assertEquals(
            "app=web", request.path("object").path("status").path("selector").asText(), what);
      }
    }
    // The webhooks' patches (a field the Scale does not have) change nothing of the object.
    String objectPath = prefix + "/namespaces/default/" + resource + "/web";
    JsonNode parent = get(objectPath);
    assertEquals(verb.equals("update") ? 2 : 1, parent.path("spec").path("replicas").asInt());
    assertTrue(parent.path("foo").isMissingNode(), parent.toString());
  }

  private static String v1() {
    return "  admissionReviewVersions: [v1]\n";
  }

  private static String v1beta1() {
    return "  admissionReviewVersions: [v1beta1]\n";
  }

  @Test
  void aMutatingWebhooksReplicasReachTheDeploymentAndTheValidatingOnesSeeThem() throws Exception {
    createParents();
    configure(
        "MutatingWebhookConfiguration",
        "replicas",
        webhookYaml(
            "replicas.example.com", "/replicas", rule("apps", "v1", "deployments/scale"), v1()));
    configure(
        "ValidatingWebhookConfiguration",
        "at-most-5",
        webhookYaml(
            "at-most-5.example.com", "/at-most-5", rule("apps", "v1", "deployments/scale"), v1()));
    reviews.clear();
    HttpResponse<String> response =
        putScale("/apis/apps/v1/namespaces/default/deployments/web/scale", 7);
    assertEquals(200, response.statusCode(), response.body());
    assertEquals(3, JSON.readTree(response.body()).path("spec").path("replicas").asInt());
    assertEquals(
        3,
        get("/apis/apps/v1/namespaces/default/deployments/web")
            .path("spec")
            .path("replicas")
            .asInt());
    JsonNode validated =
        reviews.stream()
            .filter(r -> r.path().equals("/at-most-5"))
            .findFirst()
            .orElseThrow()
            .request();
    assertEquals(
        3, validated.path("object").path("spec").path("replicas").asInt(), validated.toString());
    assertEquals("Scale", validated.path("object").path("kind").asText());

    // The Deployment itself is still admitted as a Deployment.
    reviews.clear();
    HttpResponse<String> patched =
        send(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":4}}");
    assertEquals(200, patched.statusCode(), patched.body());
    assertEquals(List.of(), reviews);
  }

  @Test
  void aValidatingWebhookRefusesAScaleInKubesWords() throws Exception {
    createParents();
    configure(
        "ValidatingWebhookConfiguration",
        "at-most-5",
        webhookYaml(
            "at-most-5.example.com", "/at-most-5", rule("apps", "v1", "deployments/scale"), v1()));
    HttpResponse<String> refused =
        putScale("/apis/apps/v1/namespaces/default/deployments/web/scale", 6);
    assertEquals(403, refused.statusCode(), refused.body());
    JsonNode status = JSON.readTree(refused.body());
    assertEquals(
        "admission webhook \"at-most-5.example.com\" denied the request: at most 5 replicas",
        status.path("message").asText());
    assertEquals("Forbidden", status.path("reason").asText());
    assertEquals(
        1,
        get("/apis/apps/v1/namespaces/default/deployments/web")
            .path("spec")
            .path("replicas")
            .asInt());
    assertEquals(
        200, putScale("/apis/apps/v1/namespaces/default/deployments/web/scale", 5).statusCode());
  }

  @Test
  void aPolicyOnDeploymentsScaleSeesTheScale() throws Exception {
    createParents();
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
                + "metadata: {name: max-replicas}\nspec:\n  failurePolicy: Fail\n"
                + "  matchConstraints:\n    resourceRules:\n"
                + "    - apiGroups: [apps]\n      apiVersions: [v1]\n"
                + "      operations: [UPDATE]\n      resources: [deployments/scale]\n"
                + "  validations:\n"
                + "  - expression: \"object.kind == 'Scale' && object.spec.replicas <= 5\"\n"
                + "  - expression: \"request.kind.group == 'autoscaling' &&"
                + " request.resource.group == 'apps' && request.resource.version == 'v1' &&"
                + " request.subResource == 'scale'\"\n"
                + "    message: the request names the Scale and the deployments\n")
        .create();
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\n"
                + "kind: ValidatingAdmissionPolicyBinding\n"
                + "metadata: {name: max-replicas-binding}\n"
                + "spec: {policyName: max-replicas, validationActions: [Deny]}\n")
        .create();
    HttpResponse<String> refused =
        putScale("/apis/apps/v1/namespaces/default/deployments/web/scale", 6);
    assertEquals(422, refused.statusCode(), refused.body());
    assertEquals(
        "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with"
            + " binding 'max-replicas-binding' denied request: failed expression:"
            + " object.kind == 'Scale' && object.spec.replicas <= 5",
        JSON.readTree(refused.body()).path("message").asText());
    HttpResponse<String> allowed =
        putScale("/apis/apps/v1/namespaces/default/deployments/web/scale", 5);
    assertEquals(200, allowed.statusCode(), allowed.body());
    assertEquals(
        5,
        get("/apis/apps/v1/namespaces/default/deployments/web")
            .path("spec")
            .path("replicas")
            .asInt());
    // The policy names the scale subresource only: the Deployment itself is not refused.
    HttpResponse<String> patched =
        send(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":9}}");
    assertEquals(200, patched.statusCode(), patched.body());
  }
}
