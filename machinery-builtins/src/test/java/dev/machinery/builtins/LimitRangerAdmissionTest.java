package dev.machinery.builtins;

import static dev.machinery.builtins.DefaultAdmissionPluginsTest.request;
import static dev.machinery.builtins.DefaultAdmissionPluginsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.unversioned.resource.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kube-apiserver's LimitRanger, as Kubernetes' {@code plugin/pkg/admission/limitranger} tests
 * assert it: defaults of a LimitRange's {@code Container} item (and the LimitRange's own defaulting
 * of {@code default} from {@code max} and of {@code defaultRequest} from {@code default} and {@code
 * min}) written into a Pod with the {@code kubernetes.io/limit-ranger} annotation, and the min, max
 * and ratio constraints of containers, Pods and claims in kube's words.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LimitRangerAdmissionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ApiServer server(String limits) {
    ApiServer server =
        BuiltinKinds.apiServer(DefaultAdmission.none().enable("LimitRanger")).build();
    assertEquals(
        201,
        request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"ns\"}}").status());
    ApiResponse range =
        request(
            server,
            "POST",
            "/api/v1/namespaces/ns/limitranges",
            "{\"metadata\":{\"name\":\"limits\"},\"spec\":{\"limits\":" + limits + "}}");
    assertEquals(201, range.status(), text(range));
    return server;
  }

  private static String pod(String resources) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":"
        + resources
        + "}],\"initContainers\":[{\"name\":\"i\",\"image\":\"busybox\"}]}}";
  }

  @Test
  void defaultsAreSetAndAnnotated() throws Exception {
    ApiServer server =
        server(
            "[{\"type\":\"Container\",\"default\":{\"cpu\":\"500m\",\"memory\":\"512Mi\"},"
                + "\"defaultRequest\":{\"cpu\":\"100m\"}}]");
    ApiResponse created =
        request(
            server, "POST", "/api/v1/namespaces/ns/pods", pod("{\"limits\":{\"memory\":\"1Gi\"}}"));
    assertEquals(201, created.status(), text(created));
    JsonNode pod = JSON.readTree(text(created));
    assertEquals(
        "LimitRanger plugin set: cpu request for container c; cpu limit for container c;"
            + " cpu, memory request for init container i; cpu, memory limit for init container i",
        pod.at("/metadata/annotations/kubernetes.io~1limit-ranger").asText());
    JsonNode c = pod.at("/spec/containers/0/resources");
    assertEquals("500m", c.at("/limits/cpu").asText());
    assertEquals("1Gi", c.at("/limits/memory").asText());
    assertEquals("100m", c.at("/requests/cpu").asText());
    // A Pod's requests default to its own limits before admission (Go's defaulting on decode).
    assertEquals("1Gi", c.at("/requests/memory").asText());
    JsonNode i = pod.at("/spec/initContainers/0/resources");
    assertEquals("{\"cpu\":\"500m\",\"memory\":\"512Mi\"}", i.path("limits").toString());
    assertEquals("{\"cpu\":\"100m\",\"memory\":\"512Mi\"}", i.path("requests").toString());
  }

  @Test
  void containerConstraints() throws Exception {
    ApiServer server =
        server(
            "[{\"type\":\"Container\",\"min\":{\"cpu\":\"100m\"},\"max\":{\"cpu\":\"1\"},"
                + "\"maxLimitRequestRatio\":{\"cpu\":\"2\"}}]");
    assertEquals(
        "pods \"p\" is forbidden: maximum cpu usage per Container is 1, but limit is 2",
        refused(server, pod("{\"limits\":{\"cpu\":\"2\"},\"requests\":{\"cpu\":\"1\"}}")));
    assertEquals(
        "pods \"p\" is forbidden: minimum cpu usage per Container is 100m, but request is 50m",
        refused(server, pod("{\"limits\":{\"cpu\":\"100m\"},\"requests\":{\"cpu\":\"50m\"}}")));
    assertEquals(
        "pods \"p\" is forbidden: cpu max limit to request ratio per Container is 2, but provided"
            + " ratio is 4.000000",
        refused(server, pod("{\"limits\":{\"cpu\":\"800m\"},\"requests\":{\"cpu\":\"200m\"}}")));
    // The LimitRange's defaults: max gives the default limit, which gives the default request.
    ApiResponse defaulted = request(server, "POST", "/api/v1/namespaces/ns/pods", pod("{}"));
    assertEquals(201, defaulted.status(), text(defaulted));
    assertEquals(
        "{\"limits\":{\"cpu\":\"1\"},\"requests\":{\"cpu\":\"1\"}}",
        JSON.readTree(text(defaulted)).at("/spec/containers/0/resources").toString());
  }

  @Test
  void podAndClaimConstraints() throws Exception {
    ApiServer server =
        server(
            "[{\"type\":\"Pod\",\"max\":{\"memory\":\"1Gi\"}},"
                + "{\"type\":\"PersistentVolumeClaim\",\"min\":{\"storage\":\"1Gi\"},"
                + "\"max\":{\"storage\":\"10Gi\"}}]");
    String twoContainers =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
            + "\"containers\":[{\"name\":\"a\",\"image\":\"nginx\",\"resources\":{\"limits\":"
            + "{\"memory\":\"600Mi\"}}},{\"name\":\"b\",\"image\":\"nginx\",\"resources\":"
            + "{\"limits\":{\"memory\":\"600Mi\"}}}]}}";
    assertEquals(
        "pods \"p\" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi",
        refused(server, twoContainers));
    assertEquals(
        "persistentvolumeclaims \"big\" is forbidden: maximum storage usage per"
            + " PersistentVolumeClaim is 10Gi, but request is 20Gi",
        refusedAt(server, "/api/v1/namespaces/ns/persistentvolumeclaims", claim("big", "20Gi")));
    assertEquals(
        "persistentvolumeclaims \"small\" is forbidden: minimum storage usage per"
            + " PersistentVolumeClaim is 1Gi, but request is 500Mi",
        refusedAt(server, "/api/v1/namespaces/ns/persistentvolumeclaims", claim("small", "500Mi")));
    ApiResponse ok =
        request(server, "POST", "/api/v1/namespaces/ns/persistentvolumeclaims", claim("ok", "5Gi"));
    assertEquals(201, ok.status(), text(ok));
  }

  @Test
  void severalViolationsAreBracketed() throws Exception {
    ApiServer server =
        server("[{\"type\":\"Container\",\"max\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}]");
    assertEquals(
        "pods \"p\" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum"
            + " memory usage per Container is 1Gi, but limit is 2Gi]",
        refused(server, pod("{\"limits\":{\"cpu\":\"2\",\"memory\":\"2Gi\"}}")));
  }

  /** limitranger/admission_test.go's table of the min, max and ratio checks, as messages. */
  @Test
  void constraintMessages() {
    Map<String, Quantity> none = Map.of();
    Map<String, Quantity> req = new LinkedHashMap<>(Map.of("cpu", Quantity.parse("50m")));
    Map<String, Quantity> lim = new LinkedHashMap<>(Map.of("cpu", Quantity.parse("100m")));
    Quantity one = Quantity.parse("1");
    assertEquals(
        "minimum cpu usage per Container is 1.  No request is specified",
        LimitRanger.min("Container", "cpu", one, none, lim));
    assertEquals(
        "maximum cpu usage per Container is 1.  No limit is specified",
        LimitRanger.max("Container", "cpu", one, req, none));
    assertNull(LimitRanger.max("Container", "cpu", one, req, lim));
    assertEquals(
        "cpu max limit to request ratio per Container is 1, but no request is specified or"
            + " request is 0",
        LimitRanger.ratio("Container", "cpu", one, none, lim));
    assertEquals(
        "cpu max limit to request ratio per Container is 1, but no limit is specified or limit"
            + " is 0",
        LimitRanger.ratio("Container", "cpu", one, req, none));
    assertEquals(
        "cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000",
        LimitRanger.ratio("Container", "cpu", one, req, lim));
    assertEquals(
        "maximum storage usage per PersistentVolumeClaim is 1.  No request is specified",
        LimitRanger.maxRequest("PersistentVolumeClaim", "storage", one, none));
  }

  /** A Pod's total: its containers, or its largest init container, whichever is more. */
  @Test
  void podTotals() throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> pod =
        JSON.readValue(
            """
            {"spec":{"containers":[{"resources":{"requests":{"cpu":"100m"}}},
              {"resources":{"requests":{"cpu":"200m"}}}],
             "initContainers":[{"resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],
             "overhead":{"cpu":"10m"}}}""",
            Map.class);
    Map<String, Quantity> total = LimitRanger.podTotal(pod, "requests");
    assertEquals(0, total.get("cpu").compareTo(Quantity.parse("510m")), total.toString());
    assertEquals(0, total.get("memory").compareTo(Quantity.parse("1Gi")));
  }

  private static String claim(String name, String storage) {
    return "{\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":"
        + "{\"storage\":\""
        + storage
        + "\"}}}}";
  }

  private static String refused(ApiServer server, String pod) throws Exception {
    return refusedAt(server, "/api/v1/namespaces/ns/pods", pod);
  }

  private static String refusedAt(ApiServer server, String path, String body) throws Exception {
    ApiResponse r = request(server, "POST", path, body);
    assertEquals(403, r.status(), text(r));
    return JSON.readTree(text(r)).path("message").asText();
  }
}
