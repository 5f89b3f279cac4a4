package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The estimated cost of one rule on a schema's values, against Kubernetes' own table
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go, TestCostEstimation,
 * Kubernetes 1.33): each schema is estimated once with no {@code maxItems}, {@code maxProperties}
 * or {@code maxLength} (sizes from the 3 MiB request limit) and once with them set; a cost of -1
 * means "more than 100,000,000", as Kubernetes' table says for loops that are O(n²) and worse, and
 * a cost of 0 is not checked, as in Kubernetes' table (its {@code has()} rows).
 */
class CostEstimationTest {
  private static final long NO_LIMIT = -1;

  /** A schema as YAML, with or without its limits (a negative limit: none). */
  private interface Schema extends LongFunction<String> {}

  private static String limit(String name, long max) {
    return max < 0 ? "" : ", " + name + ": " + max;
  }

  private static String type(String type) {
    return switch (type) {
      case "duration", "date", "date-time" -> "{type: string, format: " + type + "}";
      case "int-or-string" -> "{x-kubernetes-int-or-string: true}";
      default -> "{type: " + type + "}";
    };
  }

  private static String rule(String rule) {
    return ", x-kubernetes-validations: [{rule: '" + rule.replace("'", "''") + "'}]";
  }

  private static Schema array(String itemType, String rule) {
    return max ->
        "{type: array, items: " + type(itemType) + limit("maxItems", max) + rule(rule) + "}";
  }

  private static Schema arrayOfArrays(String itemType, String rule) {
    return max ->
        "{type: array, items: {type: array, items: "
            + type(itemType)
            + "}"
            + limit("maxItems", max)
            + rule(rule)
            + "}";
  }

  private static final String OBJECT =
      "{type: object, required: [required], properties: {required: {type: string}, optional:"
          + " {type: string}}}";

  private static Schema objectArray(String rule) {
    return max -> "{type: array, items: " + OBJECT + limit("maxItems", max) + rule(rule) + "}";
  }

  private static Schema mapArray(String valueType, String rule) {
    return max ->
        "{type: array, items: {type: object, additionalProperties: "
            + type(valueType)
            + "}"
            + limit("maxItems", max)
            + rule(rule)
            + "}";
  }

  private static Schema map(String valueType, String rule) {
    return mapOf(type(valueType), rule);
  }

  private static Schema mapOf(String valueSchema, String rule) {
    return max ->
        "{type: object, additionalProperties: "
            + valueSchema
            + limit("maxProperties", max)
            + rule(rule)
            + "}";
  }

  private static Schema string(String rule) {
    return max -> "{type: string" + limit("maxLength", max) + rule(rule) + "}";
  }

  private static Schema enumString(String rule, String values) {
    return max ->
        "{type: string, enum: [" + values + "]" + limit("maxLength", max) + rule(rule) + "}";
  }

  private static Schema bytes(String rule) {
    return max -> "{type: string, format: byte" + limit("maxLength", max) + rule(rule) + "}";
  }

  private static Schema nestedSpec(String rule) {
    return max ->
        "{type: object, additionalProperties: {type: string"
            + limit("maxLength", max)
            + "}"
            + limit("maxProperties", max)
            + rule(rule)
            + "}";
  }

  private static Schema allMaxNested(String rule) {
    return max ->
        "{type: array, items: {type: object, additionalProperties: {type: object, required:"
            + " [required], properties: {required: {type: string}, optional: {type: string}}"
            + limit("maxProperties", max)
            + "}"
            + limit("maxProperties", max)
            + "}"
            + limit("maxItems", max)
            + rule(rule)
            + "}";
  }

  private static Schema oneMaxNested(String rule) {
    return max ->
        "{type: array, items: {type: object, additionalProperties: {type: object, required:"
            + " [required], properties: {required: {type: string}, optional: {type: string}}}"
            + limit("maxProperties", max)
            + "}"
            + rule(rule)
            + "}";
  }

  private static Schema stringList(String rule) {
    return max ->
        "{type: array, x-kubernetes-list-type: atomic, items: {type: string"
            + limit("maxLength", max)
            + "}"
            + limit("maxItems", max)
            + rule(rule)
            + "}";
  }

  static Stream<Arguments> kubernetesTable() {
    return Stream.of(
        row("number array with all", array("number", "self.all(x, true)"), 4718591, 10, 32),
        row("string array with all", array("string", "self.all(x, true)"), 3145727, 20, 62),
        row("boolean array with all", array("boolean", "self.all(x, true)"), 1887437, 5, 17),
        row(
            "array of number arrays with all",
            arrayOfArrays("number", "self.all(x, true)"),
            3145727,
            100,
            302),
        row("array of objects with all", objectArray("self.all(x, true)"), 555128, 50, 152),
        row("map of numbers with all", map("number", "self.all(x, true)"), 1348169, 10, 32),
        row("map of numbers with has", map("number", "has(self.x)"), 0, 100, 0),
        row("map of strings with all", map("string", "self.all(x, true)"), 1179647, 3, 11),
        row("map of strings with has", map("string", "has(self.x)"), 0, 550, 0),
        row("map of booleans with all", map("boolean", "self.all(x, true)"), 943718, 100, 302),
        row("map of booleans with has", map("boolean", "has(self.x)"), 0, 1024, 0),
        row("string with contains", string("self.contains('test')"), 314574, 10, 5),
        row("string with startsWith", string("self.startsWith('test')"), 2, 15, 2),
        row("string with endsWith", string("self.endsWith('test')"), 2, 30, 2),
        row("concat string", string("size(self + \"hello\") > size(\"hello\")"), 314578, 4, 7),
        row("index of array with numbers", array("number", "self[1] == 0.0"), 2, 5000, 2),
        row(
            "index of array with strings",
            array("string", "self[1] == self[1]"),
            314577,
            8,
            314577),
        row(
            "O(n^2) loop with numbers",
            array("number", "self.all(x, self.all(y, true))"),
            NO_LIMIT,
            10,
            352),
        row(
            "O(n^3) loop with numbers",
            array("number", "self.all(x, self.all(y, self.all(z, true)))"),
            NO_LIMIT,
            10,
            3552),
        row("regex matches simple", string("self.matches(\"x\")"), 314574, 50, 22),
        row(
            "regex matches empty string",
            string("\"\".matches(\"(((((((((())))))))))[0-9]\")"),
            7,
            10,
            7),
        row("regex matches empty regex", string("self.matches(\"\")"), 1, 100, 1),
        row(
            "map of strings with value length",
            nestedSpec("self.all(x, x.contains(self[x]))"),
            2752507,
            10,
            72),
        row("set array maxLength to zero", array("number", "self[3] == 0.0"), 2, 0, 2),
        row("set map maxLength to zero", map("number", "self[\"x\"] == 0.0"), 2, 0, 2),
        row("set string maxLength to zero", string("self == \"x\""), 2, 0, 1),
        row("set bytes maxLength to zero", bytes("self == b\"x\""), 2, 0, 1),
        row(
            "set maxLength greater than estimated maxLength",
            array("number", "self.all(x, x == 0.0)"),
            6291454,
            3 * 1024 * 2048,
            25165826),
        row(
            "nested types with root rule with all supporting maxLength",
            allMaxNested("self.all(x, x[\"y\"].required == \"z\")"),
            7340027,
            10,
            72),
        row(
            "nested types with root rule with one supporting maxLength",
            oneMaxNested("self.all(x, x[\"y\"].required == \"z\")"),
            7340027,
            10,
            7340027),
        row(
            "int-or-string array with all",
            array("int-or-string", "self.all(x, true)"),
            4718591,
            10,
            32),
        row("index of array with int-or-strings", array("int-or-string", "self[0] == 5"), 3, 10, 3),
        row("index of array with booleans", array("boolean", "self[0] == false"), 2, 25, 2),
        row("index of array of objects", objectArray("self[0] == null"), 2, 422, 2),
        row(
            "index of array of array of numbers",
            arrayOfArrays("number", "self[0][0] == -1.0"),
            3,
            51,
            3),
        row(
            "array of number maps with all",
            mapArray("number", "self.all(x, x.y == 25.2)"),
            6291452,
            12,
            74),
        row("index of array of number maps", mapArray("number", "self[0].x > 2.0"), 4, 3000, 4),
        row("duration array with all", array("duration", "self.all(x, true)"), 2359295, 5, 17),
        row("index of duration array", array("duration", "self[0].getHours() == 2"), 4, 525, 4),
        row("date array with all", array("date", "self.all(x, true)"), 725936, 15, 47),
        row("index of date array", array("date", "self[2].getDayOfMonth() == 13"), 4, 42, 4),
        row("date-time array with all", array("date-time", "self.all(x, true)"), 428963, 25, 77),
        row("index of date-time array", array("date-time", "self[2].getMinutes() == 45"), 4, 99, 4),
        row(
            "map of int-or-strings with all",
            map("int-or-string", "self.all(x, true)"),
            1348169,
            15,
            47),
        row("map of int-or-strings with has", map("int-or-string", "has(self.x)"), 0, 5000, 0),
        row("map of objects with all", mapOf(OBJECT, "self.all(x, true)"), 428963, 20, 62),
        row("map of objects with has", mapOf(OBJECT, "has(self.x)"), 0, 9001, 0),
        row(
            "map of number maps with all",
            mapOf("{type: object, additionalProperties: {type: number}}", "self.all(x, true)"),
            1179647,
            10,
            32),
        row(
            "map of number maps with has",
            mapOf("{type: object, additionalProperties: {type: number}}", "has(self.x)"),
            0,
            101,
            0),
        row(
            "map of number arrays with all",
            mapOf("{type: array, items: {type: number}}", "self.all(x, true)"),
            1179647,
            25,
            77),
        row(
            "map of number arrays with has",
            mapOf("{type: array, items: {type: number}}", "has(self.x)"),
            0,
            40000,
            0),
        row("map of durations with all", map("duration", "self.all(x, true)"), 1048577, 5, 17),
        row("map of durations with has", map("duration", "has(self.x)"), 0, 256, 0),
        row("map of dates with all", map("date", "self.all(x, true)"), 524288, 10, 32),
        row("map of dates with has", map("date", "has(self.x)"), 0, 65536, 0),
        row("map of date-times with all", map("date-time", "self.all(x, true)"), 349526, 25, 77),
        row("map of date-times with has", map("date-time", "has(self.x)"), 0, 490, 0),
        row("extended library regex find", string("self.find('[0-9]+') == ''"), 629147, 10, 11),
        row(
            "extended library join",
            stringList("self.join(' ') == 'aa bb'"),
            329853068905L,
            10,
            43),
        row(
            "extended library isSorted",
            stringList("self.isSorted() == true"),
            329854432052L,
            10,
            52),
        row(
            "extended library replace",
            max ->
                "{type: object, properties: {str: {type: string"
                    + limit("maxLength", max)
                    + "}, before: {type: string, maxLength: 2}, after: {type: string, maxLength:"
                    + " 4}}"
                    + rule("self.str.replace(self.before, self.after) == 'does not matter'")
                    + "}",
            629154,
            4,
            12),
        row(
            "extended library split",
            max ->
                "{type: object, properties: {str: {type: string"
                    + limit("maxLength", max)
                    + "}, separator: {type: string"
                    + limit("maxLength", max)
                    + "}}"
                    + rule("self.str.split(self.separator) == []")
                    + "}",
            629160,
            10,
            22),
        row("extended library lowerAscii", string("self.lowerAscii() == 'lower!'"), 314575, 10, 6),
        row("check cost of size call", map("integer", "oldSelf.size() == self.size()"), 5, 10, 5),
        row(
            "check cost of timestamp comparison",
            map("date-time", "self[\"a\"] == self[\"b\"]"),
            8,
            7,
            8),
        row(
            "check cost of duration comparison",
            map("duration", "self[\"c\"] == self[\"d\"]"),
            8,
            42,
            8),
        row(
            "enums with maxLength equals to the longest possible value",
            enumString("self.contains('A')", "A, B, C, LongValue"),
            2,
            1000,
            401));
  }

  private static Arguments row(String name, Schema schema, long calc, long max, long set) {
    return Arguments.of(name, schema, calc, max, set);
  }

  private static long cost(String yaml) {
    var schema = Schemas.schema(yaml);
    return RuleCompiler.estimatedCost(schema, false, schema.validations().get(0).rule());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubernetesTable")
  void estimatesAsKubernetes(String name, Schema schema, long calc, long max, long set) {
    long unlimited = cost(schema.apply(-1));
    if (calc == NO_LIMIT) {
      assertTrue(
          Long.compareUnsigned(unlimited, 100_000_000) >= 0, name + ": " + unlimited + " is low");
    } else if (calc != 0) {
      assertEquals(calc, unlimited, name + " without limits");
    }
    if (set != 0) {
      assertEquals(set, cost(schema.apply(max)), name + " with limits of " + max);
    }
  }
}
