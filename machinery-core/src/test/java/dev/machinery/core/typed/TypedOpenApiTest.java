package dev.machinery.core.typed;

import static dev.machinery.core.fieldpath.PathElement.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.fieldpath.PathElement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schemas from OpenAPI: Kubernetes v1.33's own definitions of Deployment, Service and Pod, checked
 * against managedFields kube-apiserver wrote, and custom resource schemas with every extension.
 */
class TypedOpenApiTest {
  static final Schema KUBE =
      OpenApiSchemas.fromOpenApi(resource("kube-v1.33-swagger-apps-core.json"));

  /**
   * The fields kube-apiserver never records as owned (its field manager strips them before
   * computing a manager's set).
   */
  static final FieldSet STRIPPED =
      FieldSet.of(
          FieldPath.of("apiVersion"),
          FieldPath.of("kind"),
          FieldPath.of("metadata", "name"),
          FieldPath.of("metadata", "namespace"),
          FieldPath.of("metadata", "creationTimestamp"),
          FieldPath.of("metadata", "selfLink"),
          FieldPath.of("metadata", "uid"),
          FieldPath.of("metadata", "generation"),
          FieldPath.of("metadata", "managedFields"),
          FieldPath.of("metadata", "resourceVersion"));

  static JsonNode resource(String name) {
    try (InputStream in = TypedOpenApiTest.class.getResourceAsStream("/typed/" + name)) {
      byte[] bytes = in.readAllBytes();
      return name.endsWith(".json")
          ? new ObjectMapper().readTree(bytes)
          : SmdSchemas.YAML.readTree(bytes);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The FieldsV1 lines of the real managedFields, by their description. */
  static String managedFields(String description) {
    try (InputStream in =
            TypedOpenApiTest.class.getResourceAsStream("/fieldpath/managed-fields.txt");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      List<String> lines = new ArrayList<>(reader.lines().toList());
      return lines.get(lines.indexOf("# " + description) + 1);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Stream<Arguments> realObjects() {
    return Stream.of(
        Arguments.of(
            "io.k8s.api.apps.v1.Deployment",
            "deployment-kubectl-create.yaml",
            "apps/v1 Deployment, manager kubectl-create"),
        Arguments.of(
            "io.k8s.api.core.v1.Service",
            "service-client-side-apply.yaml",
            "v1 Service, manager kubectl-client-side-apply"),
        Arguments.of(
            "io.k8s.api.core.v1.Pod",
            "pod-status.yaml",
            "v1 Pod, manager Go-http-client, subresource status"));
  }

  /**
   * The field set of the object holds exactly the leaves kube-apiserver recorded for the manager
   * that wrote it (atomic selectors and status lists as one field, empty structs as fields, list
   * elements by their keys), and every element of an associative list it recorded. Kube-apiserver
   * computes an update's set by comparing the old object with the new, which also records a map or
   * struct that the write added as a member; ToFieldSet does not, so only leaves and list elements
   * are compared.
   */
  @ParameterizedTest
  @MethodSource("realObjects")
  void fieldSetsOfRealObjects(String type, String object, String manager) {
    FieldSet real = FieldsV1.parse(managedFields(manager));
    FieldSet computed = KUBE.type(type).toFieldSet(resource(object)).difference(STRIPPED);
    assertEquals(real.leaves(), computed.leaves());
    for (FieldPath path : real) {
      PathElement last = path.elements().get(path.size() - 1);
      if (last instanceof PathElement.Key || last instanceof PathElement.Value) {
        assertTrue(computed.has(path), path.toString());
      }
    }
  }

  @Test
  void deploymentFieldsAsKubeApiserverWritesThem() {
    JsonNode deployment = resource("deployment-kubectl-create.yaml");
    FieldSet fields = KUBE.type("io.k8s.api.apps.v1.Deployment").toFieldSet(deployment);
    FieldPath image =
        FieldPath.of("spec", "template", "spec", "containers", key("name", "nginx"), "image");
    assertTrue(fields.has(image));
    assertTrue(
        fields.has(FieldPath.of("spec", "template", "spec", "containers", key("name", "nginx"))));
    assertTrue(fields.has(FieldPath.of("spec", "selector"))); // LabelSelector: map-type atomic
    assertTrue(fields.has(FieldPath.of("spec", "template", "spec", "securityContext"))); // {}
    assertTrue(fields.has(FieldPath.of("metadata", "labels", "app")));
    assertEquals(
        "{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},"
            + "\"f:imagePullPolicy\":{},\"f:name\":{},\"f:resources\":{},"
            + "\"f:terminationMessagePath\":{},\"f:terminationMessagePolicy\":{}}},"
            + "\"f:dnsPolicy\":{},\"f:restartPolicy\":{},\"f:schedulerName\":{},"
            + "\"f:securityContext\":{},\"f:terminationGracePeriodSeconds\":{}}",
        FieldsV1.toJson(
            fields
                .children()
                .get(PathElement.field("spec"))
                .children()
                .get(PathElement.field("template"))
                .children()
                .get(PathElement.field("spec"))));
  }

  @Test
  void builtInSchemaShapes() {
    Atom podSpec = KUBE.namedType("io.k8s.api.core.v1.PodSpec");
    ListAtom containers = KUBE.resolve(podSpec.map().field("containers").type()).list();
    assertEquals(ElementRelationship.ASSOCIATIVE, containers.relationship());
    assertEquals(List.of("name"), containers.keys());
    ListAtom ports =
        KUBE.resolve(KUBE.namedType("io.k8s.api.core.v1.Container").map().field("ports").type())
            .list();
    assertEquals(List.of("containerPort", "protocol"), ports.keys());
    assertEquals(
        ElementRelationship.ATOMIC,
        KUBE.namedType("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector").map().relationship());
    assertEquals(
        Atom.scalar(ScalarType.UNTYPED),
        KUBE.namedType("io.k8s.apimachinery.pkg.api.resource.Quantity"));
    assertEquals(
        Atom.scalar(ScalarType.UNTYPED),
        KUBE.namedType("io.k8s.apimachinery.pkg.util.intstr.IntOrString"));
    // finalizers: patch strategy merge without a key is a set
    ListAtom finalizers =
        KUBE.resolve(
                KUBE.namedType("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
                    .map()
                    .field("finalizers")
                    .type())
            .list();
    assertEquals(ListAtom.set(finalizers.elementType()), finalizers);
    // a struct with properties and nothing else refuses undeclared fields
    assertNull(podSpec.map().elementType());
    TypedException e =
        assertThrows(
            TypedException.class,
            () ->
                KUBE.type("io.k8s.api.apps.v1.Deployment")
                    .validate(SmdSchemas.yaml("{\"spec\":{\"replica\":1}}")));
    assertEquals(".spec.replica: field not declared in schema", e.getMessage());
  }

  static final JsonNode CRD_SCHEMA =
      SmdSchemas.yaml(
          """
          type: object
          properties:
            apiVersion: {type: string}
            kind: {type: string}
            metadata: {type: object}
            spec:
              type: object
              properties:
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [port, protocol]
                  items:
                    type: object
                    required: [port]
                    properties:
                      port: {type: integer}
                      protocol: {type: string, default: TCP}
                      name: {type: string}
                tags:
                  type: array
                  x-kubernetes-list-type: set
                  items: {type: string}
                args:
                  type: array
                  items: {type: string}
                selector:
                  type: object
                  x-kubernetes-map-type: atomic
                  additionalProperties: {type: string}
                labels:
                  type: object
                  additionalProperties: {type: string}
                size:
                  x-kubernetes-int-or-string: true
                  anyOf: [{type: integer}, {type: string}]
                config:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    mode: {type: string}
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
          """);

  @Test
  void customResourceFieldSet() {
    SchemaType widget = OpenApiSchemas.fromSchema("Widget", CRD_SCHEMA, false).type("Widget");
    JsonNode object =
        SmdSchemas.yaml(
            """
            apiVersion: example.com/v1
            kind: Widget
            metadata: {name: w, labels: {a: b}}
            spec:
              ports:
              - {port: 80, name: http}
              - {port: 53, protocol: UDP}
              tags: [blue, red]
              args: [--verbose, --verbose]
              selector: {app: w}
              labels: {tier: web}
              size: 50%
              config:
                mode: fast
                extra: {deep: {er: 1}}
              template:
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: c}
                data: {k: v}
            """);
    assertEquals(
        "{\"f:apiVersion\":{},\"f:kind\":{},\"f:metadata\":{\"f:labels\":{\".\":{},\"f:a\":{}},"
            + "\"f:name\":{}},\"f:spec\":{\"f:args\":{},\"f:config\":{\"f:extra\":{\".\":{},"
            + "\"f:deep\":{\".\":{},\"f:er\":{}}},\"f:mode\":{}},\"f:labels\":{\"f:tier\":{}},"
            + "\"f:ports\":{\"k:{\\\"port\\\":53,\\\"protocol\\\":\\\"UDP\\\"}\":{\".\":{},"
            + "\"f:port\":{},\"f:protocol\":{}},\"k:{\\\"port\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":"
            + "{\".\":{},\"f:name\":{},\"f:port\":{}}},\"f:selector\":{},\"f:size\":{},"
            + "\"f:tags\":{\"v:\\\"blue\\\"\":{},\"v:\\\"red\\\"\":{}},\"f:template\":{"
            + "\"f:apiVersion\":{},\"f:data\":{\".\":{},\"f:k\":{}},\"f:kind\":{},"
            + "\"f:metadata\":{\"f:name\":{}}}}}",
        FieldsV1.toJson(widget.toFieldSet(object)));
  }

  @Test
  void customResourceErrors() {
    SchemaType widget = OpenApiSchemas.fromSchema("Widget", CRD_SCHEMA, false).type("Widget");
    TypedException e =
        assertThrows(
            TypedException.class,
            () ->
                widget.toFieldSet(
                    SmdSchemas.yaml(
                        "{spec: {ports: [{port: 80}, {port: 80, protocol: TCP}], bogus: 1}}")));
    assertEquals(
        "errors:\n"
            + "  .spec.ports: duplicate entries for key [port=80,protocol=\"TCP\"]\n"
            + "  .spec.bogus: field not declared in schema",
        e.getMessage());
    // a key field left out takes its default; one without a default is left out of the key
    assertEquals(
        "{\"f:spec\":{\"f:ports\":{\"k:{\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:name\":{}}}}}",
        FieldsV1.toJson(widget.toFieldSet(SmdSchemas.yaml("{spec: {ports: [{name: x}]}}"))));
  }

  @Test
  void unusableSchemas() {
    JsonNode bad =
        SmdSchemas.yaml(
            """
            definitions:
              a.B:
                type: object
                properties:
                  keyless: {type: array, x-kubernetes-list-type: map, items: {type: object}}
                  odd: {type: array, x-kubernetes-list-type: bag, items: {type: string}}
                  bare: {type: array}
                  mapped: {type: object, x-kubernetes-map-type: loose}
            """);
    TypedException e = assertThrows(TypedException.class, () -> OpenApiSchemas.fromOpenApi(bad));
    assertEquals(
        "errors:\n"
            + "  inlined in a.B: missing map keys\n"
            + "  inlined in a.B: unknown list type bag\n"
            + "  inlined in a.B: `items` must be specified on arrays\n"
            + "  inlined in a.B: unknown map type loose",
        e.getMessage());
  }

  /**
   * A schema converted type by type when first resolved is the schema converted at once, and
   * converts only what it resolves: the Deployment's field set reads its own types, not the
   * document's others.
   */
  @Test
  void lazilyConvertedSchemaEqualsTheWholeAndConvertsWhatItResolves() {
    JsonNode definitions = resource("kube-v1.33-swagger-apps-core.json").path("definitions");
    List<String> names = new ArrayList<>();
    definitions.fieldNames().forEachRemaining(names::add);
    List<String> asked = new ArrayList<>();
    Schema lazy =
        OpenApiSchemas.fromOpenApiLazily(
            names,
            name -> {
              synchronized (asked) {
                asked.add(name);
              }
              return definitions.get(name);
            });
    JsonNode deployment = resource("deployment-kubectl-create.yaml");
    assertEquals(
        KUBE.type("io.k8s.api.apps.v1.Deployment").toFieldSet(deployment),
        lazy.type("io.k8s.api.apps.v1.Deployment").toFieldSet(deployment));
    assertTrue(asked.contains("io.k8s.api.core.v1.Container"), asked.toString());
    assertTrue(!asked.contains("io.k8s.api.core.v1.Service"), asked.toString());
    assertEquals(asked.size(), new java.util.HashSet<>(asked).size(), "each converted once");
    assertNull(lazy.namedType("no.such.Type"));
    assertEquals(
        KUBE.namedType("io.k8s.api.core.v1.PodSpec"), lazy.namedType("io.k8s.api.core.v1.PodSpec"));
    assertEquals(KUBE, lazy);
    Atom podSpec = KUBE.namedType("io.k8s.api.core.v1.PodSpec");
    assertEquals(podSpec.hashCode(), lazy.namedType("io.k8s.api.core.v1.PodSpec").hashCode());
    assertTrue(!podSpec.equals(KUBE.namedType("io.k8s.api.core.v1.Container")));
    assertTrue(!podSpec.equals(new Atom(podSpec.scalar(), podSpec.list(), null)));
    assertTrue(!Atom.scalar(ScalarType.STRING).equals(Atom.scalar(ScalarType.NUMERIC)));
    assertEquals(lazy, KUBE);
    assertEquals(KUBE.hashCode(), lazy.hashCode());
    assertEquals(List.copyOf(KUBE.typeNames()), List.copyOf(lazy.typeNames()));
    assertEquals(names.size(), asked.size());
  }

  /** A type that cannot be converted fails when it is resolved, naming it; the others still do. */
  @Test
  void lazilyConvertedSchemaFailsOnTheTypeThatCannotBeConverted() {
    JsonNode bad =
        SmdSchemas.yaml(
            """
            a.B:
              type: object
              properties:
                odd: {type: array, x-kubernetes-list-type: bag, items: {type: string}}
            a.C:
              type: object
              properties:
                name: {type: string}
            """);
    Schema lazy = OpenApiSchemas.fromOpenApiLazily(List.of("a.B", "a.C"), bad::get);
    JsonNode good =
        SmdSchemas.yaml("{definitions: {a.C: {type: object, properties: {name: {type: string}}}}}");
    assertEquals(OpenApiSchemas.fromOpenApi(good).namedType("a.C"), lazy.namedType("a.C"));
    TypedException e = assertThrows(TypedException.class, () -> lazy.namedType("a.B"));
    assertEquals("inlined in a.B: unknown list type bag", e.getMessage());
  }

  @Test
  void openApiV3ComponentsAndAllOfReferences() {
    JsonNode v3 =
        SmdSchemas.yaml(
            """
            components:
              schemas:
                a.Thing:
                  type: object
                  properties:
                    selector:
                      allOf: [{$ref: '#/components/schemas/a.Selector'}]
                      x-kubernetes-map-type: atomic
                    items:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [name]
                      items:
                        allOf: [{$ref: '#/components/schemas/a.Thing'}]
                    name: {type: string}
                a.Selector:
                  type: object
                  properties:
                    app: {type: string}
            """);
    SchemaType thing = OpenApiSchemas.fromOpenApi(v3).type("a.Thing");
    assertEquals(
        "{\"f:items\":{\"k:{\\\"name\\\":\\\"x\\\"}\":{\".\":{},\"f:items\":{\"k:{\\\"name\\\":"
            + "\\\"y\\\"}\":{\".\":{},\"f:name\":{}}},\"f:name\":{}}},\"f:selector\":{}}",
        FieldsV1.toJson(
            thing.toFieldSet(
                SmdSchemas.yaml("{selector: {app: a}, items: [{name: x, items: [{name: y}]}]}"))));
  }
}
