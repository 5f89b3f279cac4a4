package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Definitions refused for the estimated cost of their rules, as kube-apiserver refuses them, with
 * the cases of Kubernetes' tests (apiextensions-apiserver pkg/apis/apiextensions/validation
 * validation_test.go: the cost cases of TestValidateCustomResourceDefinitionValidation and
 * TestPerCRDEstimatedCost, Kubernetes 1.33): a rule or message expression whose cost, times the
 * number of values it may run on, passes 10,000,000 is refused at its path, and a schema whose
 * rules cost more than 100,000,000 in all is refused at {@code openAPIV3Schema}, each of its four
 * most expensive rules too.
 */
class CostLimitsTest {
  private static final FieldPath ROOT = FieldPath.of("spec", "validation", "openAPIV3Schema");
  private static final String HINT =
      " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays,"
          + " maps, and strings are declared)";

  /** Whether an error is a refusal for estimated cost, at a rule or at the whole schema. */
  static boolean isCostRefusal(FieldError error) {
    String text = error.toString();
    return text.contains(": Forbidden: estimated ")
        || text.contains(": Forbidden: contributed to estimated rule cost total")
        || text.contains(": Forbidden: x-kubernetes-validations estimated rule cost total");
  }

  private static List<String> check(String yaml) {
    JSONSchemaProps schema = Schemas.schema(yaml);
    return CelValidationRules.create().check(schema, ROOT).stream()
        .map(FieldError::toString)
        .toList();
  }

  @Test
  void refusesRulesAndSchemasOverTheLimits() {
    String list =
        "spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule";
    String map =
        "spec.validation.openAPIV3Schema.properties[map].additionalProperties"
            + ".x-kubernetes-validations[0].rule";
    assertEquals(
        List.of(
            list + ": Forbidden: estimated rule cost exceeds budget by factor of 20.0x" + HINT,
            list
                + ": Forbidden: contributed to estimated rule cost total exceeding cost limit for"
                + " entire OpenAPIv3 schema",
            map
                + ": Forbidden: contributed to estimated rule cost total exceeding cost limit for"
                + " entire OpenAPIv3 schema",
            "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule"
                + " cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x"
                + HINT),
        check(
            """
            type: object
            properties:
              list:
                type: array
                maxItems: 100000
                items:
                  type: string
                  maxLength: 5000
                  x-kubernetes-validations:
                  - rule: self.contains('keyword')
              map:
                type: object
                maxProperties: 1000
                additionalProperties:
                  type: string
                  maxLength: 5000
                  x-kubernetes-validations:
                  - rule: self.contains('keyword')
              field:
                type: integer
                x-kubernetes-validations:
                - rule: self > 50 && self < 100
            """));
  }

  @Test
  void refusesAMessageExpressionOverThePerExpressionLimit() {
    // Seven concatenations of strings of up to 3 MiB: a tenth of a unit per character of each
    // result, 11,010,060 in all; a message expression's cost is not multiplied.
    List<String> errors =
        check(
            """
            type: object
            properties:
              f:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: "true"
                  messageExpression: self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]
            """);
    assertEquals(1, errors.size(), errors::toString);
    assertEquals(
        "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0]"
            + ".messageExpression: Forbidden: estimated messageExpression cost exceeds budget by"
            + " factor of 1.101006x"
            + HINT,
        errors.get(0));
  }

  @Test
  void acceptsBoundedNestedLoops() {
    assertEquals(
        List.of(),
        check(
            """
            type: object
            properties:
              f:
                type: array
                maxItems: 5
                items: {type: string, maxLength: 5}
                x-kubernetes-validations:
                - rule: self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))
            """));
  }

  @Test
  void refusesAMessageExpressionOverTheSchemaLimit() {
    String at =
        "spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0]"
            + ".messageExpression";
    List<String> errors =
        check(
            """
            type: object
            properties:
              f:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: "true"
                  messageExpression: string(self[0]) + string(self[1]) + string(self[2])
            """);
    assertEquals(
        List.of(
            at
                + ": Forbidden: estimated messageExpression cost exceeds budget by factor of more"
                + " than 100x"
                + HINT,
            at
                + ": Forbidden: contributed to estimated rule cost total exceeding cost limit for"
                + " entire OpenAPIv3 schema",
            "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule"
                + " cost total for entire OpenAPIv3 schema exceeds budget by factor of more than"
                + " 100x"
                + HINT),
        errors);
  }

  @Test
  void unboundedListsMultiplyARuleByTheItemsTheRequestCouldHold() {
    // A rule on the items of a list without maxItems runs on as many items as 3 MiB can hold:
    // 3145728 / (2 + 1) strings of at least two bytes (""). The rule costs 53 (1 for self, and
    // (256 / 10 + 1) * (8 / 4) for matching 64 characters, 4 bytes each, with an 8-character
    // pattern), 55,574,528 in all.
    List<String> errors =
        check(
            """
            type: object
            properties:
              names:
                type: array
                items:
                  type: string
                  maxLength: 64
                  x-kubernetes-validations:
                  - rule: self.matches('^[a-z]+$')
            """);
    assertEquals(1, errors.size(), errors::toString);
    assertEquals(
        "spec.validation.openAPIV3Schema.properties[names].items.x-kubernetes-validations[0].rule:"
            + " Forbidden: estimated rule cost exceeds budget by factor of 5.6x"
            + HINT,
        errors.get(0));
  }

  static Stream<Arguments> perCrdCosts() {
    long half = Long.divideUnsigned(-1L, 2);
    return Stream.of(
        Arguments.of(List.of(), List.of(), 0L),
        Arguments.of(List.of(1000000L), List.of(1000000L), 1000000L),
        Arguments.of(List.of(900000L), List.of(), 900000L),
        Arguments.of(List.of(5000000L, 25000000L), List.of(25000000L, 5000000L), 30000000L),
        Arguments.of(
            List.of(5000000L, 25000000L, 900000L), List.of(25000000L, 5000000L), 30900000L),
        Arguments.of(
            List.of(16000000L, 50000000L, 34000000L, 50000000L),
            List.of(50000000L, 50000000L, 34000000L, 16000000L),
            150000000L),
        Arguments.of(
            List.of(16000000L, 50000000L, 900000L, 34000000L, 50000000L, 50000001L),
            List.of(50000001L, 50000000L, 50000000L, 34000000L),
            200900001L),
        Arguments.of(List.of(half, half, 1L, 10L, 100L, 1000L), List.of(half, half), -1L));
  }

  @ParameterizedTest
  @MethodSource("perCrdCosts")
  void talliesTheTotalAndTheMostExpensive(List<Long> costs, List<Long> expensive, long total) {
    RuleCompiler.CostTally tally = new RuleCompiler.CostTally();
    for (long cost : costs) {
      tally.observe(ROOT, cost);
    }
    assertEquals(expensive, tally.mostExpensiveCosts());
    assertEquals(total, tally.total());
  }

  static Stream<Arguments> cardinalities() {
    String object = "{type: object, properties: {a: {type: string}}}";
    String array = "{type: array, items: {type: string}}";
    String map = "{type: object, additionalProperties: {type: string}}";
    return Stream.of(
        Arguments.of("object", List.of(object), 1L),
        Arguments.of("array", List.of(withLimit(array, "maxItems", 5)), 5L),
        Arguments.of("unbounded array", List.of(array), null),
        Arguments.of("map", List.of(withLimit(map, "maxProperties", 10)), 10L),
        Arguments.of("unbounded map", List.of(map), null),
        Arguments.of(
            "array inside map",
            List.of(withLimit(map, "maxProperties", 5), withLimit(array, "maxItems", 5)),
            25L),
        Arguments.of(
            "unbounded array inside bounded map",
            List.of(withLimit(map, "maxProperties", 5), array),
            null),
        Arguments.of("object inside array", List.of(withLimit(array, "maxItems", 3), object), 3L),
        Arguments.of(
            "map inside object inside array",
            List.of(withLimit(array, "maxItems", 2), object, withLimit(map, "maxProperties", 4)),
            8L),
        Arguments.of(
            "integer overflow bounds check",
            List.of(
                withLimit(array, "maxItems", Long.MAX_VALUE), withLimit(array, "maxItems", 100)),
            -1L));
  }

  private static String withLimit(String schema, String name, long value) {
    return schema.substring(0, schema.length() - 1) + ", " + name + ": " + value + "}";
  }

  /**
   * How many values a rule at the end of a chain of schemas may run on in one object
   * (TestCostInfo); null when unbounded, -1 the largest unsigned 64-bit number.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cardinalities")
  void countsTheValuesARuleMayRunOnAsKubernetes(String name, List<String> chain, Long expected) {
    Long cardinality = 1L;
    for (String schema : chain) {
      cardinality = RuleCompiler.childCardinality(Schemas.schema(schema), cardinality);
    }
    assertEquals(expected, cardinality, name);
  }

  @Test
  void wordsTheFactorAsKubernetes() {
    assertEquals(
        "estimated rule cost exceeds budget by factor of 1.000000x" + HINT,
        RuleCompiler.costError("estimated rule cost", 10_000_001, 10_000_000));
    assertEquals(
        "estimated rule cost exceeds budget by factor of 1.5x" + HINT,
        RuleCompiler.costError("estimated rule cost", 15_000_000, 10_000_000));
    assertEquals(
        "estimated rule cost exceeds budget by factor of more than 100x" + HINT,
        RuleCompiler.costError("estimated rule cost", -1L, 10_000_000));
  }
}
