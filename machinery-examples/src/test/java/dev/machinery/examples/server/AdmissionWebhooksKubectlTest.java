package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Admission webhooks seen by every real kubectl on the machine, each against a server of its own: a
 * mutating webhook adds a label to what {@code kubectl create} and {@code kubectl apply} write (its
 * warning printed), a validating one denies a ConfigMap holding a key (kubectl prints
 * kube-apiserver's text), a server-side dry run reaches a webhook without side effects. The
 * webhooks are a JDK HTTPS server with a generated certificate. Fails, saying what to install,
 * where no kubectl is installed.
 */
class AdmissionWebhooksKubectlTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static HttpsServer webhook;
  private static String caBundle;

  @BeforeAll
  static void startWebhooks() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    for (String path : List.of("/label", "/deny")) {
      webhook.createContext(
          path,
          exchange -> {
            byte[] answer = answer(path, JSON.readTree(exchange.getRequestBody()));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          });
    }
    webhook.start();
  }

  @AfterAll
  static void stopWebhooks() {
    webhook.stop(0);
  }

  private static byte[] answer(String path, JsonNode review) throws java.io.IOException {
    JsonNode request = review.get("request");
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", "admission.k8s.io/v1");
    out.put("kind", "AdmissionReview");
    ObjectNode response = out.putObject("response");
    response.put("uid", request.path("uid").asText());
    boolean deny = path.equals("/deny") && request.path("object").path("data").has("forbidden");
    response.put("allowed", !deny);
    if (deny) {
      response
          .putObject("status")
          .put("code", 403)
          // As controller-runtime's Denied: kubectl prints the reason in parentheses.
          .put("reason", "Forbidden")
          .put("message", "data.forbidden is not allowed");
    } else if (path.equals("/label")) {
      boolean labelled = request.path("object").path("metadata").path("labels").isObject();
      String patch =
          labelled
              ? "[{\"op\":\"add\",\"path\":\"/metadata/labels/webhook-added\",\"value\":\"yes\"}]"
              : "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"webhook-added\":\"yes\"}}]";
      response.put(
          "patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
      response.put("patchType", "JSONPatch");
      response.putArray("warnings").add("labelled by the webhook");
    }
    return JSON.writeValueAsBytes(out);
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("AdmissionWebhooksKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static String configuration(String kind, String name, String hook, String path) {
    return "apiVersion: admissionregistration.k8s.io/v1\nkind: "
        + kind
        + "\nmetadata:\n  name: "
        + name
        + "\nwebhooks:\n- name: "
        + hook
        + "\n  clientConfig:\n    url: https://127.0.0.1:"
        + webhook.getAddress().getPort()
        + path
        + "\n    caBundle: "
        + caBundle
        + "\n  rules:\n  - operations: [CREATE, UPDATE]\n    apiGroups: [\"\"]\n"
        + "    apiVersions: [v1]\n    resources: [configmaps]\n  sideEffects: None\n"
        + "  admissionReviewVersions: [v1]\n";
  }

  private static void scenario(String name, Path binary) throws Exception {
    ApiServer server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Kubectl k = Kubectl.of(name, binary, binding.port());
      KubectlChecks c = new KubectlChecks(name);
      c.expect(
          k.run(
              Map.of(),
              configuration(
                  "MutatingWebhookConfiguration", "labels", "label.example.com", "/label"),
              "create",
              "-f",
              "-"),
          0,
          "mutatingwebhookconfiguration.admissionregistration.k8s.io/labels created");
      c.expect(
          k.run(
              Map.of(),
              configuration("ValidatingWebhookConfiguration", "deny", "deny.example.com", "/deny"),
              "create",
              "-f",
              "-"),
          0,
          "validatingwebhookconfiguration.admissionregistration.k8s.io/deny created");
      c.expect(k.run("get", "validatingwebhookconfigurations"), 0, "deny", "1");
      c.expect(
          k.run("create", "configmap", "plain", "--from-literal=k=v", "-n", "default"),
          0,
          "configmap/plain created",
          "Warning: labelled by the webhook");
      c.expect(
          k.run(
              "get",
              "configmap",
              "plain",
              "-n",
              "default",
              "-o",
              "jsonpath={.metadata.labels.webhook-added}"),
          0,
          "yes");
      c.expect(
          k.run("create", "configmap", "bad", "--from-literal=forbidden=x", "-n", "default"),
          1,
          "admission webhook \"deny.example.com\" denied the request: data.forbidden is not"
              + " allowed");
      c.expect(
          k.run(
              Map.of(),
              "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\n"
                  + "data:\n  forbidden: x\n",
              "apply",
              "-f",
              "-"),
          1,
          "Error from server (Forbidden)",
          "admission webhook \"deny.example.com\" denied the request: data.forbidden is not"
              + " allowed");
      c.expect(
          k.run(
              "create",
              "configmap",
              "dry",
              "--from-literal=k=v",
              "-n",
              "default",
              "--dry-run=server",
              "-o",
              "jsonpath={.metadata.labels.webhook-added}"),
          0,
          "yes");
      c.expect(k.run("get", "configmap", "dry", "-n", "default"), 1, "not found");
      assertEquals(List.of(), c.failures);
    }
    server.close();
  }
}
