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
 * {@code kubectl scale deployment} through admission, by every real kubectl on the machine, each
 * against a server of its own: a validating webhook on {@code deployments/scale} (a JDK HTTPS
 * server) is sent the {@code autoscaling/v1 Scale} and says what it saw in a warning kubectl
 * prints; a ValidatingAdmissionPolicy {@code object.spec.replicas <= 5} on {@code
 * deployments/scale} refuses {@code --replicas=6}, kubectl printing kube-apiserver's refusal.
 * Fails, saying what to install, where no kubectl is installed.
 */
class ScaleAdmissionKubectlTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static HttpsServer webhook;
  private static String caBundle;

  private static final String POLICY =
      """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: max-replicas
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - apiGroups: ["apps"]
            apiVersions: ["v1"]
            operations: ["UPDATE"]
            resources: ["deployments/scale"]
        validations:
        - expression: "object.spec.replicas <= 5"
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: max-replicas-binding
      spec:
        policyName: max-replicas
        validationActions: [Deny]
      """;

  @BeforeAll
  static void startWebhook() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    webhook.createContext(
        "/seen",
        exchange -> {
          byte[] answer = answer(JSON.readTree(exchange.getRequestBody()));
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    webhook.start();
  }

  @AfterAll
  static void stopWebhook() {
    webhook.stop(0);
  }

  /** Allows, warning what it was sent: the kind, the resource, the object and its replicas. */
  private static byte[] answer(JsonNode review) throws java.io.IOException {
    JsonNode request = review.get("request");
    JsonNode object = request.path("object");
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", "admission.k8s.io/v1");
    out.put("kind", "AdmissionReview");
    ObjectNode response = out.putObject("response");
    response.put("uid", request.path("uid").asText());
    response.put("allowed", true);
    response
        .putArray("warnings")
        .add(
            "seen kind="
                + request.path("kind").path("group").asText()
                + "/"
                + request.path("kind").path("version").asText()
                + "."
                + request.path("kind").path("kind").asText()
                + " resource="
                + request.path("resource").path("group").asText()
                + "/"
                + request.path("resource").path("version").asText()
                + "."
                + request.path("resource").path("resource").asText()
                + "/"
                + request.path("subResource").asText()
                + " object="
                + object.path("apiVersion").asText()
                + "."
                + object.path("kind").asText()
                + " replicas="
                + object.path("spec").path("replicas").asText()
                + "<-"
                + request.path("oldObject").path("spec").path("replicas").asText()
                + " selector="
                + object.path("status").path("selector").asText());
    return JSON.writeValueAsBytes(out);
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("ScaleAdmissionKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static String configuration() {
    return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"
        + "metadata:\n  name: seen\nwebhooks:\n- name: seen.example.com\n"
        + "  clientConfig:\n    url: https://127.0.0.1:"
        + webhook.getAddress().getPort()
        + "/seen\n    caBundle: "
        + caBundle
        + "\n  rules:\n  - operations: [UPDATE]\n    apiGroups: [apps]\n"
        + "    apiVersions: [v1]\n    resources: [deployments/scale]\n  sideEffects: None\n"
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
          k.run("create", "deployment", "web", "--image=nginx", "--replicas=1", "-n", "default"),
          0,
          "deployment.apps/web created");
      c.expect(
          k.run(Map.of(), configuration(), "create", "-f", "-"),
          0,
          "validatingwebhookconfiguration.admissionregistration.k8s.io/seen created");
      c.expect(
          k.run("scale", "deployment", "web", "--replicas=3", "-n", "default"),
          0,
          "deployment.apps/web scaled",
          "Warning: seen kind=autoscaling/v1.Scale resource=apps/v1.deployments/scale"
              + " object=autoscaling/v1.Scale replicas=3<-1 selector=app=web");
      c.expect(k.run(Map.of(), POLICY, "apply", "-f", "-"), 0, "max-replicas created");
      c.expect(
          k.run("scale", "deployment", "web", "--replicas=6", "-n", "default"),
          1,
          // kubectl prints a 422's details (the Status' message is kube's "deployments.apps
          // \"web\" is forbidden: ...", ScaleAdmissionTest).
          "The deployments \"web\" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with"
              + " binding 'max-replicas-binding' denied request: failed expression:"
              + " object.spec.replicas <= 5");
      c.expect(
          k.run("get", "deployment", "web", "-n", "default", "-o", "jsonpath={.spec.replicas}"),
          0,
          "3");
      c.expect(
          k.run("scale", "deployment", "web", "--replicas=5", "-n", "default"),
          0,
          "deployment.apps/web scaled",
          "replicas=5<-3");
      assertEquals(List.of(), c.failures);
    }
    server.close();
  }
}
