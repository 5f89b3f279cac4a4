package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server with CustomResourceDefinitions switched on serves a definition's kind once it is
 * Established, prunes, defaults and validates its objects by the schema, and stops serving it when
 * the definition is deleted.
 */
class CustomResourceDefinitionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final Scheme SCHEME =
      ApiextensionsV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();

  static final String CRONTAB_CRD =
      """
      {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
       "metadata": {"name": "crontabs.stable.example.com"},
       "spec": {"group": "stable.example.com", "scope": "Namespaced",
        "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab",
                  "shortNames": ["ct"], "categories": ["all"]},
        "versions": [
         {"name": "v1beta1", "served": true, "storage": false,
          "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
         {"name": "v1", "served": true, "storage": true,
          "subresources": {"status": {},
            "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
          "additionalPrinterColumns": [
            {"name": "Spec", "type": "string", "jsonPath": ".spec.cronSpec"},
            {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"}],
          "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "required": ["cronSpec"], "properties": {
              "cronSpec": {"type": "string", "pattern": "^(\\\\d+|\\\\*)(/\\\\d+)?(\\\\s+(\\\\d+|\\\\*)(/\\\\d+)?){4}$"},
              "image": {"type": "string", "default": "busybox"},
              "color": {"type": "string", "enum": ["red", "green"]},
              "replicas": {"type": "integer", "minimum": 1, "maximum": 10}}},
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]}}
      """;

  private ApiServer server;

  @BeforeEach
  void start() {
    server = ApiServer.builder(SCHEME).customResourceDefinitions().build();
  }

  @Test
  void servesAnEstablishedDefinitionsKindAndForgetsItWhenDeleted() throws Exception {
    ApiResponse created =
        request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRONTAB_CRD);
    assertEquals(201, created.status(), text(created));
    JsonNode crd = awaitEstablished("crontabs.stable.example.com");
    assertEquals(
        "NoConflicts", condition(crd, "NamesAccepted").get("reason").asText(), crd.toString());
    assertEquals("[\"v1\"]", crd.at("/status/storedVersions").toString());
    assertEquals("CronTabList", crd.at("/status/acceptedNames/listKind").asText());
    assertEquals(
        JSON.readTree(CRONTAB_CRD).at("/spec/versions"),
        crd.at("/spec/versions"),
        "the versions read back as written, no field added");
    assertEquals("{\"strategy\":\"None\"}", crd.at("/spec/conversion").toString());

    JsonNode resources = json(request("GET", "/apis/stable.example.com/v1", null));
    assertEquals(
        List.of("crontabs", "crontabs/status", "crontabs/scale"),
        names(resources),
        resources.toString());
    JsonNode group = json(request("GET", "/apis/stable.example.com", null));
    assertEquals("v1", group.at("/preferredVersion/version").asText());
    assertEquals(2, group.get("versions").size());

    JsonNode openApi = json(request("GET", "/openapi/v3/apis/stable.example.com/v1", null));
    JsonNode cronTab = openApi.at("/components/schemas/com.example.stable.v1.CronTab");
    assertEquals("string", cronTab.at("/properties/spec/properties/cronSpec/type").asText());
    assertEquals(
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        cronTab.at("/properties/metadata/$ref").asText());
    assertEquals(
        "[{\"group\":\"stable.example.com\",\"kind\":\"CronTab\",\"version\":\"v1\"}]",
        cronTab.get("x-kubernetes-group-version-kind").toString());

    ApiResponse cron =
        request(
            "POST",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            """
            {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
             "metadata": {"name": "my-cron"},
             "spec": {"cronSpec": "* * * * */5", "replicas": 2, "extra": 1}}
            """);
    assertEquals(201, cron.status(), text(cron));
    JsonNode body = json(cron);
    assertEquals("busybox", body.at("/spec/image").asText(), "defaulted");
    assertTrue(body.at("/spec/extra").isMissingNode(), "pruned: " + body);
    assertEquals(
        List.of("299 - \"unknown field \\\"spec.extra\\\"\""), cron.headers().get("Warning"));
    assertEquals(1, body.at("/metadata/generation").asLong());

    JsonNode old =
        json(
            request(
                "GET",
                "/apis/stable.example.com/v1beta1/namespaces/default/crontabs/my-cron",
                null));
    assertEquals("stable.example.com/v1beta1", old.get("apiVersion").asText());

    JsonNode scale =
        json(
            request(
                "GET",
                "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron/scale",
                null));
    assertEquals(2, scale.at("/spec/replicas").asInt(), scale.toString());

    ApiResponse scaled =
        request(
            "PUT",
            "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron/scale",
            "{\"apiVersion\": \"autoscaling/v1\", \"kind\": \"Scale\","
                + " \"metadata\": {\"name\": \"my-cron\", \"namespace\": \"default\"},"
                + " \"spec\": {\"replicas\": 5}}");
    assertEquals(200, scaled.status(), text(scaled));
    JsonNode afterScale =
        json(
            request(
                "GET", "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron", null));
    assertEquals(5, afterScale.at("/spec/replicas").asInt(), afterScale.toString());
    assertEquals(2, afterScale.at("/metadata/generation").asInt(), "a spec change bumps it");

    ApiResponse status =
        request(
            "PUT",
            "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron/status",
            afterScale
                .toString()
                .replace(
                    "\"spec\":{", "\"status\":{\"replicas\":4},\"spec\":{\"image\":\"ignored\","));
    assertEquals(200, status.status(), text(status));
    JsonNode afterStatus = json(status);
    assertEquals(4, afterStatus.at("/status/replicas").asInt(), afterStatus.toString());
    assertEquals(
        "busybox", afterStatus.at("/spec/image").asText(), "the status subresource keeps the spec");

    ApiResponse table =
        request(
            "GET",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            null,
            Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
    JsonNode rows = json(table);
    assertEquals(
        "[\"my-cron\",\"* * * * */5\",5]", rows.at("/rows/0/cells").toString(), rows.toString());

    assertEquals(
        "[\"customresourcecleanup.apiextensions.k8s.io\"]",
        crd.at("/metadata/finalizers").toString(),
        "held for cleanup, as kube-apiserver holds a deleted definition: " + crd);
    ApiResponse deleted =
        request(
            "DELETE",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com",
            null);
    assertEquals(200, deleted.status(), text(deleted));
    JsonNode terminating = json(deleted);
    assertTrue(
        terminating.at("/metadata/deletionTimestamp").isTextual(),
        "a delete the finalizer holds answers the object: " + terminating);
    long deadline = System.nanoTime() + 60_000_000_000L;
    ApiResponse gone;
    ApiResponse discovery;
    do {
      Thread.sleep(10);
      gone =
          request("GET", "/apis/stable.example.com/v1/namespaces/default/crontabs/my-cron", null);
      discovery = request("GET", "/apis/stable.example.com/v1", null);
    } while ((gone.status() != 404 || discovery.status() != 404) && System.nanoTime() < deadline);
    assertEquals(404, gone.status());
    assertEquals(404, discovery.status());
    // The cleanup finalizer held the definition until its objects were deleted, then went.
    ApiResponse definition;
    do {
      Thread.sleep(10);
      definition =
          request(
              "GET",
              "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com",
              null);
    } while (definition.status() != 404 && System.nanoTime() < deadline);
    assertEquals(404, definition.status(), text(definition));
  }

  @Test
  void refusesObjectsTheSchemaRefusesWithKubeApiserversMessages() throws Exception {
    establishCronTabs();
    ApiResponse refused =
        request(
            "POST",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            """
            {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
             "metadata": {"name": "bad"},
             "spec": {"cronSpec": "nope", "replicas": 11, "color": "blue", "image": 5}}
            """);
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "CronTab.stable.example.com \"bad\" is invalid: ["
            + "spec.cronSpec: Invalid value: \"nope\": spec.cronSpec in body should match"
            + " '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', "
            + "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal"
            + " to 10, "
            + "spec.color: Unsupported value: \"blue\": supported values: \"red\", \"green\", "
            + "spec.image: Invalid value: \"integer\": spec.image in body must be of type string:"
            + " \"integer\"]",
        json(refused).get("message").asText());
    ApiResponse strict =
        request(
            "POST",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"CronTab\","
                + " \"metadata\": {\"name\": \"s\"}, \"spec\": {\"cronSpec\": \"* * * * *\", \"x\": 1}}",
            Map.of(),
            Map.of("fieldValidation", List.of("Strict")));
    assertEquals(400, strict.status(), text(strict));
    assertEquals(
        "strict decoding error: unknown field \"spec.x\"", json(strict).get("message").asText());
  }

  /**
   * An apply that changes nothing stores nothing, as kube-apiserver answers it (its stored bytes
   * are equal): the object keeps its resourceVersion, although the create wrote the server-set
   * metadata in another order than an update's merge puts them.
   */
  @Test
  void anUnchangedApplyOfACustomObjectKeepsItsResourceVersion() throws Exception {
    establishCronTabs();
    String path = "/apis/stable.example.com/v1/namespaces/default/crontabs/again";
    Map<String, String> apply = Map.of("Content-Type", "application/apply-patch+yaml");
    String config =
        "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"CronTab\","
            + " \"metadata\": {\"name\": \"again\", \"labels\": {\"app\": \"a\"}},"
            + " \"spec\": {\"cronSpec\": \"* * * * *\", \"replicas\": 2}}";
    ApiResponse created =
        request("PATCH", path, config, apply, Map.of("fieldManager", List.of("tool")));
    assertEquals(201, created.status(), text(created));
    String version = json(created).at("/metadata/resourceVersion").asText();
    for (int i = 0; i < 2; i++) {
      ApiResponse again =
          request("PATCH", path, config, apply, Map.of("fieldManager", List.of("tool")));
      assertEquals(200, again.status(), text(again));
      assertEquals(version, json(again).at("/metadata/resourceVersion").asText(), text(again));
    }
    ApiResponse changed =
        request(
            "PATCH",
            path,
            config.replace("\"replicas\": 2", "\"replicas\": 3"),
            apply,
            Map.of("fieldManager", List.of("tool")));
    assertEquals(200, changed.status(), text(changed));
    assertTrue(
        Long.parseLong(json(changed).at("/metadata/resourceVersion").asText())
            > Long.parseLong(version),
        text(changed));
  }

  @Test
  void serverSideApplyReadsCustomObjectsByTheirSchema() throws Exception {
    establishCronTabs();
    String path = "/apis/stable.example.com/v1/namespaces/default/crontabs/applied";
    Map<String, String> apply = Map.of("Content-Type", "application/apply-patch+yaml");
    String config =
        "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"CronTab\","
            + " \"metadata\": {\"name\": \"applied\"},"
            + " \"spec\": {\"cronSpec\": \"* * * * *\", \"replicas\": 2}}";
    ApiResponse created =
        request("PATCH", path, config, apply, Map.of("fieldManager", List.of("tool")));
    assertEquals(201, created.status(), text(created));
    JsonNode object = json(created);
    assertEquals("busybox", object.at("/spec/image").asText(), "the schema's default");
    assertEquals(
        "{\"f:spec\":{\"f:cronSpec\":{},\"f:replicas\":{}}}",
        object.at("/metadata/managedFields/0/fieldsV1").toString());
    ApiResponse conflict =
        request(
            "PATCH",
            path,
            config.replace("\"replicas\": 2", "\"replicas\": 3"),
            apply,
            Map.of("fieldManager", List.of("other")));
    assertEquals(409, conflict.status(), text(conflict));
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"tool\": .spec.replicas",
        json(conflict).path("message").asText());
    ApiResponse unknown =
        request(
            "PATCH",
            path,
            config.replace("\"replicas\": 2", "\"replicaz\": 2"),
            apply,
            Map.of("fieldManager", List.of("tool")));
    assertEquals(400, unknown.status(), text(unknown));
    assertTrue(
        json(unknown)
            .path("message")
            .asText()
            .contains(".spec.replicaz: field not declared in schema"),
        text(unknown));
    // The same object through v1beta1 (conversion None): the v1 manager's fields still conflict.
    ApiResponse beta =
        request(
            "PATCH",
            "/apis/stable.example.com/v1beta1/namespaces/default/crontabs/applied",
            config
                .replace("stable.example.com/v1", "stable.example.com/v1beta1")
                .replace("\"replicas\": 2", "\"replicas\": 4"),
            apply,
            Map.of("fieldManager", List.of("beta")));
    assertEquals(409, beta.status(), text(beta));
  }

  @Test
  void concurrentAppliesEachRecordTheirOwnManager() throws Exception {
    establishCronTabs();
    Map<String, String> apply = Map.of("Content-Type", "application/apply-patch+yaml");
    int threads = 8;
    int each = 20;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    List<java.util.concurrent.Future<List<String>>> results = new java.util.ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String manager = "m" + t;
      results.add(
          pool.submit(
              () -> {
                List<String> wrong = new java.util.ArrayList<>();
                for (int i = 0; i < each; i++) {
                  String name = manager + "-" + i;
                  ApiResponse r =
                      request(
                          "PATCH",
                          "/apis/stable.example.com/v1/namespaces/default/crontabs/" + name,
                          "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"CronTab\","
                              + " \"metadata\": {\"name\": \""
                              + name
                              + "\"}, \"spec\": {\"cronSpec\": \"* * * * *\", \"replicas\": "
                              + (1 + i % 9)
                              + "}}",
                          apply,
                          Map.of("fieldManager", List.of(manager)));
                  JsonNode entries = json(r).at("/metadata/managedFields");
                  if (r.status() != 201
                      || entries.size() != 1
                      || !entries.get(0).path("manager").asText().equals(manager)) {
                    wrong.add(name + ": " + r.status() + " " + entries);
                  }
                }
                return wrong;
              }));
    }
    List<String> wrong = new java.util.ArrayList<>();
    for (var result : results) {
      wrong.addAll(result.get(60, java.util.concurrent.TimeUnit.SECONDS));
    }
    pool.shutdown();
    assertEquals(List.of(), wrong);
  }

  @Test
  void aDefaultAddedToTheSchemaLaterShowsWhenObjectsAreRead() throws Exception {
    establishCronTabs();
    String path = "/apis/stable.example.com/v1/namespaces/default/crontabs/c";
    assertEquals(
        201,
        request(
                "POST",
                "/apis/stable.example.com/v1/namespaces/default/crontabs",
                "{\"apiVersion\": \"stable.example.com/v1\", \"kind\": \"CronTab\","
                    + " \"metadata\": {\"name\": \"c\"}, \"spec\": {\"cronSpec\": \"* * * * *\"}}")
            .status());
    assertTrue(json(request("GET", path, null)).at("/spec/color").isMissingNode());

    JsonNode crd =
        json(
            request(
                "GET",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com",
                null));
    ((com.fasterxml.jackson.databind.node.ObjectNode)
            crd.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/color"))
        .put("default", "green");
    ApiResponse updated =
        request(
            "PUT",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com",
            crd.toString());
    assertEquals(200, updated.status(), text(updated));
    long deadline = System.nanoTime() + 60_000_000_000L;
    JsonNode read;
    do {
      Thread.sleep(5);
      read = json(request("GET", path, null));
    } while (read.at("/spec/color").isMissingNode() && System.nanoTime() < deadline);
    assertEquals("green", read.at("/spec/color").asText(), read.toString());
  }

  @Test
  void refusesADefinitionWhoseNameIsNotPluralDotGroup() throws Exception {
    ApiResponse refused =
        request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            CRONTAB_CRD.replace("\"crontabs.stable.example.com\"", "\"crons.stable.example.com\""));
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "CustomResourceDefinition.apiextensions.k8s.io \"crons.stable.example.com\" is invalid:"
            + " metadata.name: Invalid value: \"crons.stable.example.com\": must be"
            + " spec.names.plural+\".\"+spec.group",
        json(refused).get("message").asText());
  }

  @Test
  void refusesCelRulesWithoutACelImplementation() throws Exception {
    String withRule =
        CRONTAB_CRD.replace(
            "\"spec\": {\"type\": \"object\", \"required\"",
            "\"spec\": {\"type\": \"object\", \"x-kubernetes-validations\": [{\"rule\":"
                + " \"self.replicas < 5\"}], \"required\"");
    ApiResponse refused =
        request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", withRule);
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "CustomResourceDefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" is"
            + " invalid: spec.versions[1].schema.openAPIV3Schema.properties[spec]"
            + ".x-kubernetes-validations[0].rule: Forbidden: CEL validation rules are not supported"
            + " by this server: it was built without a CEL implementation (ValidationRules), so"
            + " the rule could not be enforced",
        json(refused).get("message").asText());
  }

  @Test
  void aSecondDefinitionOfTakenNamesIsNotEstablished() throws Exception {
    establishCronTabs();
    String other =
        CRONTAB_CRD
            .replace("\"crontabs.stable.example.com\"", "\"crontables.stable.example.com\"")
            .replace("\"plural\": \"crontabs\"", "\"plural\": \"crontables\"")
            .replace("\"singular\": \"crontab\"", "\"singular\": \"crontable\"")
            .replace("\"shortNames\": [\"ct\"]", "\"shortNames\": [\"ctb\"]");
    assertEquals(
        201,
        request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", other).status());
    JsonNode crd = awaitCondition("crontables.stable.example.com", "NamesAccepted");
    JsonNode accepted = condition(crd, "NamesAccepted");
    assertEquals("False", accepted.get("status").asText());
    assertEquals("KindConflict", accepted.get("reason").asText());
    assertEquals("\"CronTab\" is already in use", accepted.get("message").asText());
    assertEquals("False", condition(crd, "Established").get("status").asText());
  }

  /**
   * A custom object's numbers are read and written as kube-apiserver's Go decoding into
   * unstructured values reads and writes them: a number written with a fraction or an exponent is a
   * float64, valid for an {@code integer} field when its value is whole (go-openapi's check), and
   * written back as Go writes a float64 ({@code 2.0} as {@code 2}, {@code 1e3} as {@code 1000},
   * {@code 2.5} as it came), so that a Go client reading the field into an integer can.
   */
  @Test
  void numbersAreWrittenBackAsGoWritesThem() throws Exception {
    establishCronTabs();
    ApiResponse created =
        request(
            "POST",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            """
            {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
             "metadata": {"name": "floats"},
             "spec": {"cronSpec": "* * * * *", "replicas": 2.0}}
            """);
    assertEquals(201, created.status(), text(created));
    String path = "/apis/stable.example.com/v1/namespaces/default/crontabs/floats";
    for (JsonNode read : List.of(json(created), json(request("GET", path, null)))) {
      assertEquals("2", read.at("/spec/replicas").toString(), read.toString());
    }
    ApiResponse exponent = mergePatch(path, "{\"spec\": {\"replicas\": 3e0}}");
    assertEquals(200, exponent.status(), text(exponent));
    assertEquals("3", json(exponent).at("/spec/replicas").toString());
    ApiResponse half = mergePatch(path, "{\"spec\": {\"replicas\": 2.5}}");
    assertEquals(422, half.status(), text(half));
    assertTrue(
        json(half)
            .get("message")
            .asText()
            .contains("spec.replicas in body must be of type integer"),
        text(half));
  }

  /**
   * A label's or annotation's null value is read as {@code ""}, as kube-apiserver's decoding of a
   * custom object's {@code ObjectMeta} reads it (a manifest's {@code app:} with no value): it was
   * answered {@code 500}.
   */
  @Test
  void aNullLabelOrAnnotationValueIsAnEmptyString() throws Exception {
    establishCronTabs();
    ApiResponse created =
        request(
            "POST",
            "/apis/stable.example.com/v1/namespaces/default/crontabs",
            """
            {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
             "metadata": {"name": "empty", "labels": {"app": null}, "annotations": {"note": null}},
             "spec": {"cronSpec": "* * * * *"}}
            """);
    assertEquals(201, created.status(), text(created));
    JsonNode read =
        json(
            request(
                "GET",
                "/apis/stable.example.com/v1/namespaces/default/crontabs",
                null,
                Map.of(),
                Map.of("labelSelector", List.of("app="))));
    assertEquals(1, read.get("items").size(), read.toString());
    assertEquals("{\"app\":\"\"}", read.at("/items/0/metadata/labels").toString());
    assertEquals("{\"note\":\"\"}", read.at("/items/0/metadata/annotations").toString());
  }

  private ApiResponse mergePatch(String path, String patch) {
    return request("PATCH", path, patch, Map.of("Content-Type", "application/merge-patch+json"));
  }

  /** Creates the CronTab definition and waits until it is established. */
  private void establishCronTabs() throws Exception {
    request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", CRONTAB_CRD);
    awaitEstablished("crontabs.stable.example.com");
  }

  private JsonNode awaitEstablished(String name) throws Exception {
    JsonNode crd = awaitCondition(name, "Established");
    assertEquals("True", condition(crd, "Established").get("status").asText(), crd.toString());
    return crd;
  }

  private JsonNode awaitCondition(String name, String type) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      JsonNode crd =
          json(
              request(
                  "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, null));
      if (condition(crd, type) != null || System.nanoTime() > deadline) {
        return crd;
      }
      Thread.sleep(5);
    }
  }

  private static JsonNode condition(JsonNode crd, String type) {
    for (JsonNode condition : crd.at("/status/conditions")) {
      if (condition.get("type").asText().equals(type)) {
        return condition;
      }
    }
    return null;
  }

  private static List<String> names(JsonNode resources) {
    List<String> names = new java.util.ArrayList<>();
    resources.get("resources").forEach(r -> names.add(r.get("name").asText()));
    return names;
  }

  private ApiResponse request(String method, String path, String body) {
    return request(method, path, body, Map.of());
  }

  private ApiResponse request(
      String method, String path, String body, Map<String, String> headers) {
    return request(method, path, body, headers, Map.of());
  }

  private ApiResponse request(
      String method,
      String path,
      String body,
      Map<String, String> headers,
      Map<String, List<String>> query) {
    Map<String, List<String>> h = new LinkedHashMap<>();
    headers.forEach((k, v) -> h.put(k, List.of(v)));
    if (body != null) {
      h.putIfAbsent("Content-Type", List.of("application/json"));
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            query,
            h,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) throws Exception {
    return JSON.readTree(response.body());
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
