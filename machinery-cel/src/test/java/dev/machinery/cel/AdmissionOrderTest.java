package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.builtins.DefaultAdmission;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Admission runs in kube-apiserver's order (its plugin order: the mutating plugins, {@code
 * MutatingAdmissionWebhook}, then the validating plugins with {@code ValidatingAdmissionPolicy}
 * before {@code ValidatingAdmissionWebhook}): a mutating plugin, a mutating webhook that sees the
 * plugin's change, a validating plugin, a ValidatingAdmissionPolicy that sees the webhook's change
 * and whose refusal keeps the validating webhook from being called, then the validating webhook;
 * and warnings of each come back in that order.
 */
class AdmissionOrderTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> calls = new CopyOnWriteArrayList<>();
  private HttpsServer webhook;
  private ExecutorService threads;
  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate(
            "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256);
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    threads = Executors.newCachedThreadPool();
    webhook.setExecutor(threads);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    for (String path : List.of("/mutate", "/validate")) {
      webhook.createContext(
          path,
          exchange -> {
            JsonNode request = JSON.readTree(exchange.getRequestBody()).path("request");
            JsonNode labels = request.at("/object/metadata/labels");
            calls.add(path.substring(1) + "-webhook saw " + labels.path("order").asText());
            String patch =
                Base64.getEncoder()
                    .encodeToString(
                        "[{\"op\":\"add\",\"path\":\"/metadata/labels/order\",\"value\":\"plugin.webhook\"}]"
                            .getBytes(StandardCharsets.UTF_8));
            byte[] answer =
                ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                        + "\"response\":{\"uid\":\""
                        + request.path("uid").asText()
                        + "\",\"allowed\":true,\"warnings\":[\""
                        + path.substring(1)
                        + " webhook\"]"
                        + (path.equals("/mutate")
                            ? ",\"patchType\":\"JSONPatch\",\"patch\":\"" + patch + "\""
                            : "")
                        + "}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          });
    }
    webhook.start();
    MutatingAdmissionPlugin mutating =
        new MutatingAdmissionPlugin() {
          @Override
          public String name() {
            return "Labeller";
          }

          @Override
          public Object admit(AdmissionAttributes a) {
            if (a.resource().resource().equals("configmaps")) {
              calls.add("mutating-plugin");
              a.addWarning("mutating plugin");
              MetaObject meta = Accessor.of(a.object());
              Map<String, String> labels = new java.util.HashMap<>(meta.getLabels());
              labels.put("order", "plugin");
              meta.setLabels(labels);
            }
            return a.object();
          }
        };
    ValidatingAdmissionPlugin validating =
        new ValidatingAdmissionPlugin() {
          @Override
          public String name() {
            return "Checker";
          }

          @Override
          public void validate(AdmissionAttributes a) {
            if (a.resource().resource().equals("configmaps")) {
              calls.add("validating-plugin");
              a.addWarning("validating plugin");
            }
          }
        };
    server =
        BuiltinKinds.apiServer(DefaultAdmission.none())
            .admission(mutating)
            .admission(validating)
            .build();
    created(request("/api/v1/namespaces", "{\"metadata\":{\"name\":\"default\"}}"));
    String caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    String url = "https://localhost:" + webhook.getAddress().getPort();
    for (String kind : List.of("Mutating", "Validating")) {
      String path = kind.equals("Mutating") ? "/mutate" : "/validate";
      created(
          request(
              "/apis/admissionregistration.k8s.io/v1/"
                  + kind.toLowerCase()
                  + "webhookconfigurations",
              "{\"metadata\":{\"name\":\"order\"},\"webhooks\":[{\"name\":\"order.example.com\","
                  + "\"clientConfig\":{\"url\":\""
                  + url
                  + path
                  + "\",\"caBundle\":\""
                  + caBundle
                  + "\"},\"rules\":[{\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],"
                  + "\"apiVersions\":[\"v1\"],\"resources\":[\"configmaps\"]}],"
                  + "\"sideEffects\":\"None\",\"admissionReviewVersions\":[\"v1\"]}]}"));
    }
    created(
        request(
            "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
            "{\"metadata\":{\"name\":\"order\"},\"spec\":{\"matchConstraints\":{\"resourceRules\":"
                + "[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],"
                + "\"resources\":[\"configmaps\"]}]},\"validations\":["
                + "{\"expression\":\"object.metadata.labels['order'] == 'plugin.webhook'\","
                + "\"message\":\"the policy ran before the mutating webhook\"},"
                + "{\"expression\":\"!has(object.data) || !('deny' in object.data)\","
                + "\"message\":\"denied by the policy\"}]}}"));
    created(
        request(
            "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
            "{\"metadata\":{\"name\":\"order\"},\"spec\":{\"policyName\":\"order\","
                + "\"validationActions\":[\"Deny\"]}}"));
  }

  @AfterEach
  void stop() {
    server.close();
    webhook.stop(0);
    threads.shutdownNow();
  }

  @Test
  void pluginsAndWebhooksRunInKubesOrder() {
    ApiResponse response =
        request(
            "/api/v1/namespaces/default/configmaps",
            "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}},\"data\":{\"k\":\"v\"}}");
    created(response);
    assertEquals(
        List.of(
            "mutating-plugin",
            "mutate-webhook saw plugin",
            "validating-plugin",
            "validate-webhook saw plugin.webhook"),
        calls);
    assertEquals(
        List.of(
            "299 - \"mutating plugin\"",
            "299 - \"mutate webhook\"",
            "299 - \"validating plugin\"",
            "299 - \"validate webhook\""),
        response.headers().get("Warning"));
  }

  @Test
  void aPolicysRefusalComesBeforeTheValidatingWebhooks() {
    ApiResponse refused =
        request(
            "/api/v1/namespaces/default/configmaps",
            "{\"metadata\":{\"name\":\"b\",\"labels\":{\"x\":\"y\"}},\"data\":{\"deny\":\"v\"}}");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "configmaps \"b\" is forbidden: ValidatingAdmissionPolicy 'order' with binding 'order'"
            + " denied request: denied by the policy",
        json(refused).path("message").asText());
    assertEquals(
        List.of("mutating-plugin", "mutate-webhook saw plugin", "validating-plugin"), calls);
  }

  private ApiResponse request(String path, String body) {
    return server.handle(
        new ApiRequest(
            "POST",
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static void created(ApiResponse response) {
    assertEquals(201, response.status(), text(response));
  }

  private static JsonNode json(ApiResponse response) {
    try {
      return JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
