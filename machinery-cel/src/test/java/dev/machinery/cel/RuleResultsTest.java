package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a failed rule reports, as kube-apiserver: the message or {@code failed rule: <rule>}, the
 * message expression's text, the reason's error type, the {@code fieldPath}'s path, the schema's
 * type as the value; where {@code self} is a resource, a map, an object that keeps unknown fields;
 * transition rules with {@code oldSelf} and {@code optionalOldSelf}.
 */
class RuleResultsTest {
  private static final ValidationRules RULES = CelValidationRules.create();

  private static List<String> validate(JSONSchemaProps schema, String object, String old) {
    // These schemas are about evaluation: some leave strings and lists unbounded, and a
    // messageExpression with string(int) has no known size, so kube-apiserver (and check) would
    // refuse them for their estimated cost (CostLimitsTest); every other problem is checked.
    assertEquals(
        List.of(),
        RULES.check(schema, FieldPath.of("spec", "validation")).stream()
            .filter(e -> !CostLimitsTest.isCostRefusal(e))
            .toList());
    Map<String, Object> previous = old == null ? null : Schemas.object(old);
    return RULES.compile(schema).validate(Schemas.object(object), previous).stream()
        .map(FieldError::toString)
        .toList();
  }

  private static final JSONSchemaProps REPLICAS =
      Schemas.spec(
          """
          type: object
          properties:
            replicas:
              type: integer
              x-kubernetes-validations:
              - rule: self < 10
                message: must be less than 10
            minReplicas:
              type: integer
          x-kubernetes-validations:
          - rule: self.minReplicas <= self.replicas
            messageExpression: "'minReplicas ' + string(self.minReplicas) + ' is greater than replicas ' + string(self.replicas)"
          - rule: self.replicas != 7
            reason: FieldValueForbidden
            fieldPath: .replicas
            message: seven is not allowed
          - rule: self.replicas != 8
            reason: FieldValueRequired
          - rule: self.replicas != 9
            reason: FieldValueDuplicate
          """);

  @Test
  void reportsTheMessageAtTheNodeWithTheSchemaTypeAsValue() {
    assertEquals(
        List.of("spec.replicas: Invalid value: \"integer\": must be less than 10"),
        validate(REPLICAS, "spec: {replicas: 11, minReplicas: 1}", null));
  }

  @Test
  void reportsTheMessageExpression() {
    assertEquals(
        List.of("spec: Invalid value: \"object\": minReplicas 3 is greater than replicas 2"),
        validate(REPLICAS, "spec: {replicas: 2, minReplicas: 3}", null));
  }

  @Test
  void reportsReasonsAndFieldPaths() {
    assertEquals(
        List.of("spec.replicas: Forbidden: seven is not allowed"),
        validate(REPLICAS, "spec: {replicas: 7, minReplicas: 1}", null));
    assertEquals(
        List.of("spec: Required value: failed rule: self.replicas != 8"),
        validate(REPLICAS, "spec: {replicas: 8, minReplicas: 1}", null));
    assertEquals(
        List.of("spec: Duplicate value: \"object\""),
        validate(REPLICAS, "spec: {replicas: 9, minReplicas: 1}", null));
  }

  @Test
  void fallsBackToTheMessageWhenTheMessageExpressionFails() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              name: {type: string}
            x-kubernetes-validations:
            - rule: self.name != 'x'
              message: name may not be x
              messageExpression: "'bad ' + string(1 / (size(self.name) - 1))"
            - rule: self.name != 'y'
              messageExpression: "'   '"
            """);
    assertEquals(
        List.of("spec: Invalid value: \"object\": name may not be x"),
        validate(schema, "spec: {name: x}", null));
    assertEquals(
        List.of("spec: Invalid value: \"object\": failed rule: self.name != 'y'"),
        validate(schema, "spec: {name: y}", null));
  }

  @Test
  void bindsTheRootAsAResourceWithItsNameAndKind() {
    JSONSchemaProps schema =
        Schemas.schema(
            """
            type: object
            x-kubernetes-validations:
            - rule: self.metadata.name.startsWith('app-') && self.kind == 'Thing' && self.apiVersion == 'example.com/v1'
              message: names start with app-
            properties:
              spec: {type: object, properties: {x: {type: integer}}}
            """);
    String object = "{apiVersion: example.com/v1, kind: Thing, metadata: {name: %s}}";
    assertEquals(List.of(), validate(schema, object.formatted("app-1"), null));
    assertEquals(
        List.of("<nil>: Invalid value: \"object\": names start with app-"),
        validate(schema, object.formatted("db-1"), null));
  }

  @Test
  void bindsEmbeddedResourcesMapsAndObjectsThatKeepUnknownFields() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
                x-kubernetes-validations:
                - rule: self.kind == 'Pod' && self.metadata.generateName == 'p-'
              labels:
                type: object
                additionalProperties: {type: string}
                x-kubernetes-validations:
                - rule: self.all(k, k.startsWith('x-') && self[k].size() < 5)
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                x-kubernetes-validations:
                - rule: self.anything == 1
            """);
    assertEquals(
        List.of(),
        validate(
            schema,
            "spec: {template: {apiVersion: v1, kind: Pod, metadata: {generateName: p-}},"
                + " labels: {x-a: b}, extra: {anything: 1}}",
            null));
    assertEquals(
        List.of(
            "spec.template: Invalid value: \"object\": failed rule: self.kind == 'Pod' &&"
                + " self.metadata.generateName == 'p-'",
            "spec.labels: Invalid value: \"object\": failed rule: self.all(k, k.startsWith('x-')"
                + " && self[k].size() < 5)",
            "spec.extra: Invalid value: \"object\": failed rule: self.anything == 1"),
        validate(
            schema,
            "spec: {template: {kind: Job, metadata: {generateName: p-}}, labels: {a: b},"
                + " extra: {anything: 2}}",
            null));
  }

  @Test
  void evaluatesRulesOnEveryItemAndMapValueWithItsPath() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              ports:
                type: array
                items:
                  type: integer
                  x-kubernetes-validations: [{rule: self > 0, message: must be positive}]
              weights:
                type: object
                additionalProperties:
                  type: integer
                  x-kubernetes-validations: [{rule: self <= 100}]
            """);
    assertEquals(
        List.of(
            "spec.ports[1]: Invalid value: \"integer\": must be positive",
            "spec.weights[b]: Invalid value: \"integer\": failed rule: self <= 100"),
        validate(schema, "spec: {ports: [1, 0, 2], weights: {a: 1, b: 200}}", null));
  }

  private static final JSONSchemaProps IMMUTABLE =
      Schemas.spec(
          """
          type: object
          properties:
            name:
              type: string
              x-kubernetes-validations:
              - rule: self == oldSelf
                message: name is immutable
            size:
              type: integer
              x-kubernetes-validations:
              - rule: "!oldSelf.hasValue() || self >= oldSelf.value()"
                message: size may only grow
                optionalOldSelf: true
              - rule: self >= 0
            items:
              type: array
              x-kubernetes-list-type: map
              x-kubernetes-list-map-keys: [key]
              items:
                type: object
                required: [key]
                properties:
                  key: {type: string}
                  value:
                    type: string
                    x-kubernetes-validations:
                    - rule: self == oldSelf
                      message: value is immutable
          """);

  @Test
  void transitionRulesAreSkippedOnCreate() {
    assertEquals(List.of(), validate(IMMUTABLE, "spec: {name: a, size: 1}", null));
  }

  @Test
  void transitionRulesCompareWithTheOldValue() {
    assertEquals(
        List.of(
            "spec.name: Invalid value: \"string\": name is immutable",
            "spec.size: Invalid value: \"integer\": size may only grow"),
        validate(IMMUTABLE, "spec: {name: b, size: 1}", "spec: {name: a, size: 2}"));
    assertEquals(
        List.of(), validate(IMMUTABLE, "spec: {name: a, size: 3}", "spec: {name: a, size: 2}"));
  }

  @Test
  void optionalOldSelfRulesRunWithoutAnOldValue() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              size:
                type: integer
                x-kubernetes-validations:
                - rule: "oldSelf.hasValue() || self == 0"
                  message: new sizes start at zero
                  optionalOldSelf: true
            """);
    assertEquals(
        List.of("spec.size: Invalid value: \"integer\": new sizes start at zero"),
        validate(schema, "spec: {size: 1}", null));
    assertEquals(List.of(), validate(schema, "spec: {size: 1}", "spec: {size: 0}"));
  }

  @Test
  void mapListItemsAreComparedWithTheOldItemOfTheSameKey() {
    assertEquals(
        List.of("spec.items[1].value: Invalid value: \"string\": value is immutable"),
        validate(
            IMMUTABLE,
            "spec: {items: [{key: c, value: '3'}, {key: a, value: '9'}, {key: b, value: '2'}]}",
            "spec: {items: [{key: a, value: '1'}, {key: b, value: '2'}]}"));
  }
}
