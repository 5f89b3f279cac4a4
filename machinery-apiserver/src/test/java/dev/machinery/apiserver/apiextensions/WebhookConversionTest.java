package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.TlsConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CustomResourceDefinition with the {@code Webhook} conversion strategy, its webhook an HTTPS
 * server in the test trusted through the definition's {@code caBundle}: objects are converted by
 * the webhook both ways, only labels and annotations are taken from its metadata, and its failures
 * and malformed answers are refused with kube-apiserver's words. The definition's webhook settings
 * are checked as kube-apiserver checks them.
 */
class WebhookConversionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiServer server;
  private HttpsServer webhook;
  private String caBundle;
  private final AtomicReference<String> mode = new AtomicReference<>("convert");
  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> reviewVersions = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME).customResourceDefinitions().build();
    SelfSignedCertificates.CertKey certs =
        SelfSignedCertificates.generate("127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    caBundle =
        Base64.getEncoder().encodeToString(certs.caPem().getBytes(StandardCharsets.US_ASCII));
    webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    webhook.setHttpsConfigurator(
        new HttpsConfigurator(
            new TlsConfig(certs.chain(), certs.privateKey(), List.of()).sslContext()));
    webhook.createContext(
        "/convert",
        exchange -> {
          calls.incrementAndGet();
          byte[] answer = answer(JSON.readTree(exchange.getRequestBody()));
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    webhook.start();
  }

  @AfterEach
  void stop() {
    webhook.stop(0);
  }

  /** The webhook: renames spec.cronSpec (v1) and spec.schedule (v2), or misbehaves as told. */
  private byte[] answer(JsonNode review) throws IOException {
    reviewVersions.add(review.path("apiVersion").asText());
    JsonNode request = review.get("request");
    String desired = request.get("desiredAPIVersion").asText();
    ObjectNode out = JSON.createObjectNode();
    out.put("apiVersion", review.path("apiVersion").asText());
    out.put("kind", "ConversionReview");
    ObjectNode response = out.putObject("response");
    response.put("uid", mode.get().equals("wrong-uid") ? "other" : request.get("uid").asText());
    if (mode.get().equals("fail")) {
      response.putObject("result").put("status", "Failure").put("message", "no way from here");
      return JSON.writeValueAsBytes(out);
    }
    response.putObject("result").put("status", "Success");
    ArrayNode converted = response.putArray("convertedObjects");
    for (JsonNode object : request.get("objects")) {
      ObjectNode copy = object.deepCopy();
      ObjectNode spec = (ObjectNode) copy.get("spec");
      if (desired.endsWith("/v2") && spec.has("cronSpec")) {
        spec.set("schedule", spec.remove("cronSpec"));
      } else if (desired.endsWith("/v1") && spec.has("schedule")) {
        spec.set("cronSpec", spec.remove("schedule"));
      }
      copy.put(
          "apiVersion", mode.get().equals("wrong-version") ? "stable.example.com/v9" : desired);
      ObjectNode metadata = (ObjectNode) copy.get("metadata");
      metadata.withObject("labels").put("converted-by", "webhook");
      metadata.put("generation", 99);
      if (mode.get().equals("rename")) {
        metadata.put("name", "someone-else");
      }
      if (mode.get().equals("bad-label")) {
        metadata.withObject("labels").put("bad label", "x");
      }
      converted.add(copy);
      if (mode.get().equals("two")) {
        converted.add(copy);
      }
    }
    return JSON.writeValueAsBytes(out);
  }

  private String crd(String conversion) {
    return """
        {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
         "metadata": {"name": "crontabs.stable.example.com"},
         "spec": {"group": "stable.example.com", "scope": "Namespaced",
          "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
          "conversion": %s,
          "versions": [
           {"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
              "spec": {"type": "object", "properties": {"cronSpec": {"type": "string"}}}}}}},
           {"name": "v2", "served": true, "storage": false,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {
              "spec": {"type": "object", "properties": {"schedule": {"type": "string"}}}}}}}]}}
        """
        .formatted(conversion);
  }

  private String webhookConversion(String reviewVersions) {
    return """
        {"strategy": "Webhook", "webhook": {"conversionReviewVersions": %s,
         "clientConfig": {"url": "https://127.0.0.1:%d/convert", "caBundle": "%s"}}}
        """
        .formatted(reviewVersions, webhook.getAddress().getPort(), caBundle);
  }

  private void install(String reviewVersions) throws Exception {
    ApiResponse created =
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            crd(webhookConversion(reviewVersions)));
    assertEquals(201, created.status(), text(created));
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (request("GET", "/apis/stable.example.com/v2", null).status() != 200) {
      assertTrue(System.nanoTime() < deadline, "the definition was not served within 60 s");
      Thread.sleep(5);
    }
  }

  private static final String V1_PATH = "/apis/stable.example.com/v1/namespaces/default/crontabs";
  private static final String V2_PATH = "/apis/stable.example.com/v2/namespaces/default/crontabs";

  @Test
  void theWebhookConvertsBothWaysAndOnlyItsLabelsAndAnnotationsAreTaken() throws Exception {
    install("[\"v1\", \"v1beta1\"]");
    ApiResponse a =
        request(
            "POST",
            V1_PATH,
            """
            {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
             "metadata": {"name": "a"}, "spec": {"cronSpec": "* * * * */5"}}
            """);
    assertEquals(201, a.status(), text(a));
    assertEquals(0, calls.get(), "an object in the storage version is not sent to the webhook");

    JsonNode read = json(request("GET", V2_PATH + "/a", null));
    assertEquals("stable.example.com/v2", read.get("apiVersion").asText(), read.toString());
    assertEquals("* * * * */5", read.at("/spec/schedule").asText(), read.toString());
    assertTrue(read.at("/spec/cronSpec").isMissingNode(), read.toString());
    assertEquals("webhook", read.at("/metadata/labels/converted-by").asText(), read.toString());
    assertEquals(1, read.at("/metadata/generation").asInt(), "metadata other than labels kept");
    assertEquals("apiextensions.k8s.io/v1", reviewVersions.get(0), "the first version listed");

    ApiResponse b =
        request(
            "POST",
            V2_PATH,
            """
            {"apiVersion": "stable.example.com/v2", "kind": "CronTab",
             "metadata": {"name": "b"}, "spec": {"schedule": "0 * * * *"}}
            """);
    assertEquals(201, b.status(), text(b));
    JsonNode stored = json(request("GET", V1_PATH + "/b", null));
    assertEquals("0 * * * *", stored.at("/spec/cronSpec").asText(), stored.toString());

    JsonNode list = json(request("GET", V2_PATH, null));
    List<String> schedules = new java.util.ArrayList<>();
    list.get("items").forEach(item -> schedules.add(item.at("/spec/schedule").asText()));
    assertEquals(List.of("* * * * */5", "0 * * * *"), schedules, list.toString());
  }

  @Test
  void aWebhookThatAsksForV1beta1ReviewsGetsThem() throws Exception {
    install("[\"v1beta1\"]");
    assertEquals(
        201,
        request(
                "POST",
                V1_PATH,
                "{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\","
                    + "\"metadata\":{\"name\":\"a\"},\"spec\":{\"cronSpec\":\"x\"}}")
            .status());
    JsonNode read = json(request("GET", V2_PATH + "/a", null));
    assertEquals("x", read.at("/spec/schedule").asText(), read.toString());
    assertEquals(List.of("apiextensions.k8s.io/v1beta1"), reviewVersions);
  }

  @Test
  void failuresAndMalformedAnswersAreInternalErrorsInKubeApiserversWords() throws Exception {
    install("[\"v1\"]");
    assertEquals(
        201,
        request(
                "POST",
                V1_PATH,
                "{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\","
                    + "\"metadata\":{\"name\":\"a\"},\"spec\":{\"cronSpec\":\"x\"}}")
            .status());
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put(
        "fail",
        "conversion webhook for stable.example.com/v1, Kind=CronTab failed: no way from here");
    expected.put(
        "wrong-uid",
        "conversion webhook for stable.example.com/v1, Kind=CronTab failed: expected"
            + " response.uid=");
    expected.put(
        "two",
        "conversion webhook for stable.example.com/v1, Kind=CronTab returned 2 objects, expected 1");
    expected.put(
        "wrong-version",
        "conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object at"
            + " index 0: invalid groupVersion (expected stable.example.com/v2, received"
            + " stable.example.com/v9)");
    expected.put(
        "rename",
        "conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must"
            + " have the same name: a != someone-else");
    expected.put(
        "bad-label",
        "conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid metadata:"
            + " metadata.labels: Invalid value: \"bad label\"");
    for (Map.Entry<String, String> failure : expected.entrySet()) {
      mode.set(failure.getKey());
      ApiResponse answer = request("GET", V2_PATH + "/a", null);
      assertEquals(500, answer.status(), failure.getKey() + ": " + text(answer));
      JsonNode status = json(answer);
      assertEquals("InternalError", status.get("reason").asText(), status.toString());
      assertTrue(
          status.get("message").asText().contains(failure.getValue()),
          failure.getKey() + ": " + status.get("message").asText());
    }
    mode.set("convert");
    assertEquals(200, request("GET", V2_PATH + "/a", null).status());
    webhook.stop(0);
    ApiResponse unreachable = request("GET", V2_PATH + "/a", null);
    assertEquals(500, unreachable.status());
    assertTrue(
        text(unreachable)
            .contains(
                "conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post"
                    + " \\\"https://127.0.0.1:"),
        text(unreachable));
    assertEquals(200, request("GET", V1_PATH + "/a", null).status(), "v1 needs no webhook");
  }

  @Test
  void theDefinitionsWebhookSettingsAreCheckedAsKubeApiserverChecksThem() throws Exception {
    Map<String, List<String>> cases = new LinkedHashMap<>();
    cases.put(
        "{\"strategy\": \"Webhook\"}",
        List.of(
            "spec.conversion.webhookClientConfig: Required value: required when strategy is set"
                + " to Webhook",
            "spec.conversion.conversionReviewVersions: Required value"));
    cases.put(
        "{\"strategy\": \"Webhook\", \"webhook\": {\"conversionReviewVersions\": [\"v3\", \"v3\"],"
            + " \"clientConfig\": {\"url\": \"http://user@example.com/x?a=b#c\"}}}",
        List.of(
            "spec.conversion.webhookClientConfig.url: Invalid value: \\\"http\\\": 'https' is the"
                + " only allowed URL scheme; desired format: https://host[/path]",
            "spec.conversion.webhookClientConfig.url: Invalid value: \\\"user\\\": user"
                + " information is not permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \\\"c\\\": fragments are not"
                + " permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \\\"a=b\\\": query parameters"
                + " are not permitted in the URL",
            "spec.conversion.conversionReviewVersions[1]: Invalid value: \\\"v3\\\": duplicate"
                + " version",
            "spec.conversion.conversionReviewVersions: Invalid value: [\\\"v3\\\",\\\"v3\\\"]:"
                + " must include at least one of v1, v1beta1"));
    cases.put(
        "{\"strategy\": \"Webhook\", \"webhook\": {\"conversionReviewVersions\": [\"v1\"],"
            + " \"clientConfig\": {\"service\": {\"name\": \"conv\", \"port\": 0, \"path\":"
            + " \"x//\"}, \"caBundle\": \"bm90IGEgY2VydA==\"}}}",
        List.of(
            "spec.conversion.webhookClientConfig.service.namespace: Required value",
            "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not"
                + " valid: must be between 1 and 65535, inclusive",
            "spec.conversion.webhookClientConfig.service.path: Invalid value: \\\"x//\\\": must"
                + " start with a '/'",
            "spec.conversion.webhookClientConfig.caBundle: Invalid value:"));
    cases.put(
        "{\"strategy\": \"None\", \"webhook\": {\"conversionReviewVersions\": [\"v1\"],"
            + " \"clientConfig\": {\"url\": \"https://example.com\"}}}",
        List.of(
            "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is"
                + " not set to Webhook",
            "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy"
                + " is not set to Webhook"));
    for (Map.Entry<String, List<String>> c : cases.entrySet()) {
      ApiResponse refused =
          request(
              "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd(c.getKey()));
      assertEquals(422, refused.status(), c.getKey() + ": " + text(refused));
      for (String message : c.getValue()) {
        assertTrue(text(refused).contains(message), message + "\nin " + text(refused));
      }
    }
  }

  private ApiResponse request(String method, String path, String body) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of("application/json"));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) throws IOException {
    return JSON.readTree(response.body());
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
