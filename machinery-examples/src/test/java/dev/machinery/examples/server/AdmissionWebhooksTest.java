package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Admission webhooks on the sample server (with Kubernetes' built-in kinds), called over HTTPS by
 * the server as kube-apiserver calls them, driven by fabric8's client: a plain JDK HTTPS server
 * with a generated certificate plays the webhooks (one adds a label by JSON patch, one denies
 * ConfigMaps holding a key, others hang, answer garbage or are not there).
 */
class AdmissionWebhooksTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
  private final List<AuditEvent> audit = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> calls = new java.util.concurrent.ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpsServer webhook;
  private String caBundle;
  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate(
            "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setExecutor(Executors.newCachedThreadPool());
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    for (String path : List.of("/label", "/label-a", "/label-b", "/deny", "/hang", "/garbage")) {
      webhook.createContext(
          path,
          exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            reviews.add(review);
            calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            byte[] answer = answer(path, review);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          });
    }
    webhook.start();
    int port = webhook.getAddress().getPort();
    server =
        SampleServer.builder(
                Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100)
            // No cluster network here: the service "hooks" in "webhooks" is this test's server.
            .webhookServiceResolver(
                (namespace, name, servicePort, path) ->
                    URI.create(
                        "https://localhost:"
                            + (name.equals("hooks") && namespace.equals("webhooks") ? port : 1)
                            + path))
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"),
                audit::add)
            .build();
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "jdk");
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .withRequestTimeout(60_000)
            // fabric8 retries a 500; each refusal here is to be seen once.
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    release.countDown();
    client.close();
    binding.close();
    server.close();
    webhook.stop(0);
  }

  /** The webhooks' answers. */
  private byte[] answer(String path, JsonNode review) throws IOException {
    JsonNode request = review.get("request");
    if (path.equals("/garbage")) {
      return "<html>not a review</html>".getBytes(StandardCharsets.UTF_8);
    }
    if (path.equals("/hang")) {
      try {
        release.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", review.path("apiVersion").asText());
    out.put("kind", "AdmissionReview");
    ObjectNode response = out.putObject("response");
    response.put("uid", request.path("uid").asText());
    if (path.equals("/deny") && request.path("object").path("data").has("forbidden")) {
      response.put("allowed", false);
      response.putObject("status").put("code", 403).put("message", "data.forbidden is not allowed");
      return JSON.writeValueAsBytes(out);
    }
    response.put("allowed", true);
    if (path.startsWith("/label")) {
      String label = path.equals("/label") ? "webhook-added" : path.substring(1);
      JsonNode labels = request.path("object").path("metadata").path("labels");
      String patch =
          labels.isObject()
              ? "[{\"op\":\"add\",\"path\":\"/metadata/labels/" + label + "\",\"value\":\"yes\"}]"
              : "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\""
                  + label
                  + "\":\"yes\"}}]";
      if (!labels.path(label).isMissingNode()) {
        return JSON.writeValueAsBytes(out);
      }
      response.put(
          "patch", Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
      response.put("patchType", "JSONPatch");
      response.putArray("warnings").add("labelled by " + path);
    }
    return JSON.writeValueAsBytes(out);
  }

  private String url(String path) {
    return "https://127.0.0.1:" + webhook.getAddress().getPort() + path;
  }

  private String webhookYaml(String name, String clientConfig, String rules, String extra) {
    return "- name: "
        + name
        + "\n  clientConfig:\n"
        + clientConfig
        + "  rules:\n"
        + rules
        + "  admissionReviewVersions: [v1]\n"
        + extra;
  }

  private String urlConfig(String path) {
    return "    url: " + url(path) + "\n    caBundle: " + caBundle + "\n";
  }

  private static String rule(String group, String version, String resource) {
    return "  - operations: [\"*\"]\n    apiGroups: [\""
        + group
        + "\"]\n    apiVersions: [\""
        + version
        + "\"]\n    resources: [\""
        + resource
        + "\"]\n";
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

  private static ConfigMap configMap(String name, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(data)
        .build();
  }

  @Test
  void mutatingAddsLabelAndValidatingDeniesInKubesWords() {
    configure(
        "MutatingWebhookConfiguration",
        "labels",
        webhookYaml(
            "label.example.com",
            urlConfig("/label"),
            rule("", "v1", "configmaps") + rule("", "v1", "pods"),
            "  sideEffects: None\n"));
    configure(
        "ValidatingWebhookConfiguration",
        "deny",
        webhookYaml(
            "deny.example.com",
            urlConfig("/deny"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n"));

    ConfigMap created =
        client
            .configMaps()
            .inNamespace("default")
            .resource(configMap("plain", Map.of("k", "v")))
            .create();
    assertEquals("yes", created.getMetadata().getLabels().get("webhook-added"));
    assertEquals(
        "yes",
        client
            .configMaps()
            .inNamespace("default")
            .withName("plain")
            .get()
            .getMetadata()
            .getLabels()
            .get("webhook-added"));

    JsonNode mutation = reviews.get(0);
    assertEquals("admission.k8s.io/v1", mutation.path("apiVersion").asText());
    JsonNode request = mutation.get("request");
    assertFalse(request.path("uid").asText().isEmpty());
    assertEquals(
        "{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"}",
        request.get("kind").toString());
    assertEquals(
        "{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"}",
        request.get("resource").toString());
    assertEquals(request.get("kind"), request.get("requestKind"));
    assertEquals(request.get("resource"), request.get("requestResource"));
    assertEquals("plain", request.path("name").asText());
    assertEquals("default", request.path("namespace").asText());
    assertEquals("CREATE", request.path("operation").asText());
    assertEquals("system:anonymous", request.path("userInfo").path("username").asText());
    assertEquals("v", request.path("object").path("data").path("k").asText());
    assertTrue(request.path("oldObject").isMissingNode());
    assertFalse(request.path("dryRun").asBoolean(true));
    assertEquals("CreateOptions", request.path("options").path("kind").asText());
    assertEquals("meta.k8s.io/v1", request.path("options").path("apiVersion").asText());
    // The validating webhook sees the object as the mutating one left it.
    JsonNode validation = reviews.get(1).get("request");
    assertEquals(
        "yes",
        validation.path("object").path("metadata").path("labels").path("webhook-added").asText());

    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace("default")
                    .resource(configMap("bad", Map.of("forbidden", "x")))
                    .create());
    assertEquals(403, refused.getCode());
    assertEquals(
        "admission webhook \"deny.example.com\" denied the request: data.forbidden is not allowed",
        refused.getStatus().getMessage());
    assertNull(client.configMaps().inNamespace("default").withName("bad").get());

    // An update: the old object is sent, with UpdateOptions.
    reviews.clear();
    client
        .configMaps()
        .inNamespace("default")
        .withName("plain")
        .edit(
            c -> {
              c.getData().put("k2", "v2");
              return c;
            });
    JsonNode update = reviews.get(0).get("request");
    assertEquals("UPDATE", update.path("operation").asText());
    assertEquals("v", update.path("oldObject").path("data").path("k").asText());
    assertEquals("UpdateOptions", update.path("options").path("kind").asText());

    Pod pod =
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("web")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("web")
                    .withImage("nginx:1.27")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    assertEquals("yes", pod.getMetadata().getLabels().get("webhook-added"));
    // The webhook configurations themselves are never sent to webhooks.
    assertTrue(
        reviews.stream()
            .noneMatch(
                r ->
                    r.path("request")
                        .path("resource")
                        .path("group")
                        .asText()
                        .startsWith("admission")));
  }

  @Test
  void dryRunNeedsWebhooksWithoutSideEffects() throws Exception {
    // admissionregistration.k8s.io/v1 refuses sideEffects Unknown when written...
    KubernetesClientException invalid =
        assertThrows(
            KubernetesClientException.class,
            () ->
                configure(
                    "ValidatingWebhookConfiguration",
                    "unknown-effects",
                    webhookYaml(
                        "effects.example.com",
                        urlConfig("/deny"),
                        rule("", "v1", "configmaps"),
                        "  sideEffects: Unknown\n")));
    assertEquals(422, invalid.getCode());
    assertEquals(
        "ValidatingWebhookConfiguration.admissionregistration.k8s.io \"unknown-effects\" is"
            + " invalid: webhooks[0].sideEffects: Unsupported value: \"Unknown\": supported values:"
            + " \"None\", \"NoneOnDryRun\"",
        invalid.getStatus().getMessage());
    // ... but one stored before (through v1beta1, which allowed it) is still called.
    String legacy =
        "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingWebhookConfiguration\","
            + "\"metadata\":{\"name\":\"unknown-effects\",\"uid\":\"1\"},\"webhooks\":[{\"name\":"
            + "\"effects.example.com\",\"clientConfig\":{\"url\":\""
            + url("/deny")
            + "\",\"caBundle\":\""
            + caBundle
            + "\"},\"rules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
            + "\"resources\":[\"configmaps\"]}],\"sideEffects\":\"Unknown\","
            + "\"admissionReviewVersions\":[\"v1\"]}]}";
    server
        .storage()
        .create(
            StorageKeys.objectKey(
                StorageKeys.resourcePrefix(
                    GroupResource.of(
                        "admissionregistration.k8s.io", "validatingwebhookconfigurations")),
                null,
                "unknown-effects"),
            legacy.getBytes(StandardCharsets.UTF_8));
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace("default")
                    .resource(configMap("dry", Map.of("k", "v")))
                    .dryRun()
                    .create());
    assertEquals(400, refused.getCode());
    assertEquals(
        "admission webhook \"effects.example.com\" does not support dry run",
        refused.getStatus().getMessage());
    assertTrue(reviews.isEmpty());
    client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName("unknown-effects")
        .delete();
    configure(
        "ValidatingWebhookConfiguration",
        "no-effects",
        webhookYaml(
            "effects.example.com",
            urlConfig("/deny"),
            rule("", "v1", "configmaps"),
            "  sideEffects: NoneOnDryRun\n"));
    client
        .configMaps()
        .inNamespace("default")
        .resource(configMap("dry", Map.of("k", "v")))
        .dryRun()
        .create();
    assertTrue(reviews.get(0).path("request").path("dryRun").asBoolean());
    assertEquals(
        "All", reviews.get(0).path("request").path("options").path("dryRun").path(0).asText());
    assertNull(client.configMaps().inNamespace("default").withName("dry").get());
  }

  @Test
  void failurePolicyFailAndIgnore() {
    configure(
        "ValidatingWebhookConfiguration",
        "absent",
        webhookYaml(
            "absent.example.com",
            "    url: https://127.0.0.1:1/check\n    caBundle: " + caBundle + "\n",
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  failurePolicy: Fail\n"));
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace("default")
                    .resource(configMap("a", Map.of()))
                    .create());
    assertEquals(500, refused.getCode());
    assertEquals(
        "Internal error occurred: failed calling webhook \"absent.example.com\": failed to call"
            + " webhook: Post \"https://127.0.0.1:1/check?timeout=10s\": dial tcp 127.0.0.1:1:"
            + " connect: connection refused",
        refused.getStatus().getMessage());
    client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName("absent")
        .delete();

    configure(
        "ValidatingWebhookConfiguration",
        "garbage",
        webhookYaml(
            "garbage.example.com",
            urlConfig("/garbage"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n"));
    refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace("default")
                    .resource(configMap("b", Map.of()))
                    .create());
    assertEquals(500, refused.getCode());
    assertTrue(
        refused
            .getStatus()
            .getMessage()
            .startsWith(
                "Internal error occurred: failed calling webhook \"garbage.example.com\": received"
                    + " invalid webhook response: "),
        refused.getStatus().getMessage());
    client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName("garbage")
        .delete();

    configure(
        "ValidatingWebhookConfiguration",
        "ignored",
        webhookYaml(
                "absent.example.com",
                "    url: https://127.0.0.1:1/check\n",
                rule("", "v1", "configmaps"),
                "  sideEffects: None\n  failurePolicy: Ignore\n")
            + webhookYaml(
                "garbage.example.com",
                urlConfig("/garbage"),
                rule("", "v1", "configmaps"),
                "  sideEffects: None\n  failurePolicy: Ignore\n"));
    calls.clear();
    client.configMaps().inNamespace("default").resource(configMap("c", Map.of())).create();
    assertEquals(1, calls.get("/garbage").get());
  }

  @Test
  void aHangingWebhookTimesOutAndHoldsUpOnlyItsRequest() throws Exception {
    configure(
        "ValidatingWebhookConfiguration",
        "hang",
        webhookYaml(
            "hang.example.com",
            urlConfig("/hang"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  timeoutSeconds: 2\n  namespaceSelector:\n    matchLabels:\n      slow: \"yes\"\n"));
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName("slow")
                .addToLabels("slow", "yes")
                .endMetadata()
                .build())
        .create();
    CompletableFuture<KubernetesClientException> hanging =
        CompletableFuture.supplyAsync(
            () ->
                assertThrows(
                    KubernetesClientException.class,
                    () ->
                        client
                            .configMaps()
                            .inNamespace("slow")
                            .resource(configMap("h", Map.of()))
                            .create()));
    while (calls.get("/hang") == null) {
      Thread.sleep(10);
    }
    // Meanwhile a write the webhook does not match is served (the namespace selector skips it).
    client.configMaps().inNamespace("default").resource(configMap("quick", Map.of())).create();
    assertFalse(hanging.isDone());
    KubernetesClientException refused = hanging.get(30, TimeUnit.SECONDS);
    assertEquals(500, refused.getCode());
    assertEquals(
        "Internal error occurred: failed calling webhook \"hang.example.com\": failed to call"
            + " webhook: Post \""
            + url("/hang")
            + "?timeout=2s\": context deadline exceeded",
        refused.getStatus().getMessage());
  }

  @Test
  void selectorsServiceReferencesAndReinvocation() {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName("prod")
                .addToLabels("env", "prod")
                .endMetadata()
                .build())
        .create();
    configure(
        "MutatingWebhookConfiguration",
        "a-first",
        webhookYaml(
            "a.example.com",
            "    service:\n      namespace: webhooks\n      name: hooks\n      path: /label-a\n      port: 8443\n    caBundle: "
                + caBundle
                + "\n",
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  reinvocationPolicy: IfNeeded\n  namespaceSelector:\n    matchLabels:\n      env: prod\n"));
    configure(
        "MutatingWebhookConfiguration",
        "b-second",
        webhookYaml(
            "b.example.com",
            urlConfig("/label-b"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  objectSelector:\n    matchExpressions:\n    - key: skip\n      operator: DoesNotExist\n"));
    ConfigMap prod =
        client.configMaps().inNamespace("prod").resource(configMap("p", Map.of())).create();
    assertEquals(Map.of("label-a", "yes", "label-b", "yes"), prod.getMetadata().getLabels());
    // b changed the object after a had run: a, IfNeeded, was called once more.
    assertEquals(2, calls.get("/label-a").get());
    assertEquals(1, calls.get("/label-b").get());

    ConfigMap other =
        client.configMaps().inNamespace("default").resource(configMap("d", Map.of())).create();
    assertEquals(Map.of("label-b", "yes"), other.getMetadata().getLabels());
    ConfigMap skipped =
        client
            .configMaps()
            .inNamespace("default")
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("s")
                    .addToLabels("skip", "1")
                    .endMetadata()
                    .build())
            .create();
    assertEquals(Map.of("skip", "1"), skipped.getMetadata().getLabels());
    assertEquals(2, calls.get("/label-a").get());
    assertEquals(2, calls.get("/label-b").get());
  }

  @Test
  void matchConditionsInCel() {
    configure(
        "MutatingWebhookConfiguration",
        "conditional",
        webhookYaml(
            "label.example.com",
            urlConfig("/label"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  matchConditions:\n  - name: not-skipped\n    expression:"
                + " \"object.metadata.name != 'skip-me'\"\n  - name: by-anonymous\n"
                + "    expression: \"request.userInfo.username == 'system:anonymous'\"\n"
                // kube's authorizer library, checks made as the requesting user (1.28 on).
                + "  - name: may-create\n"
                + "    expression: \"authorizer.requestResource.check('create').allowed()\"\n"));
    ConfigMap called =
        client
            .configMaps()
            .inNamespace("default")
            .resource(configMap("call-me", Map.of()))
            .create();
    assertEquals("yes", called.getMetadata().getLabels().get("webhook-added"));
    ConfigMap skipped =
        client
            .configMaps()
            .inNamespace("default")
            .resource(configMap("skip-me", Map.of()))
            .create();
    assertEquals(Map.of(), Objects.requireNonNullElse(skipped.getMetadata().getLabels(), Map.of()));
    assertEquals(1, calls.get("/label").get());

    // A condition that cannot be evaluated (and none false) refuses under failurePolicy Fail.
    configure(
        "ValidatingWebhookConfiguration",
        "erring",
        webhookYaml(
            "erring.example.com",
            urlConfig("/deny"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  matchConditions:\n  - name: spec\n"
                + "    expression: \"object.spec.x == 1\"\n"));
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .inNamespace("default")
                    .resource(configMap("erring", Map.of()))
                    .create());
    assertEquals(403, refused.getCode());
    assertTrue(
        refused
            .getStatus()
            .getMessage()
            .startsWith(
                "configmaps \"erring\" is forbidden: expression 'object.spec.x == 1' resulted in"
                    + " error: "),
        refused.getStatus().getMessage());
  }

  @Test
  void equivalentMatchPolicyConvertsToTheWebhooksVersion() throws Exception {
    client
        .resource(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
                + "  name: gadgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n"
                + "  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}\n"
                + "  versions:\n"
                + "  - name: v1\n    served: true\n    storage: true\n"
                + "    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
                + "  - name: v2\n    served: true\n    storage: false\n"
                + "    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n")
        .create();
    String gadget =
        "apiVersion: example.com/v2\nkind: Gadget\nmetadata:\n  name: %s\n  namespace: default\n";
    for (int i = 0; ; i++) {
      try {
        client.resource(String.format(gadget, "probe")).dryRun().create();
        break;
      } catch (KubernetesClientException e) {
        if (i > 100) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
    configure(
        "MutatingWebhookConfiguration",
        "equivalent",
        webhookYaml(
            "label.example.com",
            urlConfig("/label"),
            rule("example.com", "v1", "gadgets"),
            "  sideEffects: None\n  matchPolicy: Equivalent\n"));
    configure(
        "MutatingWebhookConfiguration",
        "exact",
        webhookYaml(
            "exact.example.com",
            urlConfig("/label-a"),
            rule("example.com", "v1", "gadgets"),
            "  sideEffects: None\n  matchPolicy: Exact\n"));
    var created = client.resource(String.format(gadget, "g")).create();
    assertEquals(
        "yes", created.getMetadata().getLabels().get("webhook-added"), reviews + " " + calls);
    assertEquals("example.com/v2", created.getApiVersion());
    assertNull(calls.get("/label-a"));
    JsonNode request = reviews.get(0).get("request");
    assertEquals(
        "{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Gadget\"}",
        request.get("kind").toString());
    assertEquals(
        "{\"group\":\"example.com\",\"version\":\"v2\",\"kind\":\"Gadget\"}",
        request.get("requestKind").toString());
    assertEquals("v2", request.path("requestResource").path("version").asText());
    assertEquals("v1", request.path("resource").path("version").asText());
    assertEquals("example.com/v1", request.path("object").path("apiVersion").asText());
  }

  @Test
  void warningsReachTheClientAndAnnotationsTheAuditEvent() throws Exception {
    configure(
        "MutatingWebhookConfiguration",
        "labels",
        webhookYaml(
            "label.example.com",
            urlConfig("/label"),
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n"));
    configure(
        "ValidatingWebhookConfiguration",
        "ignored",
        webhookYaml(
            "absent.example.com",
            "    url: https://127.0.0.1:1/check\n",
            rule("", "v1", "configmaps"),
            "  sideEffects: None\n  failurePolicy: Ignore\n"));
    audit.clear();
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + binding.port()
                                + "/api/v1/namespaces/default/configmaps"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"warned\"}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(201, response.statusCode(), response.body());
    assertEquals(List.of("299 - \"labelled by /label\""), response.headers().allValues("Warning"));
    AuditEvent done =
        audit.stream()
            .filter(e -> e.stage() == Stage.RESPONSE_COMPLETE && e.verb().equals("create"))
            .filter(e -> e.requestUri().endsWith("/configmaps"))
            .findFirst()
            .orElseThrow();
    Map<String, String> annotations = done.annotations();
    assertEquals(
        "{\"configuration\":\"labels\",\"webhook\":\"label.example.com\",\"mutated\":true}",
        annotations.get("mutation.webhook.admission.k8s.io/round_0_index_0"));
    assertEquals(
        "absent.example.com",
        annotations.get("failed-open.validating.webhook.admission.k8s.io/round_0_index_0"));
    assertTrue(
        annotations
            .get("patch.webhook.admission.k8s.io/round_0_index_0")
            .contains("\"op\":\"add\""),
        annotations.toString());
  }

  @Test
  void statusSubresourceDeletesAndV1beta1Reviews() {
    configure(
        "ValidatingWebhookConfiguration",
        "status",
        "- name: status.example.com\n  clientConfig:\n"
            + urlConfig("/deny")
            + "  rules:\n"
            + rule("", "v1", "pods/status")
            + "  - operations: [DELETE]\n    apiGroups: [\"\"]\n    apiVersions: [v1]\n"
            + "    resources: [configmaps]\n"
            + "  sideEffects: None\n  admissionReviewVersions: [v1beta1]\n");
    Pod pod =
        client
            .pods()
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("web")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("web")
                    .withImage("nginx:1.27")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    assertTrue(reviews.isEmpty(), "pods/status matches no create of a pod");
    pod.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
    client.pods().resource(pod).updateStatus();
    JsonNode status = reviews.get(0);
    assertEquals("admission.k8s.io/v1beta1", status.path("apiVersion").asText());
    assertEquals("status", status.path("request").path("subResource").asText());
    assertEquals("status", status.path("request").path("requestSubResource").asText());
    assertEquals("UPDATE", status.path("request").path("operation").asText());
    assertEquals(
        "Running", status.path("request").path("object").path("status").path("phase").asText());

    client.configMaps().resource(configMap("gone", Map.of("k", "v"))).create();
    assertEquals(1, reviews.size(), "only deletes of config maps match");
    client.configMaps().withName("gone").delete();
    JsonNode delete = reviews.get(1).get("request");
    assertEquals("DELETE", delete.path("operation").asText());
    assertEquals("gone", delete.path("name").asText());
    assertTrue(delete.path("object").isMissingNode());
    assertEquals("v", delete.path("oldObject").path("data").path("k").asText());
    assertEquals("DeleteOptions", delete.path("options").path("kind").asText());
  }
}
