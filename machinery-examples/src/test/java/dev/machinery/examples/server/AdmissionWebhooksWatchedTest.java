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
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On a storage that does not answer from memory (as etcd), the server learns of webhook
 * configurations through a watch: a configuration applies once its change has come through it, and
 * stops applying once its deletion has.
 */
class AdmissionWebhooksWatchedTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** A memory storage that says it does not answer from memory. */
  private static final class RemoteLike extends ForwardingStorage {
    final java.util.concurrent.atomic.AtomicInteger configurationReads =
        new java.util.concurrent.atomic.AtomicInteger();

    RemoteLike() {
      super(new MemoryStorage());
    }

    @Override
    public boolean answersFromMemory() {
      return false;
    }

    @Override
    public boolean unchangedSince(
        String prefix, long afterRevision, long atRevision, long keysAtAfter) {
      return false;
    }

    @Override
    public boolean tellsUnchanged() {
      return false;
    }

    @Override
    public ListResult list(String prefix, long revision, String startKey, int limit) {
      if (prefix.contains("webhookconfigurations")) {
        configurationReads.incrementAndGet();
      }
      return store.list(prefix, revision, startKey, limit);
    }

    @Override
    public ListResult list(
        String prefix, long revision, String startKey, int limit, boolean countRemaining) {
      if (prefix.contains("webhookconfigurations")) {
        configurationReads.incrementAndGet();
      }
      return store.list(prefix, revision, startKey, limit, countRemaining);
    }
  }

  private final RemoteLike storage = new RemoteLike();
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
    webhook.setExecutor(Executors.newCachedThreadPool());
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    webhook.createContext(
        "/label",
        exchange -> {
          JsonNode request = JSON.readTree(exchange.getRequestBody()).get("request");
          ObjectNode out = JSON.createObjectNode();
          out.put("apiVersion", "admission.k8s.io/v1");
          out.put("kind", "AdmissionReview");
          ObjectNode response = out.putObject("response");
          response.put("uid", request.path("uid").asText());
          response.put("allowed", true);
          String patch =
              "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"watched\":\"yes\"}}]";
          response.put(
              "patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
          response.put("patchType", "JSONPatch");
          byte[] answer = JSON.writeValueAsBytes(out);
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream body = exchange.getResponseBody()) {
            body.write(answer);
          }
        });
    webhook.start();
    server =
        SampleServer.builder(Enablement.all(), Duration.ofMinutes(1), null, storage, 100).build();
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "jdk");
    client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + binding.port())
                    .withNamespace("default")
                    .build())
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.close();
    webhook.stop(0);
  }

  /** Creates ConfigMaps (dry runs) until one comes back as wanted, for at most ten seconds. */
  private static void eventually(Supplier<Boolean> done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!done.get()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the change of the configuration did not come through in 10 s");
      }
      Thread.sleep(20);
    }
  }

  private Map<String, String> probeLabels() {
    ConfigMap probe =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("probe").endMetadata().build())
            .dryRun()
            .create();
    // fabric8 reads absent labels as an empty map.
    return probe.getMetadata().getLabels() == null ? Map.of() : probe.getMetadata().getLabels();
  }

  @Test
  void configurationsFollowedThroughAWatch() throws Exception {
    assertEquals(Map.of(), probeLabels());
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n"
                + "metadata:\n  name: watched\nwebhooks:\n- name: watched.example.com\n"
                + "  clientConfig:\n    url: https://127.0.0.1:"
                + webhook.getAddress().getPort()
                + "/label\n    caBundle: "
                + caBundle
                + "\n  rules:\n  - operations: [CREATE]\n    apiGroups: [\"\"]\n"
                + "    apiVersions: [v1]\n    resources: [configmaps]\n  sideEffects: None\n"
                + "  admissionReviewVersions: [v1]\n")
        .create();
    eventually(() -> !probeLabels().isEmpty());
    assertEquals(Map.of("watched", "yes"), probeLabels());
    client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .withName("watched")
        .delete();
    eventually(() -> probeLabels().isEmpty());
  }

  @Test
  void writesReadTheConfigurationsAgainOnlyWhenOneChanged() throws Exception {
    // Settled: the watch has opened and the configurations are read.
    eventually(
        () -> {
          int reads = storage.configurationReads.get();
          probeLabels();
          return storage.configurationReads.get() == reads;
        });
    int before = storage.configurationReads.get();
    for (int i = 0; i < 10; i++) {
      client
          .configMaps()
          .resource(
              new ConfigMapBuilder().withNewMetadata().withName("c-" + i).endMetadata().build())
          .create();
    }
    assertEquals(before, storage.configurationReads.get(), "no read of the configurations");
  }
}
