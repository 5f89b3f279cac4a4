package dev.machinery.builtins;

import static dev.machinery.builtins.Requests.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Values of built-in kinds are written as kube-apiserver writes them, Go decoding each into its own
 * type and encoding it again. Quantities in their canonical form, a JSON number read as a quantity
 * too ({@code cpu: 0.5} in a manifest), text that is not a quantity refused (the documentation of
 * Go's {@code Quantity}: "1.5 will be serialized as "1500m"", "1.5Gi will be serialized as
 * "1536Mi""; quantity.go's grammar in the error). Times ({@code metav1.Time}) read as Go's {@code
 * time.RFC3339} reads them and written in UTC to the second; micro times ({@code metav1.MicroTime})
 * read with exactly the six digits of fraction of Go's layout {@code
 * 2006-01-02T15:04:05.000000Z07:00} and written in UTC; Go's zero time written as no time.
 */
@Timeout(60)
class CanonicalValuesTest {
  private static final String PODS = "/api/v1/namespaces/quantities/pods";

  private static ApiServer server;

  @BeforeAll
  static void start() throws IOException {
    server = Requests.serverWithNamespace("quantities");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static ApiResponse call(String method, String path, String body) {
    return Requests.call(server, method, path, body);
  }

  private static String pod(String name, String requests, String limits) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":{"
        + "\"requests\":"
        + requests
        + ",\"limits\":"
        + limits
        + "}}]}}";
  }

  @Test
  void aPodsQuantitiesAreWrittenCanonicalAndNumbersRead() throws IOException {
    JsonNode created =
        ok(
            call(
                "POST",
                PODS,
                pod(
                    "canonical",
                    "{\"cpu\":\"0.5\",\"memory\":\"1024Mi\",\"ephemeral-storage\":2}",
                    "{\"cpu\":1.5,\"memory\":\"1.5Gi\",\"ephemeral-storage\":\"+2\"}")),
            201);
    Map<String, String> requests = Map.of("cpu", "500m", "memory", "1Gi", "ephemeral-storage", "2");
    Map<String, String> limits =
        Map.of("cpu", "1500m", "memory", "1536Mi", "ephemeral-storage", "2");
    for (JsonNode pod : new JsonNode[] {created, ok(call("GET", PODS + "/canonical", null), 200)}) {
      JsonNode resources = pod.at("/spec/containers/0/resources");
      requests.forEach((k, v) -> assertEquals(v, resources.at("/requests/" + k).textValue(), k));
      limits.forEach((k, v) -> assertEquals(v, resources.at("/limits/" + k).textValue(), k));
    }
  }

  @Test
  void patchesAndStatusWritesAreWrittenCanonical() throws IOException {
    ok(call("POST", PODS, pod("patched", "{\"cpu\":\"100m\"}", "{}")), 201);
    JsonNode patched =
        ok(
            Requests.call(
                server,
                "PATCH",
                PODS + "/patched",
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1.0\"}}}]}}",
                Map.of(),
                "application/strategic-merge-patch+json",
                "application/json"),
            200);
    assertEquals("1", patched.at("/spec/containers/0/resources/limits/cpu").textValue());
    assertEquals("100m", patched.at("/spec/containers/0/resources/requests/cpu").textValue());
    ok(
        call(
            "POST",
            "/api/v1/nodes",
            "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"quantities-node\"}}"),
        201);
    JsonNode status =
        ok(
            Requests.call(
                server,
                "PATCH",
                "/api/v1/nodes/quantities-node/status",
                "{\"status\":{\"capacity\":{\"cpu\":4,\"memory\":\"8192Mi\",\"pods\":\"110\"}}}",
                Map.of(),
                "application/merge-patch+json",
                "application/json"),
            200);
    assertEquals("4", status.at("/status/capacity/cpu").textValue());
    assertEquals("8Gi", status.at("/status/capacity/memory").textValue());
    assertEquals("110", status.at("/status/capacity/pods").textValue());
  }

  @Test
  void aQuotasHardLimitsAreWrittenCanonical() throws IOException {
    JsonNode quota =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/resourcequotas",
                "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"},"
                    + "\"spec\":{\"hard\":{\"requests.cpu\":\"2000m\",\"pods\":10,"
                    + "\"requests.memory\":\"0.5Gi\"}}}"),
            201);
    assertEquals("2", quota.at("/spec/hard/requests.cpu").textValue());
    assertEquals("10", quota.at("/spec/hard/pods").textValue());
    assertEquals("512Mi", quota.at("/spec/hard/requests.memory").textValue());
  }

  @Test
  void textThatIsNotAQuantityIsRefusedNamingItsField() throws IOException {
    JsonNode refused = ok(call("POST", PODS, pod("refused", "{\"cpu\":\"abc\"}", "{}")), 400);
    assertEquals("BadRequest", refused.path("reason").asText());
    String message = refused.path("message").asText();
    assertTrue(
        message.startsWith(
            "Pod in version \"v1\" cannot be handled as a Pod: "
                + "spec.containers[0].resources.requests[cpu]: quantity \"abc\": quantities must"
                + " match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        message);
    ok(call("GET", PODS + "/refused", null), 404);
    JsonNode suffix = ok(call("POST", PODS, pod("refused", "{}", "{\"memory\":\"1Qi\"}")), 400);
    assertTrue(
        suffix.path("message").asText().contains("resources.limits[memory]: quantity \"1Qi\""),
        suffix.path("message").asText());
  }

  @Test
  void timesAreWrittenInUtcAsGoWritesThem() throws IOException {
    JsonNode event =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/events",
                "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},"
                    + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},"
                    + "\"firstTimestamp\":\"2026-11-30T05:30:00,25Z\","
                    + "\"lastTimestamp\":\"2026-11-30T07:31:00.5+02:00\","
                    + "\"eventTime\":\"2026-11-30T07:30:00.100000+02:00\"}"),
            201);
    assertEquals("2026-11-30T05:30:00Z", event.path("firstTimestamp").asText());
    assertEquals("2026-11-30T05:31:00Z", event.path("lastTimestamp").asText());
    assertEquals("2026-11-30T05:30:00.100000Z", event.path("eventTime").asText());
    JsonNode zero =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/events",
                "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"zero\"},"
                    + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},"
                    + "\"firstTimestamp\":\"0001-01-01T00:00:00Z\"}"),
            201);
    assertTrue(zero.path("firstTimestamp").isMissingNode(), zero.toString());
    JsonNode lease =
        ok(
            call(
                "POST",
                "/apis/coordination.k8s.io/v1/namespaces/quantities/leases",
                "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
                    + "\"metadata\":{\"name\":\"l\"},\"spec\":{"
                    + "\"acquireTime\":\"2026-11-30T07:30:00.000000+02:00\","
                    + "\"renewTime\":\"2026-11-30T05:30:00.123456Z\"}}"),
            201);
    assertEquals("2026-11-30T05:30:00.000000Z", lease.at("/spec/acquireTime").asText());
    assertEquals("2026-11-30T05:30:00.123456Z", lease.at("/spec/renewTime").asText());
  }

  @Test
  void timesGoCannotReadAreRefusedNamingTheirField() throws IOException {
    String lease =
        "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
            + "\"metadata\":{\"name\":\"refused\"},\"spec\":{\"renewTime\":\"%s\"}}";
    String leases = "/apis/coordination.k8s.io/v1/namespaces/quantities/leases";
    JsonNode millis = ok(call("POST", leases, lease.formatted("2026-11-30T05:30:00.123Z")), 400);
    assertEquals(
        "Lease in version \"v1\" cannot be handled as a Lease: spec.renewTime: parsing time"
            + " \"2026-11-30T05:30:00.123Z\" as \"2006-01-02T15:04:05.000000Z07:00\": a MicroTime"
            + " has exactly six digits of fraction",
        millis.path("message").asText());
    assertEquals("BadRequest", millis.path("reason").asText());
    ok(call("POST", leases, lease.formatted("2026-11-30T05:30:00Z")), 400);
    ok(call("GET", leases + "/refused", null), 404);
    String event =
        "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"refused\"},"
            + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},\"lastTimestamp\":\"%s\"}";
    String events = "/api/v1/namespaces/quantities/events";
    for (String text :
        new String[] {"2026-11-30 05:30:00Z", "2026-11-30t05:30:00Z", "2026-11-30T05:30Z"}) {
      JsonNode refused = ok(call("POST", events, event.formatted(text)), 400);
      assertEquals(
          "Event in version \"v1\" cannot be handled as a Event: lastTimestamp: parsing time \""
              + text
              + "\" as \"2006-01-02T15:04:05Z07:00\": not an RFC 3339 time",
          refused.path("message").asText());
    }
    JsonNode month = ok(call("POST", events, event.formatted("2026-13-30T05:30:00Z")), 400);
    assertTrue(month.path("message").asText().endsWith(": not a valid time"), month.toString());
  }

  @Test
  void bytesAreStandardBase64WithItsPadding() throws IOException {
    String secrets = "/api/v1/namespaces/quantities/secrets";
    JsonNode secret =
        ok(
            call(
                "POST",
                secrets,
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
                    + "\"data\":{\"a\":\"aGVsbG8=\",\"b\":\"aGVs\\nbG8=\",\"c\":\"aGVsbG9=\"}}"),
            201);
    // Go ignores line breaks, and the unused bits of the last character are written again zero.
    assertEquals("aGVsbG8=", secret.at("/data/a").asText());
    assertEquals("aGVsbG8=", secret.at("/data/b").asText());
    assertEquals("aGVsbG8=", secret.at("/data/c").asText());
    JsonNode refused =
        ok(
            call(
                "POST",
                secrets,
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"r\"},"
                    + "\"data\":{\"unpadded\":\"aGVsbG8\"}}"),
            400);
    assertEquals(
        "Secret in version \"v1\" cannot be handled as a Secret: data[unpadded]: illegal base64"
            + " data at input byte 4",
        refused.path("message").asText());
    JsonNode letter =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"r\"},"
                    + "\"binaryData\":{\"x\":\"aG!sbG8=\"}}"),
            400);
    assertTrue(
        letter
            .path("message")
            .asText()
            .endsWith("binaryData[x]: illegal base64 data at input byte 2"),
        letter.toString());
  }

  @Test
  void aValueOfAnotherJsonTypeIsLeftToTheSchemasValidation() throws IOException {
    JsonNode refused = ok(call("POST", PODS, pod("typed", "{\"cpu\":true}", "{}")), 422);
    assertTrue(
        refused
            .path("message")
            .asText()
            .contains("spec.containers[0].resources.requests.cpu in body must be of type"),
        refused.toString());
  }

  @Test
  void integersAreReadAsGoReadsThemIntoTheirFieldsTypes() throws IOException {
    String port = "{\"containerPort\":%s}";
    String podWithPort =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\"},\"spec\":{"
            + "\"activeDeadlineSeconds\":%s,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
            + "\"ports\":[%s]}]}}";
    JsonNode created =
        ok(
            call(
                "POST", PODS, String.format(podWithPort, "ints", "3000000000", port.formatted(80))),
            201);
    assertEquals(3000000000L, created.at("/spec/activeDeadlineSeconds").longValue());
    assertEquals(80, created.at("/spec/containers/0/ports/0/containerPort").intValue());
    Map<String, String> refusals =
        Map.of(
            String.format(podWithPort, "fraction", "1", port.formatted("80.0")),
            "spec.containers[0].ports[0].containerPort: cannot unmarshal number 80.0 into Go value"
                + " of type int32",
            String.format(podWithPort, "wide", "1", port.formatted("3000000000")),
            "spec.containers[0].ports[0].containerPort: cannot unmarshal number 3000000000 into Go"
                + " value of type int32",
            String.format(podWithPort, "exponent", "1e3", port.formatted(80)),
            "spec.activeDeadlineSeconds: cannot unmarshal number 1000.0 into Go value of type int64",
            String.format(podWithPort, "huge", "92233720368547758080", port.formatted(80)),
            "spec.activeDeadlineSeconds: cannot unmarshal number 92233720368547758080 into Go value"
                + " of type int64");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      JsonNode refused = ok(call("POST", PODS, refusal.getKey()), 400);
      assertEquals("BadRequest", refused.path("reason").asText(), refusal.getKey());
      assertEquals(
          "Pod in version \"v1\" cannot be handled as a Pod: " + refusal.getValue(),
          refused.path("message").asText());
    }
    String service =
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"%s\"},"
            + "\"spec\":{\"ports\":[{\"port\":80,\"targetPort\":%s}]}}";
    String services = "/api/v1/namespaces/quantities/services";
    ok(call("POST", services, String.format(service, "named", "\"http\"")), 201);
    ok(call("POST", services, String.format(service, "numbered", "8080")), 201);
    JsonNode refused = ok(call("POST", services, String.format(service, "half", "8080.5")), 400);
    assertEquals(
        "Service in version \"v1\" cannot be handled as a Service: spec.ports[0].targetPort:"
            + " cannot unmarshal number 8080.5 into Go value of type int32",
        refused.path("message").asText());
  }

  /**
   * A null element of a list or map of primitive values is read as Go's decoding reads it into the
   * element's type: its zero value. A manifest's {@code key:} with no value is such a null: kube
   * stores {@code key: ""}; this server dropped a ConfigMap's key and a node selector's, refused a
   * null argument {@code 422} and answered a null label {@code 500}.
   */
  @Test
  void aNullElementIsReadAsItsTypesZeroValue() throws IOException {
    JsonNode map =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"nulls\","
                    + "\"labels\":{\"app\":null},\"annotations\":{\"note\":null}},"
                    + "\"data\":{\"empty\":null,\"full\":\"x\"}}"),
            201);
    assertEquals("{\"empty\":\"\",\"full\":\"x\"}", map.get("data").toString());
    assertEquals("{\"app\":\"\"}", map.at("/metadata/labels").toString());
    assertEquals("{\"note\":\"\"}", map.at("/metadata/annotations").toString());
    JsonNode pod =
        ok(
            call(
                "POST",
                PODS,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nulls\"},"
                    + "\"spec\":{\"nodeSelector\":{\"disk\":null},\"containers\":[{\"name\":\"c\","
                    + "\"image\":\"nginx\",\"args\":[null,\"x\"],"
                    + "\"resources\":{\"requests\":{\"cpu\":null}}}]}}"),
            201);
    assertEquals("{\"disk\":\"\"}", pod.at("/spec/nodeSelector").toString());
    assertEquals("[\"\",\"x\"]", pod.at("/spec/containers/0/args").toString());
    assertEquals("{\"cpu\":\"0\"}", pod.at("/spec/containers/0/resources/requests").toString());
    JsonNode secret =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/secrets",
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"nulls\"},"
                    + "\"data\":{\"empty\":null,\"full\":\"eA==\"}}"),
            201);
    assertEquals("{\"empty\":\"\",\"full\":\"eA==\"}", secret.get("data").toString());
    JsonNode objects =
        ok(
            call(
                "POST",
                PODS,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"null-objects\"},"
                    + "\"spec\":{\"imagePullSecrets\":[null,{\"name\":\"pull\"}],"
                    + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"),
            201);
    assertEquals("[{},{\"name\":\"pull\"}]", objects.at("/spec/imagePullSecrets").toString());
    JsonNode unnamed =
        ok(
            call(
                "POST",
                PODS,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"null-container\"},"
                    + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"},null]}}"),
            422);
    assertTrue(
        unnamed.path("message").asText().contains("spec.containers[1].name: Required value"),
        unnamed.path("message").asText());
  }

  /**
   * What Go's {@code omitempty} leaves out of the JSON it writes is not stored: zero values of the
   * fields Go holds without a pointer ({@code hostNetwork: false}, {@code serviceAccountName: ""},
   * a port's {@code hostPort: 0}, a container's {@code stdin: false}) and empty lists and maps
   * ({@code args: []}, {@code labels: {}}, {@code data: {}}), as kube-apiserver, which decodes into
   * its Go types and stores protobuf, answers; a pointer's zero ({@code immutable: false}) is kept.
   * The same write on etcd in protobuf read back so already; in memory it came back as sent.
   */
  @Test
  void whatGoLeavesOutOfItsJsonIsLeftOut() throws IOException {
    JsonNode pod =
        ok(
            call(
                "POST",
                PODS,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"zeros\","
                    + "\"labels\":{},\"annotations\":{},\"finalizers\":[]},\"spec\":{"
                    + "\"hostNetwork\":false,\"serviceAccountName\":\"\",\"nodeSelector\":{},"
                    + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"args\":[],"
                    + "\"stdin\":false,\"ports\":[{\"containerPort\":80,\"hostPort\":0}]}]}}"),
            201);
    for (JsonNode read : List.of(pod, ok(call("GET", PODS + "/zeros", null), 200))) {
      for (String absent :
          List.of(
              "/metadata/labels",
              "/metadata/annotations",
              "/metadata/finalizers",
              "/spec/hostNetwork",
              "/spec/serviceAccountName",
              "/spec/nodeSelector",
              "/spec/containers/0/args",
              "/spec/containers/0/stdin",
              "/spec/containers/0/ports/0/hostPort")) {
        assertTrue(read.at(absent).isMissingNode(), absent + " in " + read);
      }
      assertEquals(80, read.at("/spec/containers/0/ports/0/containerPort").intValue());
      assertEquals("{}", read.at("/spec/containers/0/resources").toString(), "a struct is kept");
      // An update owns what Go's object holds, as kube's field manager sees it: not these.
      JsonNode owned = read.at("/metadata/managedFields/0/fieldsV1/f:spec");
      assertTrue(owned.isObject() && !owned.has("f:hostNetwork"), owned.toString());
      assertTrue(owned.has("f:containers"), owned.toString());
    }
    JsonNode map =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"zeros\"},"
                    + "\"data\":{},\"immutable\":false}"),
            201);
    assertTrue(map.path("data").isMissingNode(), map.toString());
    assertEquals(false, map.path("immutable").booleanValue(), map.toString());
    assertTrue(map.path("immutable").isBoolean(), map.toString());
  }

  @Test
  void aLongTimeIsShownCut() throws IOException {
    String text = "2026-11-30T05:30:00Z" + "x".repeat(200);
    JsonNode refused =
        ok(
            call(
                "POST",
                "/api/v1/namespaces/quantities/events",
                "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"long\"},"
                    + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},\"lastTimestamp\":\""
                    + text
                    + "\"}"),
            400);
    assertEquals(
        "Event in version \"v1\" cannot be handled as a Event: lastTimestamp: parsing time \""
            + text.substring(0, 64)
            + "…\" as \"2006-01-02T15:04:05Z07:00\": not an RFC 3339 time",
        refused.path("message").asText());
  }
}
