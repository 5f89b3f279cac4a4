package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.webhook.admission.AdmissionController;
import io.javaoperatorsdk.webhook.admission.NotAllowedException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhooks written with the Java Operator SDK's admission webhook framework ({@code
 * kubernetes-webhooks-framework-core}): its {@code AdmissionController}s answer, behind a JDK HTTPS
 * server, the reviews the sample server sends; a mutator's change comes back as the JSON patch the
 * framework computes, a validator's {@code NotAllowedException} as the refusal kubectl and fabric8
 * print.
 */
class AdmissionWebhooksJosdkTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private HttpsServer webhook;
  private String caBundle;
  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    AdmissionController<ConfigMap> mutator =
        new AdmissionController<>(
            (ConfigMap configMap, io.javaoperatorsdk.webhook.admission.Operation operation) -> {
              Map<String, String> labels =
                  configMap.getMetadata().getLabels() == null
                      ? new HashMap<>()
                      : new HashMap<>(configMap.getMetadata().getLabels());
              labels.put("mutated-by", "josdk");
              configMap.getMetadata().setLabels(labels);
              return configMap;
            });
    AdmissionController<ConfigMap> validator =
        new AdmissionController<>(
            (ConfigMap configMap,
                ConfigMap old,
                io.javaoperatorsdk.webhook.admission.Operation operation) -> {
              if (configMap.getData() != null && configMap.getData().containsKey("forbidden")) {
                throw new NotAllowedException("data.forbidden is not allowed");
              }
            });
    serve("/mutate", mutator);
    serve("/validate", validator);
    webhook.start();
    server = SampleServer.build(Enablement.all());
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

  private void serve(String path, AdmissionController<ConfigMap> controller) {
    webhook.createContext(
        path,
        exchange -> {
          AdmissionReview review =
              SERIALIZATION.unmarshal(exchange.getRequestBody(), AdmissionReview.class);
          byte[] answer =
              SERIALIZATION.asJson(controller.handle(review)).getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.close();
    webhook.stop(0);
  }

  private String configuration(String kind, String name, String path) {
    return "apiVersion: admissionregistration.k8s.io/v1\nkind: "
        + kind
        + "\nmetadata:\n  name: "
        + name
        + "\nwebhooks:\n- name: "
        + name
        + ".example.com\n  clientConfig:\n    url: https://127.0.0.1:"
        + webhook.getAddress().getPort()
        + path
        + "\n    caBundle: "
        + caBundle
        + "\n  rules:\n  - operations: [\"*\"]\n    apiGroups: [\"\"]\n"
        + "    apiVersions: [v1]\n    resources: [configmaps]\n  sideEffects: None\n"
        + "  admissionReviewVersions: [v1]\n";
  }

  @Test
  void josdkMutatorAndValidator() {
    client
        .resource(configuration("MutatingWebhookConfiguration", "josdk-mutate", "/mutate"))
        .create();
    client
        .resource(configuration("ValidatingWebhookConfiguration", "josdk-validate", "/validate"))
        .create();
    ConfigMap created =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("plain")
                    .addToLabels("app", "demo")
                    .endMetadata()
                    .addToData("k", "v")
                    .build())
            .create();
    assertEquals(Map.of("app", "demo", "mutated-by", "josdk"), created.getMetadata().getLabels());
    ConfigMap updated =
        client
            .configMaps()
            .withName("plain")
            .edit(
                c -> {
                  c.getMetadata().getLabels().remove("mutated-by");
                  return c;
                });
    // The mutator runs on the update too.
    assertEquals(Map.of("app", "demo", "mutated-by", "josdk"), updated.getMetadata().getLabels());
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .resource(
                        new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("bad")
                            .endMetadata()
                            .addToData("forbidden", "x")
                            .build())
                    .create());
    assertEquals(
        "admission webhook \"josdk-validate.example.com\" denied the request: data.forbidden is"
            + " not allowed",
        refused.getStatus().getMessage());
  }
}
