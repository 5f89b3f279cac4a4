package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rules that would take unbounded work stop at the runtime cost limits, with kube-apiserver's
 * errors, rather than run on (each case takes well under a second here): nested comprehensions over
 * large lists, regular expressions on megabytes of text (RE2, linear), many rules that together
 * pass the budget of one object.
 */
class HostileRulesTest {
  /** A guard against a hang, not a measure of speed: generous for a loaded machine. */
  private static final Duration QUICKLY = Duration.ofSeconds(60);

  private static Map<String, Object> withList(int size) {
    List<Object> items = new ArrayList<>();
    for (long i = 0; i < size; i++) {
      items.add(i);
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("items", items);
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("spec", spec);
    return object;
  }

  private static List<String> run(
      ValidationRules rules, JSONSchemaProps schema, Map<String, Object> object) {
    return assertTimeoutPreemptively(
        QUICKLY,
        () ->
            rules.compile(schema).validate(object, null).stream()
                .map(FieldError::toString)
                .toList());
  }

  @Test
  void nestedComprehensionsStopAtTheCallLimit() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              items: {type: array, items: {type: integer}}
            x-kubernetes-validations:
            - rule: self.items.all(x, self.items.all(y, self.items.all(z, x + y + z >= 0)))
            - rule: self.items.size() > 0
            """);
    assertEquals(
        List.of(
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no"
                + " further validation rules will be run due to call cost exceeds limit for rule:"
                + " self.items.all(x, self.items.all(y, self.items.all(z, x + y + z >= 0)))"),
        run(CelValidationRules.create(), schema, withList(1000)));
  }

  @Test
  void manyRulesStopAtTheBudgetOfTheObject() {
    StringBuilder rules = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      rules
          .append("- rule: self.items.all(x, self.items.all(y, x + y >= ")
          .append(-i)
          .append("))\n");
    }
    JSONSchemaProps schema =
        Schemas.spec(
            "type: object\nproperties:\n  items: {type: array, items: {type: integer}}\n"
                + "x-kubernetes-validations:\n"
                + rules);
    List<String> errors = run(CelValidationRules.create(), schema, withList(200));
    assertEquals(
        List.of(
            "spec: Invalid value: \"object\": validation failed due to running out of cost budget,"
                + " no further validation rules will be run"),
        errors);
  }

  @Test
  void hugeStringsAndBacktrackingPatternsFinishInLinearTime() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              text:
                type: string
                x-kubernetes-validations:
                - rule: "self.matches('^(a|aa)+$')"
                - rule: "self.find('(a*)*b') == ''"
            """);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("text", "a".repeat(1_000_000) + "!");
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("spec", spec);
    assertEquals(
        List.of("spec.text: Invalid value: \"string\": failed rule: self.matches('^(a|aa)+$')"),
        run(CelValidationRules.create(), schema, object));
  }

  @Test
  void smallerLimitsStopSooner() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              items: {type: array, items: {type: integer}}
            x-kubernetes-validations:
            - rule: self.items.all(x, x >= 0)
            """);
    assertEquals(List.of(), run(CelValidationRules.create(), schema, withList(1000)));
    assertEquals(
        List.of(
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no"
                + " further validation rules will be run due to call cost exceeds limit for rule:"
                + " self.items.all(x, x >= 0)"),
        run(CelValidationRules.withLimits(100, 1_000_000), schema, withList(1000)));
  }

  @Test
  void deeplyNestedRulesAreRefusedWhenTheDefinitionIsWritten() {
    String rule = "(".repeat(5000) + "true" + ")".repeat(5000);
    JSONSchemaProps schema =
        Schemas.spec("type: object\nx-kubernetes-validations:\n- rule: '" + rule + "'\n");
    List<String> errors =
        assertTimeoutPreemptively(
            QUICKLY,
            () ->
                CelValidationRules.create()
                    .check(schema, dev.machinery.unversioned.validation.FieldPath.of("s"))
                    .stream()
                    .map(FieldError::toString)
                    .toList());
    assertEquals(1, errors.size(), errors::toString);
    String error = errors.get(0);
    assertEquals(
        "s.properties[spec].x-kubernetes-validations[0].rule: Invalid value:",
        error.substring(0, error.indexOf(':', error.indexOf("Invalid value")) + 1));
    org.junit.jupiter.api.Assertions.assertTrue(
        error.contains(": compilation failed: ERROR: <input>:1:"), error.substring(0, 300));
  }

  @Test
  void refusesLimitsThatAreNotPositive() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CelValidationRules.withLimits(0, 5));
    assertEquals("cost limits must be positive, got perCallLimit 0 and budget 5", e.getMessage());
  }
}
