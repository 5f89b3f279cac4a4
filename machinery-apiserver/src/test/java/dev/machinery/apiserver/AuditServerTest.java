package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.authentication.AuthenticationException;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The events of requests through a server with auditing: each stage and level, a watch's two
 * events, refusals by authorization (403) and authentication (401), a 404, impersonation, the
 * managed fields left out, and the {@code Audit-ID} header.
 */
class AuditServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final Pattern MICROS =
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");

  private final List<AuditEvent> events = new CopyOnWriteArrayList<>();
  private ApiServer server;

  private void build(String rules) {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .authenticator(
                request -> {
                  String token = request.header("Authorization");
                  if (token == null) {
                    return Optional.of(UserInfo.of("system:anonymous", List.of()));
                  }
                  return switch (token) {
                    case "Bearer jane" ->
                        Optional.of(
                            new UserInfo(
                                "jane",
                                "u-1",
                                List.of("dev", "system:authenticated"),
                                Map.of("scopes", List.of("a", "b"))));
                    case "Bearer root" ->
                        Optional.of(UserInfo.of("root", List.of("system:masters")));
                    default -> throw new AuthenticationException("bad token");
                  };
                })
            .authorizer(
                attributes ->
                    attributes.user().name().equals("jane")
                        ? Authorization.allow("jane may")
                        : Authorization.noOpinion(""))
            .audit(
                AuditPolicy.parse("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n" + rules),
                events::add)
            .build();
  }

  private ApiResponse call(
      String token, String method, String path, Map<String, List<String>> query, String body) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Content-Type", List.of("application/json"));
    headers.put("User-Agent", List.of("kubectl/v1.33.0 (linux/amd64)"));
    headers.put("X-Forwarded-For", List.of("10.0.0.1, 10.0.0.2"));
    if (token != null) {
      headers.put("Authorization", List.of("Bearer " + token));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)),
            List.of(),
            "192.0.2.7",
            path + (query.isEmpty() ? "" : "?watch=true&timeoutSeconds=1")));
  }

  private static String role(String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\",\"managedFields\":[{\"manager\":\"m\",\"operation\":\"Update\","
        + "\"apiVersion\":\"rbac.authorization.k8s.io/v1\"}]},\"rules\":[]}";
  }

  private List<JsonNode> lines() throws IOException {
    List<JsonNode> parsed = new java.util.ArrayList<>();
    for (AuditEvent event : events) {
      String line = event.toJson();
      assertFalse(line.contains("\n"), line);
      parsed.add(JSON.readTree(line));
    }
    return parsed;
  }

  @Test
  void createAtRequestResponseHasBothObjectsOnItsLaterStage() throws IOException {
    build("- level: RequestResponse\n");
    ApiResponse response = call("jane", "POST", ROLES, Map.of(), role("r1"));
    assertEquals(201, response.status());
    List<JsonNode> lines = lines();
    assertEquals(2, lines.size());
    JsonNode received = lines.get(0);
    JsonNode complete = lines.get(1);
    String id = response.header("Audit-ID");
    assertEquals(id, UUID.fromString(id).toString());
    assertEquals(
        JSON.readTree(
            """
            {"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse",
             "auditID":"THE-ID","stage":"RequestReceived",
             "requestURI":"/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles",
             "verb":"create",
             "user":{"username":"jane","uid":"u-1","groups":["dev","system:authenticated"],
                     "extra":{"scopes":["a","b"]}},
             "sourceIPs":["10.0.0.1","10.0.0.2","192.0.2.7"],
             "userAgent":"kubectl/v1.33.0 (linux/amd64)",
             "objectRef":{"resource":"roles","namespace":"ns",
                          "apiGroup":"rbac.authorization.k8s.io","apiVersion":"v1"},
             "requestReceivedTimestamp":"T","stageTimestamp":"T"}
            """
                .replace("THE-ID", id)
                .replace("\"T\"", "\"" + received.get("requestReceivedTimestamp").asText() + "\"")),
        received);
    assertTrue(MICROS.matcher(received.get("requestReceivedTimestamp").asText()).matches());
    assertEquals(received.get("requestReceivedTimestamp"), received.get("stageTimestamp"));
    assertEquals("ResponseComplete", complete.get("stage").asText());
    assertEquals(id, complete.get("auditID").asText());
    assertEquals(JSON.readTree("{\"metadata\":{},\"code\":201}"), complete.get("responseStatus"));
    assertEquals(
        JSON.readTree(
            "{\"resource\":\"roles\",\"namespace\":\"ns\",\"name\":\"r1\","
                + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"apiVersion\":\"v1\"}"),
        complete.get("objectRef"));
    assertEquals(JSON.readTree(role("r1")), complete.get("requestObject"));
    assertEquals("r1", complete.at("/responseObject/metadata/name").asText());
    assertFalse(complete.at("/responseObject/metadata/uid").asText().isEmpty());
    assertEquals(
        JSON.readTree(
            "{\"authorization.k8s.io/decision\":\"allow\",\"authorization.k8s.io/reason\":"
                + "\"jane may\"}"),
        complete.get("annotations"));
    assertTrue(MICROS.matcher(complete.get("stageTimestamp").asText()).matches());
  }

  @Test
  void objectsArePresentExactlyAtTheirLevels() throws IOException {
    for (String level : List.of("Metadata", "Request", "RequestResponse")) {
      events.clear();
      build("- level: " + level + "\n");
      call("jane", "POST", ROLES, Map.of(), role("r"));
      JsonNode complete = lines().get(1);
      assertEquals(level, complete.get("level").asText());
      assertEquals(!level.equals("Metadata"), complete.has("requestObject"), level);
      assertEquals(level.equals("RequestResponse"), complete.has("responseObject"), level);
      assertEquals("r", complete.at("/objectRef/name").asText(), level);
    }
  }

  @Test
  void omitManagedFieldsLeavesThemOutOfBothObjectsAndListItems() throws IOException {
    build("- level: RequestResponse\n  omitManagedFields: true\n");
    call("jane", "POST", ROLES, Map.of(), role("r1"));
    call("jane", "GET", ROLES, Map.of(), null);
    List<JsonNode> lines = lines();
    JsonNode create = lines.get(1);
    assertTrue(create.at("/requestObject/metadata").has("name"));
    assertFalse(create.at("/requestObject/metadata").has("managedFields"));
    assertFalse(create.at("/responseObject/metadata").has("managedFields"));
    JsonNode list = lines.get(3);
    assertEquals("list", list.get("verb").asText());
    assertEquals("r1", list.at("/responseObject/items/0/metadata/name").asText());
    assertFalse(list.at("/responseObject/items/0/metadata").has("managedFields"));

    events.clear();
    build("- level: RequestResponse\n");
    call("jane", "POST", ROLES, Map.of(), role("r2"));
    assertTrue(lines().get(1).at("/requestObject/metadata").has("managedFields"));
  }

  @Test
  void forbiddenRequestHasForbidDecisionAndStatus() throws IOException {
    build("- level: RequestResponse\n");
    ApiResponse response = call(null, "GET", ROLES + "/r1", Map.of(), null);
    assertEquals(403, response.status());
    JsonNode complete = lines().get(1);
    assertEquals("get", complete.get("verb").asText());
    assertEquals(JSON.readTree("{\"username\":\"system:anonymous\"}"), complete.get("user"));
    assertEquals(
        JSON.readTree(
            "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"roles.rbac.authorization.k8s.io"
                + " \\\"r1\\\" is forbidden: User \\\"system:anonymous\\\" cannot get resource"
                + " \\\"roles\\\" in API group \\\"rbac.authorization.k8s.io\\\" in the namespace"
                + " \\\"ns\\\"\",\"reason\":\"Forbidden\",\"details\":{\"name\":\"r1\",\"group\":"
                + "\"rbac.authorization.k8s.io\",\"kind\":\"roles\"},\"code\":403}"),
        complete.get("responseStatus"));
    assertEquals(
        JSON.readTree(
            "{\"authorization.k8s.io/decision\":\"forbid\",\"authorization.k8s.io/reason\":\"\"}"),
        complete.get("annotations"));
    assertEquals("Status", complete.at("/responseObject/kind").asText());
  }

  @Test
  void failedAuthenticationIsOneResponseStartedEventWithoutUser() throws IOException {
    build("- level: Metadata\n  users: [jane]\n- level: Request\n");
    ApiResponse response = call("forged", "GET", ROLES, Map.of(), null);
    assertEquals(401, response.status());
    List<JsonNode> lines = lines();
    assertEquals(1, lines.size());
    JsonNode event = lines.get(0);
    assertEquals(response.header("Audit-ID"), event.get("auditID").asText());
    assertEquals("ResponseStarted", event.get("stage").asText());
    assertEquals("Request", event.get("level").asText());
    assertEquals(JSON.readTree("{}"), event.get("user"));
    assertEquals("list", event.get("verb").asText());
    assertEquals(
        JSON.readTree(
            "{\"metadata\":{},\"message\":\"Authentication failed, attempted: bearer\","
                + "\"code\":401}"),
        event.get("responseStatus"));
    assertFalse(event.has("annotations"));
  }

  @Test
  void failedAuthenticationNamesTheCredentialsTried() throws IOException {
    build("- level: Metadata\n");
    for (String header : List.of("Basic amFuZTpwdw==", "Token xyz")) {
      server.handle(
          new ApiRequest(
              "GET",
              "/version",
              Map.of(),
              Map.of("Authorization", List.of(header)),
              new ByteArrayInputStream(new byte[0])));
    }
    List<JsonNode> lines = lines();
    assertEquals(
        "Authentication failed, attempted: basic",
        lines.get(0).at("/responseStatus/message").asText());
    assertEquals(
        "Authentication failed, no credentials provided",
        lines.get(1).at("/responseStatus/message").asText());
    assertFalse(lines.get(1).has("objectRef"));
    assertEquals("get", lines.get(1).get("verb").asText());
  }

  @Test
  void notFoundAndNonResourceRequests() throws IOException {
    build("- level: Metadata\n");
    assertEquals(404, call("jane", "GET", ROLES + "/missing", Map.of(), null).status());
    assertEquals(200, call("jane", "GET", "/version", Map.of(), null).status());
    List<JsonNode> lines = lines();
    JsonNode missing = lines.get(1);
    assertEquals(404, missing.at("/responseStatus/code").asInt());
    assertEquals("NotFound", missing.at("/responseStatus/reason").asText());
    assertEquals(
        "roles.rbac.authorization.k8s.io \"missing\" not found",
        missing.at("/responseStatus/message").asText());
    assertFalse(missing.has("responseObject"));
    JsonNode version = lines.get(3);
    assertEquals("get", version.get("verb").asText());
    assertFalse(version.has("objectRef"));
    assertEquals(JSON.readTree("{\"metadata\":{},\"code\":200}"), version.get("responseStatus"));
  }

  @Test
  void watchHasResponseStartedThenResponseComplete() throws IOException {
    build("- level: Metadata\n");
    ApiResponse response =
        call(
            "jane",
            "GET",
            ROLES,
            Map.of("watch", List.of("true"), "timeoutSeconds", List.of("1")),
            null);
    assertTrue(response.isStreaming());
    assertEquals(1, events.size());
    response.writeBody(new ByteArrayOutputStream());
    List<JsonNode> lines = lines();
    assertEquals(
        List.of("RequestReceived", "ResponseStarted", "ResponseComplete"),
        lines.stream().map(l -> l.get("stage").asText()).toList());
    assertEquals("watch", lines.get(1).get("verb").asText());
    assertEquals(200, lines.get(1).at("/responseStatus/code").asInt());
    assertEquals(200, lines.get(2).at("/responseStatus/code").asInt());
    assertEquals(
        "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles?watch=true&timeoutSeconds=1",
        lines.get(0).get("requestURI").asText());
    assertNotNull(response.header("Audit-ID"));
  }

  /** Kubernetes' "sleep+403 longrunning": a refused watch starts and completes its response. */
  @Test
  void refusedWatchHasResponseStartedThenResponseComplete() throws IOException {
    build("- level: Metadata\n");
    ApiResponse response =
        call(
            null,
            "GET",
            ROLES,
            Map.of("watch", List.of("true"), "timeoutSeconds", List.of("1")),
            null);
    assertEquals(403, response.status());
    List<JsonNode> lines = lines();
    assertEquals(
        List.of(
            "RequestReceived watch 0", "ResponseStarted watch 403", "ResponseComplete watch 403"),
        lines.stream()
            .map(
                l ->
                    l.get("stage").asText()
                        + " "
                        + l.get("verb").asText()
                        + " "
                        + l.at("/responseStatus/code").asInt())
            .toList());
  }

  /** Kubernetes' "emit Panic only": every other stage omitted. */
  @Test
  void onlyPanicRecorded() throws IOException {
    Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    server =
        ApiServer.builder(scheme)
            .authorizer(
                attributes -> {
                  throw new IllegalStateException("kaboom");
                })
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n"
                        + "  omitStages: [RequestReceived, ResponseStarted, ResponseComplete]\n"),
                events::add)
            .build();
    assertEquals(500, server.handleAs(UserInfo.of("u", List.of()), get("/version")).status());
    assertEquals(List.of(Stage.PANIC), events.stream().map(AuditEvent::stage).toList());
  }

  @Test
  void omittedStagesAndLevelNone() throws IOException {
    build(
        "- level: None\n  nonResourceURLs: [/version]\n"
            + "- level: Metadata\n  omitStages: [RequestReceived]\n");
    ApiResponse version = call("jane", "GET", "/version", Map.of(), null);
    assertNotNull(version.header("Audit-ID"));
    assertEquals(0, events.size());
    call("jane", "GET", ROLES, Map.of(), null);
    assertEquals(List.of(Stage.RESPONSE_COMPLETE), events.stream().map(AuditEvent::stage).toList());
  }

  @Test
  void auditIdOfTheRequestIsKept() throws IOException {
    build("- level: Metadata\n");
    ApiResponse response =
        server.handle(
            new ApiRequest(
                "GET",
                "/version",
                Map.of(),
                Map.of("Audit-ID", List.of("my-id"), "Authorization", List.of("Bearer jane")),
                new ByteArrayInputStream(new byte[0])));
    assertEquals("my-id", response.header("Audit-ID"));
    assertEquals("my-id", lines().get(1).get("auditID").asText());
    assertEquals("/version", lines().get(1).get("requestURI").asText());
  }

  @Test
  void impersonatedUserOnTheLaterStages() throws IOException {
    build("- level: Metadata\n");
    server.handle(
        new ApiRequest(
            "GET",
            ROLES,
            Map.of(),
            Map.of(
                "Authorization", List.of("Bearer root"),
                "Impersonate-User", List.of("bob"),
                "Impersonate-Group", List.of("team")),
            new ByteArrayInputStream(new byte[0])));
    List<JsonNode> lines = lines();
    assertEquals("root", lines.get(0).at("/user/username").asText());
    assertFalse(lines.get(0).has("impersonatedUser"));
    assertEquals(
        JSON.readTree("{\"username\":\"bob\",\"groups\":[\"team\",\"system:authenticated\"]}"),
        lines.get(1).get("impersonatedUser"));
    assertEquals("root", lines.get(1).at("/user/username").asText());
  }

  @Test
  void failureThatIsNotTheRequestsIsPanic() throws IOException {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .authorizer(
                attributes -> {
                  throw new IllegalStateException("boom");
                })
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"),
                events::add)
            .build();
    ApiResponse response = server.handleAs(UserInfo.of("u", List.of()), get("/version"));
    assertEquals(500, response.status());
    JsonNode panic = lines().get(1);
    assertEquals("Panic", panic.get("stage").asText());
    assertEquals(
        JSON.readTree(
            "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"APIServer panic'd:"
                + " java.lang.IllegalStateException: boom\",\"reason\":\"InternalError\","
                + "\"code\":500}"),
        panic.get("responseStatus"));
    assertNotNull(response.header("Audit-ID"));
  }

  @Test
  void withoutAuditingThereIsNoAuditIdHeader() {
    Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    ApiServer plain = ApiServer.builder(scheme).build();
    assertEquals(null, plain.handle(get("/version")).header("Audit-ID"));
  }

  private ApiResponse send(
      String method, String path, Map<String, List<String>> headers, String body) {
    Map<String, List<String>> all = new LinkedHashMap<>(headers);
    all.put("Authorization", List.of("Bearer jane"));
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            all,
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void yamlBodyAndPatchAreRecordedAsJson() throws IOException {
    build("- level: Request\n");
    ApiResponse created =
        send(
            "POST",
            ROLES,
            Map.of("Content-Type", List.of("application/yaml")),
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: y\nrules: []\n");
    assertEquals(201, created.status());
    ApiResponse patched =
        send(
            "PATCH",
            ROLES + "/y",
            Map.of("Content-Type", List.of("application/merge-patch+json")),
            "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
    assertEquals(200, patched.status());
    List<JsonNode> lines = lines();
    assertEquals(
        JSON.readTree(
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                + "\"metadata\":{\"name\":\"y\"},\"rules\":[]}"),
        lines.get(1).get("requestObject"));
    assertFalse(lines.get(1).has("responseObject"));
    JsonNode patch = lines.get(3);
    assertEquals("patch", patch.get("verb").asText());
    assertEquals("y", patch.at("/objectRef/name").asText());
    assertEquals(
        JSON.readTree("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"), patch.get("requestObject"));
  }

  @Test
  void bodyOverTheLimitIsRefusedAsBeforeAndNotRecorded() throws IOException {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .maxRequestBodyBytes(64)
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Request\n"),
                events::add)
            .build();
    ApiResponse response =
        server.handleAs(
            UserInfo.of("u", List.of("system:masters")),
            new ApiRequest(
                "POST",
                ROLES,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(
                    role("a-name-long-enough").getBytes(StandardCharsets.UTF_8))));
    assertEquals(413, response.status());
    JsonNode complete = lines().get(1);
    assertEquals(413, complete.at("/responseStatus/code").asInt());
    assertEquals("RequestEntityTooLarge", complete.at("/responseStatus/reason").asText());
    assertFalse(complete.has("requestObject"));
  }

  @Test
  void sourceIpsAreForwardedThenRealThenPeerEachOnce() throws IOException {
    build("- level: Metadata\n");
    server.handle(
        new ApiRequest(
            "GET",
            "/version",
            Map.of(),
            Map.of(
                "X-Forwarded-For", List.of("203.0.113.9, not-an-ip, 2001:db8::1"),
                "X-Real-Ip", List.of("203.0.113.9")),
            new ByteArrayInputStream(new byte[0]),
            List.of(),
            "192.0.2.7",
            "/version"));
    assertEquals(
        JSON.readTree("[\"203.0.113.9\",\"2001:db8::1\",\"192.0.2.7\"]"),
        lines().get(0).get("sourceIPs"));
  }

  /** Kubernetes' TestMaybeTruncateUserAgent: 1024 characters, then "...TRUNCATED". */
  @Test
  void longUserAgentIsTruncated() throws IOException {
    build("- level: Metadata\n");
    String agent = "a".repeat(2048);
    server.handle(
        new ApiRequest(
            "GET",
            "/version",
            Map.of(),
            Map.of("User-Agent", List.of(agent)),
            new ByteArrayInputStream(new byte[0])));
    assertEquals("a".repeat(1024) + "...TRUNCATED", lines().get(0).get("userAgent").asText());
    events.clear();
    server.handle(
        new ApiRequest(
            "GET",
            "/version",
            Map.of(),
            Map.of("User-Agent", List.of("a".repeat(1024))),
            new ByteArrayInputStream(new byte[0])));
    assertEquals("a".repeat(1024), lines().get(0).get("userAgent").asText());
  }

  @Test
  void timesAreMicrosecondsInUtc() {
    assertEquals(
        "2026-11-25T23:47:31.123456Z",
        AuditEvent.formatTime(Instant.parse("2026-11-25T23:47:31.123456789Z")));
    assertEquals(
        "2026-01-02T03:04:05.000000Z",
        AuditEvent.formatTime(Instant.parse("2026-01-02T03:04:05Z")));
  }

  private static ApiRequest get(String path) {
    return new ApiRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]));
  }
}
