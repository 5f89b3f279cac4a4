package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PodSecurity plugin on a server, as kube-apiserver 1.33 answers ({@code
 * k8s.io/pod-security-admission/admission}): a namespace's {@code enforce} label refuses a Pod with
 * kube's words, {@code warn} and {@code audit} give warnings and audit annotations (to Pods and to
 * the pod templates of workloads), labels that do not parse are refused on the Namespace, a
 * stricter {@code enforce} label warns of the pods already there, and the configuration's defaults
 * and exemptions apply.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PodSecurityAdmissionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PRIVILEGED_POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},
       "spec":{"containers":[{"name":"c","image":"nginx","securityContext":{"privileged":true}}]}}""";
  private static final String RESTRICTED_POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"ok"},
       "spec":{"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},
        "containers":[{"name":"c","image":"nginx","securityContext":{
         "allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}}""";

  private record Recorded(String what, List<String> warnings, Map<String, String> audit) {}

  private final List<Recorded> recorded = new ArrayList<>();
  private ApiServer server;

  private final Map<String, AuditEvent> events = new java.util.concurrent.ConcurrentHashMap<>();

  private void start(DefaultAdmission.PodSecurityConfiguration config) {
    // What the plugin decides is read where a client and an audit log see it: the response's
    // Warning headers and the audit event of the request.
    server =
        BuiltinKinds.apiServer(DefaultAdmission.none())
            .admission(new PodSecurity(config))
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n"
                        + "rules:\n- level: Metadata\n"),
                event -> {
                  if (event.stage() == Stage.RESPONSE_COMPLETE) {
                    events.put(event.auditId(), event);
                  }
                })
            .build();
  }

  /** Records what the plugin told of one write: its warnings and its audit annotations. */
  private void record(ApiResponse response) {
    String id = response.header(AuditEvent.AUDIT_ID_HEADER);
    // A server built by a test without an audit policy answers without one.
    AuditEvent event = id == null ? null : events.get(id);
    if (event == null || event.objectRef() == null) {
      return;
    }
    List<String> warnings = new ArrayList<>();
    for (String header : response.headers().getOrDefault("Warning", List.of())) {
      assertTrue(header.startsWith("299 - \"") && header.endsWith("\""), header);
      warnings.add(
          header.substring(7, header.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    Map<String, String> audit = new LinkedHashMap<>();
    event
        .annotations()
        .forEach(
            (key, value) -> {
              if (key.startsWith(PodSecurity.AUDIT_ANNOTATION_PREFIX)) {
                audit.put(key.substring(PodSecurity.AUDIT_ANNOTATION_PREFIX.length()), value);
              }
            });
    synchronized (recorded) {
      recorded.add(
          new Recorded(
              event.objectRef().resource() + "/" + event.objectRef().name(), warnings, audit));
    }
  }

  @BeforeEach
  void defaults() {
    start(DefaultAdmission.PodSecurityConfiguration.DEFAULT);
  }

  private void namespace(String name, String labels) {
    ApiResponse r =
        request(
            "POST",
            "/api/v1/namespaces",
            "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{" + labels + "}}}");
    assertEquals(201, r.status(), text(r));
  }

  private Recorded last(String what) {
    synchronized (recorded) {
      for (int i = recorded.size() - 1; i >= 0; i--) {
        if (recorded.get(i).what().equals(what)) {
          return recorded.get(i);
        }
      }
    }
    throw new AssertionError("nothing recorded for " + what + ": " + recorded);
  }

  @Test
  void enforceRefusesWithKubesMessage() throws Exception {
    namespace("r", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    ApiResponse refused = request("POST", "/api/v1/namespaces/r/pods", PRIVILEGED_POD);
    assertEquals(403, refused.status(), text(refused));
    JsonNode status = JSON.readTree(text(refused));
    assertEquals("Forbidden", status.path("reason").asText());
    assertEquals(
        "pods \"x\" is forbidden: violates PodSecurity \"restricted:latest\": privileged"
            + " (container \"c\" must not set securityContext.privileged=true),"
            + " allowPrivilegeEscalation != false (container \"c\" must set"
            + " securityContext.allowPrivilegeEscalation=false), unrestricted capabilities"
            + " (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]),"
            + " runAsNonRoot != true (pod or container \"c\" must set"
            + " securityContext.runAsNonRoot=true), seccompProfile (pod or container \"c\" must"
            + " set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
        status.path("message").asText());
    assertEquals("restricted:latest", last("pods/x").audit().get("enforce-policy"));
    ApiResponse ok = request("POST", "/api/v1/namespaces/r/pods", RESTRICTED_POD);
    assertEquals(201, ok.status(), text(ok));
    assertEquals(List.of(), last("pods/ok").warnings());
  }

  /** With every default plugin on, the token volume ServiceAccount adds passes restricted. */
  @Test
  void restrictedAdmitsThePodOtherPluginsCompleted() {
    server = BuiltinKinds.apiServer(DefaultAdmission.kubernetes().enable("ServiceAccount")).build();
    namespace("all", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    assertEquals(
        201,
        request(
                "POST",
                "/api/v1/namespaces/all/serviceaccounts",
                "{\"metadata\":{\"name\":\"default\"}}")
            .status());
    ApiResponse created = request("POST", "/api/v1/namespaces/all/pods", RESTRICTED_POD);
    assertEquals(201, created.status(), text(created));
    assertTrue(text(created).contains("\"projected\""), text(created));
  }

  @Test
  void enforceVersionPicksTheChecksOfThatRelease() throws Exception {
    // runAsUser=0 is checked from 1.23 on.
    namespace(
        "v",
        "\"pod-security.kubernetes.io/enforce\":\"restricted\","
            + "\"pod-security.kubernetes.io/enforce-version\":\"v1.22\"");
    String root =
        RESTRICTED_POD.replace("\"runAsNonRoot\":true", "\"runAsNonRoot\":true,\"runAsUser\":0");
    assertEquals(201, request("POST", "/api/v1/namespaces/v/pods", root).status());
    namespace("w", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    ApiResponse refused = request("POST", "/api/v1/namespaces/w/pods", root);
    assertEquals(403, refused.status());
    assertEquals(
        "pods \"ok\" is forbidden: violates PodSecurity \"restricted:latest\": runAsUser=0 (pod"
            + " must not set runAsUser=0)",
        JSON.readTree(text(refused)).path("message").asText());
  }

  @Test
  void warnAndAuditAdmitButReport() {
    namespace(
        "wa",
        "\"pod-security.kubernetes.io/warn\":\"baseline\","
            + "\"pod-security.kubernetes.io/audit\":\"restricted\"");
    ApiResponse created = request("POST", "/api/v1/namespaces/wa/pods", PRIVILEGED_POD);
    assertEquals(201, created.status(), text(created));
    Recorded r = last("pods/x");
    assertEquals(
        List.of(
            "would violate PodSecurity \"baseline:latest\": privileged (container \"c\" must not"
                + " set securityContext.privileged=true)"),
        r.warnings());
    assertEquals("privileged:latest", r.audit().get("enforce-policy"));
    assertTrue(
        r.audit()
            .get("audit-violations")
            .startsWith(
                "would violate PodSecurity \"restricted:latest\": privileged (container \"c\""),
        r.audit().toString());
  }

  @Test
  void workloadsAreWarnedOnTheirPodTemplates() {
    namespace("wl", "\"pod-security.kubernetes.io/enforce\":\"baseline\"");
    String deployment =
        """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},
         "spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},
          "spec":{"hostNetwork":true,"containers":[{"name":"c","image":"nginx"}]}}}}""";
    ApiResponse created = request("POST", "/apis/apps/v1/namespaces/wl/deployments", deployment);
    assertEquals(201, created.status(), text(created));
    // Warn follows enforce when it has no label of its own; workloads are never refused.
    assertEquals(
        List.of(
            "would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)"),
        last("deployments/d").warnings());
    String cronJob =
        """
        {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj"},
         "spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"template":{"spec":{
          "restartPolicy":"Never","containers":[{"name":"c","image":"nginx",
          "ports":[{"containerPort":80,"hostPort":8080}]}]}}}}}}""";
    created = request("POST", "/apis/batch/v1/namespaces/wl/cronjobs", cronJob);
    assertEquals(201, created.status(), text(created));
    assertEquals(
        List.of(
            "would violate PodSecurity \"baseline:latest\": hostPort (container \"c\" uses"
                + " hostPort 8080)"),
        last("cronjobs/cj").warnings());
  }

  @Test
  void labelsThatDoNotParseAreRefusedOnTheNamespace() throws Exception {
    ApiResponse refused =
        request(
            "POST",
            "/api/v1/namespaces",
            """
            {"metadata":{"name":"bad","labels":{"pod-security.kubernetes.io/enforce":"foo",
             "pod-security.kubernetes.io/warn-version":"1.25"}}}""");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "Namespace \"bad\" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]:"
            + " Invalid value: \"foo\": must be one of privileged, baseline, restricted,"
            + " metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value:"
            + " \"1.25\": must be \"latest\" or \"v1.x\"]",
        JSON.readTree(text(refused)).path("message").asText());
  }

  @Test
  void aStricterEnforceLabelWarnsOfThePodsThere() {
    namespace("u", "");
    assertEquals(201, request("POST", "/api/v1/namespaces/u/pods", PRIVILEGED_POD).status());
    assertEquals(
        201,
        request("POST", "/api/v1/namespaces/u/pods", PRIVILEGED_POD.replace("\"x\"", "\"a\""))
            .status());
    assertEquals(201, request("POST", "/api/v1/namespaces/u/pods", RESTRICTED_POD).status());
    ApiResponse patched =
        request(
            "PATCH",
            "/api/v1/namespaces/u",
            "{\"metadata\":{\"labels\":{\"pod-security.kubernetes.io/enforce\":\"baseline\"}}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(
        List.of(
            "existing pods in namespace \"u\" violate the new PodSecurity enforce level"
                + " \"baseline:latest\"",
            "a (and 1 other pod): privileged"),
        last("namespaces/u").warnings());
    // The same level again checks nothing.
    patched =
        request(
            "PATCH",
            "/api/v1/namespaces/u",
            "{\"metadata\":{\"labels\":{\"team\":\"x\"}}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(List.of(), last("namespaces/u").warnings());
  }

  @Test
  void defaultsAndExemptionsOfTheConfiguration() {
    start(
        new DefaultAdmission.PodSecurityConfiguration(
            "baseline",
            "latest",
            "privileged",
            "latest",
            "privileged",
            "latest",
            List.of(),
            List.of("kata"),
            List.of("exempt")));
    namespace("plain", "");
    ApiResponse refused = request("POST", "/api/v1/namespaces/plain/pods", PRIVILEGED_POD);
    assertEquals(403, refused.status(), text(refused));
    assertTrue(
        text(refused).contains("violates PodSecurity \\\"baseline:latest\\\""), text(refused));
    namespace("exempt", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    assertEquals(
        List.of(
            "namespace \"exempt\" is exempt from Pod Security, and the policy"
                + " (enforce=restricted:latest) will be ignored"),
        last("namespaces/exempt").warnings());
    assertEquals(201, request("POST", "/api/v1/namespaces/exempt/pods", PRIVILEGED_POD).status());
    assertEquals(Map.of("exempt", "namespace"), last("pods/x").audit());
    String kata = PRIVILEGED_POD.replace("\"spec\":{", "\"spec\":{\"runtimeClassName\":\"kata\",");
    assertEquals(201, request("POST", "/api/v1/namespaces/plain/pods", kata).status());
    assertEquals(Map.of("exempt", "runtimeClass"), last("pods/x").audit());
  }

  @Test
  void configurationRefusesWhatIsNotValid() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                new DefaultAdmission.PodSecurityConfiguration(
                    "strict",
                    "latest",
                    "privileged",
                    "latest",
                    "privileged",
                    "latest",
                    List.of(),
                    List.of(),
                    List.of()));
    assertEquals(
        "defaults.enforce: Unsupported value: \"strict\": supported values: \"privileged\","
            + " \"baseline\", \"restricted\"",
        e.getMessage());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> DefaultAdmission.kubernetes().enable("AlwaysPullImagesNow"));
    assertTrue(e.getMessage().contains("\"AlwaysPullImagesNow\""), e.getMessage());
  }

  private ApiResponse request(String method, String path, String body) {
    return request(method, path, body, "application/json");
  }

  private ApiResponse request(String method, String path, String body, String type) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of(type));
    }
    ApiResponse response =
        server.handle(
            new ApiRequest(
                method,
                path,
                Map.of(),
                headers,
                new ByteArrayInputStream(
                    body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
    record(response);
    return response;
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
