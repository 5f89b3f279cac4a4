package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Core {@code v1} Events and {@code events.k8s.io/v1} Events are one resource, as kube-apiserver
 * serves them: both kept as core {@code v1} Events under {@code events/}, each read in the shape of
 * the group asked for (Kubernetes' {@code pkg/apis/events/v1} conversions), with that group's field
 * selectors (its field label conversion), Table columns and managed fields.
 */
@Timeout(120)
class CohabitingEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CORE = "/api/v1/namespaces/ev/events";
  private static final String GROUP = "/apis/events.k8s.io/v1/namespaces/ev/events";

  private ApiServer server;

  private ApiServer start(ApiServer.Builder builder) {
    server = builder.build();
    assertEquals(
        201,
        call(
                "POST",
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ev\"}}",
                Map.of())
            .status());
    return server;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.storage().close();
    }
  }

  private ApiResponse call(String method, String path, String body, Map<String, String> query) {
    return call(method, path, body, query, "application/json");
  }

  private ApiResponse call(
      String method, String path, String body, Map<String, String> query, String accept) {
    return Requests.call(server, method, path, body, query, "application/json", accept);
  }

  private JsonNode ok(ApiResponse response, int status) throws IOException {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.status(), text);
    return JSON.readTree(text);
  }

  private JsonNode get(String path) throws IOException {
    return ok(call("GET", path, null, Map.of()), 200);
  }

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static final String CORE_EVENT =
      "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"pulled\"},"
          + "\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"ev\",\"name\":\"web\","
          + "\"fieldPath\":\"spec.containers{web}\"},"
          + "\"reason\":\"Pulled\",\"message\":\"image pulled\","
          + "\"source\":{\"component\":\"kubelet\",\"host\":\"node-1\"},"
          + "\"firstTimestamp\":\"2026-11-30T01:00:00Z\",\"lastTimestamp\":\"2026-11-30T01:05:00Z\","
          + "\"count\":3,\"type\":\"Normal\",\"reportingComponent\":\"kubelet\","
          + "\"reportingInstance\":\"node-1\"}";

  private static final String GROUP_EVENT =
      "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"bound\"},"
          + "\"eventTime\":\"2026-11-30T01:00:00.123456Z\",\"reportingController\":\"scheduler\","
          + "\"reportingInstance\":\"scheduler-1\",\"action\":\"Binding\",\"reason\":\"Scheduled\","
          + "\"regarding\":{\"kind\":\"Pod\",\"namespace\":\"ev\",\"name\":\"web\"},"
          + "\"note\":\"assigned ev/web to node-1\",\"type\":\"Normal\"}";

  @Test
  void aCoreEventReadsThroughTheEventsGroupWithThatGroupsNames() throws IOException {
    start(BuiltinKinds.apiServer());
    JsonNode created = ok(call("POST", CORE, CORE_EVENT, Map.of()), 201);
    JsonNode read = get(GROUP + "/pulled");
    assertEquals("events.k8s.io/v1", read.get("apiVersion").asText());
    assertEquals("Event", read.get("kind").asText());
    assertEquals(created.at("/metadata/uid"), read.at("/metadata/uid"));
    assertEquals(created.at("/metadata/resourceVersion"), read.at("/metadata/resourceVersion"));
    assertEquals("web", read.at("/regarding/name").asText());
    assertEquals("spec.containers{web}", read.at("/regarding/fieldPath").asText());
    assertEquals("image pulled", read.get("note").asText());
    assertEquals("kubelet", read.get("reportingController").asText());
    assertEquals("node-1", read.get("reportingInstance").asText());
    assertEquals("node-1", read.at("/deprecatedSource/host").asText());
    assertEquals("2026-11-30T01:00:00Z", read.get("deprecatedFirstTimestamp").asText());
    assertEquals("2026-11-30T01:05:00Z", read.get("deprecatedLastTimestamp").asText());
    assertEquals(3, read.get("deprecatedCount").asInt());
    // The fields of events.k8s.io/v1's Go type, in its order, and none of the core names.
    assertEquals(
        List.of(
            "apiVersion",
            "kind",
            "metadata",
            "reportingController",
            "reportingInstance",
            "reason",
            "regarding",
            "note",
            "type",
            "deprecatedSource",
            "deprecatedFirstTimestamp",
            "deprecatedLastTimestamp",
            "deprecatedCount"),
        fieldNames(read));
    // The core read is unchanged by the other group's read.
    JsonNode core = get(CORE + "/pulled");
    assertEquals("image pulled", core.get("message").asText());
    assertEquals("web", core.at("/involvedObject/name").asText());
    assertFalse(core.has("note"));
  }

  @Test
  void anEventsGroupEventIsStoredAsACoreEventUnderTheCoreKey() throws IOException {
    start(BuiltinKinds.apiServer());
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);
    KeyValue stored = server.storage().get("events/ev/bound").orElseThrow();
    JsonNode value = JSON.readTree(stored.value());
    assertEquals("v1", value.get("apiVersion").asText());
    assertEquals("web", value.at("/involvedObject/name").asText());
    assertEquals("assigned ev/web to node-1", value.get("message").asText());
    assertEquals("scheduler", value.get("reportingComponent").asText());
    assertFalse(value.has("note") || value.has("regarding") || value.has("reportingController"));
    assertTrue(server.storage().get("events.k8s.io/events/ev/bound").isEmpty());

    JsonNode core = get(CORE + "/bound");
    assertEquals("v1", core.get("apiVersion").asText());
    assertEquals("assigned ev/web to node-1", core.get("message").asText());
    assertEquals("Binding", core.get("action").asText());
    assertEquals("2026-11-30T01:00:00.123456Z", core.get("eventTime").asText());
    assertEquals(
        List.of(
            "apiVersion",
            "kind",
            "metadata",
            "involvedObject",
            "reason",
            "message",
            "type",
            "eventTime",
            "action",
            "reportingComponent",
            "reportingInstance"),
        fieldNames(core));
  }

  @Test
  void inProtobufTheValueIsAKubernetesCoreEventMessage() throws IOException {
    start(BuiltinKinds.apiServer().storageMediaType(StorageMediaType.PROTOBUF));
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);
    byte[] value = server.storage().get("events/ev/bound").orElseThrow().value();
    // The k8s\0 envelope, then its TypeMeta: apiVersion "v1", kind "Event".
    byte[] head = {
      'k', '8', 's', 0, 0x0a, 0x0b, 0x0a, 0x02, 'v', '1', 0x12, 0x05, 'E', 'v', 'e', 'n', 't'
    };
    assertArrayEquals(head, Arrays.copyOf(value, head.length));
    assertEquals("assigned ev/web to node-1", get(CORE + "/bound").get("message").asText());
    assertEquals("assigned ev/web to node-1", get(GROUP + "/bound").get("note").asText());
  }

  @Test
  void listsAndWatchesOfEitherGroupHoldTheEventsOfBoth() throws Exception {
    start(BuiltinKinds.apiServer());
    ok(call("POST", CORE, CORE_EVENT, Map.of()), 201);
    JsonNode list = get(GROUP);
    String version = list.at("/metadata/resourceVersion").asText();
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);
    ok(
        call(
            "POST",
            CORE,
            CORE_EVENT.replace("\"name\":\"pulled\"", "\"name\":\"started\""),
            Map.of()),
        201);

    List<String> names = new ArrayList<>();
    for (JsonNode item : get(CORE).get("items")) {
      names.add(item.at("/metadata/name").asText());
    }
    assertEquals(List.of("bound", "pulled", "started"), names);
    names.clear();
    for (JsonNode item : get(GROUP).get("items")) {
      assertEquals("events.k8s.io/v1", item.get("apiVersion").asText());
      assertTrue(item.has("regarding") && !item.has("involvedObject"), item.toString());
      names.add(item.at("/metadata/name").asText());
    }
    assertEquals(List.of("bound", "pulled", "started"), names);

    // A watch from the list's version replays both writes, then ends after its timeout.
    ApiResponse watch =
        call(
            "GET",
            GROUP,
            null,
            Map.of("watch", "true", "resourceVersion", version, "timeoutSeconds", "1"));
    assertEquals(200, watch.status());
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    watch.writeBody(body);
    try (InputStream stream = new ByteArrayInputStream(body.toByteArray())) {
      Iterator<JsonNode> events = JSON.readerFor(JsonNode.class).readValues(stream);
      JsonNode first = events.next();
      JsonNode second = events.next();
      assertEquals("ADDED", first.get("type").asText());
      assertEquals("bound", first.at("/object/metadata/name").asText());
      assertEquals("started", second.at("/object/metadata/name").asText());
      // The core write is seen through the events group in that group's shape.
      assertEquals("events.k8s.io/v1", second.at("/object/apiVersion").asText());
      assertEquals("image pulled", second.at("/object/note").asText());
      assertTrue(second.at("/object/message").isMissingNode());
    }
  }

  private List<String> selected(String path, String selector) throws IOException {
    List<String> names = new ArrayList<>();
    for (JsonNode item :
        ok(call("GET", path, null, Map.of("fieldSelector", selector)), 200).get("items")) {
      names.add(item.at("/metadata/name").asText());
    }
    return names;
  }

  @Test
  void eachGroupSelectsByItsOwnFieldNames() throws IOException {
    start(BuiltinKinds.apiServer());
    ok(call("POST", CORE, CORE_EVENT, Map.of()), 201);
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);

    assertEquals(List.of("bound", "pulled"), selected(GROUP, "regarding.name=web"));
    assertEquals(List.of("bound"), selected(GROUP, "reportingController=scheduler"));
    assertEquals(List.of("pulled"), selected(GROUP, "regarding.fieldPath=spec.containers{web}"));
    assertEquals(List.of("bound"), selected(GROUP, "reason=Scheduled,type=Normal"));
    assertEquals(List.of("bound", "pulled"), selected(CORE, "involvedObject.name=web"));
    assertEquals(List.of("bound"), selected(CORE, "reportingComponent=scheduler"));
    // An Event without a source is selected by its reporting controller, in both groups.
    assertEquals(List.of("bound"), selected(CORE, "source=scheduler"));
    assertEquals(List.of("bound"), selected(GROUP, "source=scheduler"));
    assertEquals(List.of("pulled"), selected(GROUP, "source=kubelet"));

    ApiResponse refused =
        call("GET", GROUP, null, Map.of("fieldSelector", "involvedObject.name=web"));
    assertEquals(400, refused.status());
    assertTrue(
        new String(refused.body(), StandardCharsets.UTF_8)
            .contains("field label not supported: involvedObject.name"));
  }

  @Test
  void aTableOfTheEventsGroupHasTheCoreColumns() throws IOException {
    start(BuiltinKinds.apiServer());
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);
    String table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    JsonNode group = ok(call("GET", GROUP, null, Map.of(), table), 200);
    JsonNode core = ok(call("GET", CORE, null, Map.of(), table), 200);
    assertEquals(core.get("columnDefinitions"), group.get("columnDefinitions"));
    List<String> columns = new ArrayList<>();
    group.get("columnDefinitions").forEach(c -> columns.add(c.get("name").asText()));
    JsonNode cells = group.at("/rows/0/cells");
    assertEquals("pod/web", cells.get(columns.indexOf("Object")).asText());
    assertEquals("assigned ev/web to node-1", cells.get(columns.indexOf("Message")).asText());
    // kube's printer: the source, or else the reporting controller and instance.
    assertEquals("scheduler, scheduler-1", cells.get(columns.indexOf("Source")).asText());
    assertEquals(core.at("/rows/0/cells"), cells);
  }

  private static Optional<JsonNode> managedBy(JsonNode object, String manager) {
    for (JsonNode entry : object.at("/metadata/managedFields")) {
      if (entry.get("manager").asText().equals(manager)) {
        return Optional.of(entry);
      }
    }
    return Optional.empty();
  }

  @Test
  void updatesAndAppliesThroughTheEventsGroupOwnOnlyWhatTheyChange() throws IOException {
    start(BuiltinKinds.apiServer());
    ok(call("POST", GROUP, GROUP_EVENT, Map.of("fieldManager", "scheduler")), 201);
    JsonNode read = get(GROUP + "/bound");
    ((com.fasterxml.jackson.databind.node.ObjectNode) read).put("type", "Warning");
    ok(
        call(
            "PUT",
            GROUP + "/bound",
            JSON.writeValueAsString(read),
            Map.of("fieldManager", "editor")),
        200);
    JsonNode updated = get(GROUP + "/bound");
    JsonNode editor = managedBy(updated, "editor").orElseThrow();
    assertEquals("events.k8s.io/v1", editor.get("apiVersion").asText());
    assertEquals(List.of("f:type"), fieldNames(editor.at("/fieldsV1")));
    JsonNode scheduler = managedBy(updated, "scheduler").orElseThrow();
    assertTrue(scheduler.at("/fieldsV1/f:note").isObject(), scheduler.toString());
    assertTrue(scheduler.at("/fieldsV1/f:regarding").isObject(), scheduler.toString());
    assertTrue(scheduler.at("/fieldsV1/f:type").isMissingNode(), scheduler.toString());

    // Server-side apply reads the stored core Event in the events group's shape too.
    ApiResponse applied =
        Requests.call(
            server,
            "PATCH",
            GROUP + "/bound",
            "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\","
                + "\"metadata\":{\"name\":\"bound\"},\"type\":\"Normal\"}",
            Map.of("fieldManager", "applier", "force", "true"),
            "application/apply-patch+yaml",
            "application/json");
    JsonNode after = ok(applied, 200);
    assertEquals("assigned ev/web to node-1", after.get("note").asText());
    assertEquals("Normal", after.get("type").asText());
    assertFalse(after.has("message") || after.has("involvedObject"), after.toString());
    assertEquals(
        List.of("f:type"), fieldNames(managedBy(after, "applier").orElseThrow().at("/fieldsV1")));
    assertTrue(managedBy(after, "editor").isEmpty(), "the applier took type from the editor");
    assertEquals("Normal", get(CORE + "/bound").get("type").asText());
  }

  @Test
  void eventsOfTheEventsGroupAreEncryptedAsCoreEvents() throws IOException {
    String key = Base64.getEncoder().encodeToString(new byte[32]);
    EncryptionConfiguration configuration =
        EncryptionConfiguration.parse(
            ("apiVersion: apiserver.config.k8s.io/v1\n"
                    + "kind: EncryptionConfiguration\n"
                    + "resources:\n"
                    + "- resources: [events]\n"
                    + "  providers:\n"
                    + "  - aescbc:\n"
                    + "      keys:\n"
                    + "      - name: key1\n"
                    + "        secret: "
                    + key
                    + "\n"
                    + "  - identity: {}\n")
                .getBytes(StandardCharsets.UTF_8),
            "encryption.yaml");
    start(BuiltinKinds.apiServer().encryption(configuration));
    ok(call("POST", GROUP, GROUP_EVENT, Map.of()), 201);
    ok(call("POST", CORE, CORE_EVENT, Map.of()), 201);
    for (String name : List.of("bound", "pulled")) {
      byte[] value = server.storage().get("events/ev/" + name).orElseThrow().value();
      assertTrue(
          new String(value, StandardCharsets.ISO_8859_1).startsWith("k8s:enc:aescbc:v1:key1:"),
          name);
    }
    assertEquals("image pulled", get(GROUP + "/pulled").get("note").asText());
    assertEquals("assigned ev/web to node-1", get(CORE + "/bound").get("message").asText());
  }
}
