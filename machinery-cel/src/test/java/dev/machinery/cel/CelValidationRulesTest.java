package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rules evaluated on values of every schema type, with the values and expectations of Kubernetes'
 * own tests (apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go,
 * TestValidationExpressions): a rule listed as valid there holds here, and a failing rule is
 * reported with kube-apiserver's field path, shown value and message.
 */
class CelValidationRulesTest {
  private static final ValidationRules RULES = CelValidationRules.create();

  /** An object with fields val1, val2, ... of the given schemas (YAML flow style), and values. */
  private static JSONSchemaProps vals(String rule, String... schemas) {
    StringBuilder yaml = new StringBuilder("type: object\nproperties:\n");
    if (schemas.length == 0) {
      for (String name : List.of("namespace", "a.b", "x-y", "p/q", "u__v")) {
        yaml.append("  '")
            .append(name)
            .append("': {type: ")
            .append(name.equals("namespace") ? "string" : "integer")
            .append("}\n");
      }
    }
    for (int i = 0; i < schemas.length; i++) {
      yaml.append("  val").append(i + 1).append(": ").append(schemas[i]).append('\n');
    }
    yaml.append("x-kubernetes-validations:\n- rule: ").append(quote(rule)).append('\n');
    return Schemas.schema(yaml.toString());
  }

  private static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static List<String> run(String rule, String values, String... schemas) {
    JSONSchemaProps schema = vals(rule, schemas);
    // Kubernetes' table evaluates its rules without the definition-time cost estimate; rules on
    // unbounded values that it would refuse for their estimated cost are evaluated here too.
    List<FieldError> check =
        RULES.check(schema, dev.machinery.unversioned.validation.FieldPath.of("schema")).stream()
            .filter(e -> !CostLimitsTest.isCostRefusal(e))
            .toList();
    List<String> out = new ArrayList<>();
    check.forEach(e -> out.add("check: " + e));
    if (!check.isEmpty()) {
      return out;
    }
    Map<String, Object> object = Schemas.object(values);
    RULES.compile(schema).validate(object, null).forEach(e -> out.add(e.toString()));
    return out;
  }

  private static final String INT = "{type: integer}";
  private static final String NUM = "{type: number}";
  private static final String STR = "{type: string}";
  private static final String BOOL = "{type: boolean}";
  private static final String BYTES = "{type: string, format: byte}";
  private static final String DURATION = "{type: string, format: duration}";
  private static final String DATE = "{type: string, format: date}";
  private static final String DATE_TIME = "{type: string, format: date-time}";
  private static final String INTS = "{type: array, items: {type: integer}}";
  private static final String STR_MAP = "{type: object, additionalProperties: {type: string}}";

  static Stream<Arguments> holds() {
    String ints = "{val1: 9223372036854775807, val2: 9223372036854775807, val3: 5}";
    String unicode = "{val1: 'Rook takes 👑', val2: 'Rook takes 👑'}";
    String numbers = "{val1: 5, val2: 10, val3: 15, val4: 10.0, val7: 10}";
    return Stream.of(
        // integers
        Arguments.of("self.val1 == self.val2", ints, new String[] {INT, INT, INT}),
        Arguments.of("self.val1 == 9223372036854775807", ints, new String[] {INT, INT, INT}),
        Arguments.of("type(self.val1) == int", ints, new String[] {INT, INT, INT}),
        // numbers, compared with integers as kube's proposal-210 cases
        Arguments.of(
            "double(self.val1) < self.val4",
            numbers,
            new String[] {INT, INT, INT, NUM, NUM, NUM, NUM}),
        Arguments.of(
            "self.val3 > int(self.val4)",
            numbers,
            new String[] {INT, INT, INT, NUM, NUM, NUM, NUM}),
        Arguments.of(
            "type(self.val7) == double && self.val7 == 10.0",
            numbers,
            new String[] {INT, INT, INT, NUM, NUM, NUM, NUM}),
        // strings and the strings extension
        Arguments.of("self.val1.startsWith('Rook')", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.endsWith('👑')", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.matches('^[^0-9]*$')", unicode, new String[] {STR, STR}),
        Arguments.of("size(self.val1) == 12", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.charAt(3) == 'k'", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.indexOf('o') == 1", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.indexOf('o', 2) == 2", unicode, new String[] {STR, STR}),
        Arguments.of(
            "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", unicode, new String[] {STR, STR}),
        Arguments.of(
            "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'", unicode, new String[] {STR, STR}),
        Arguments.of(
            "self.val1.split(' ') == ['Rook', 'takes', '👑']", unicode, new String[] {STR, STR}),
        Arguments.of(
            "self.val1.split(' ', 2) == ['Rook', 'takes 👑']", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.substring(5) == 'takes 👑'", unicode, new String[] {STR, STR}),
        Arguments.of(
            "self.val1.substring(4, 10).trim() == 'takes'", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.upperAscii() == 'ROOK TAKES 👑'", unicode, new String[] {STR, STR}),
        Arguments.of("self.val1.lowerAscii() == 'rook takes 👑'", unicode, new String[] {STR, STR}),
        Arguments.of("['a', 'b'].join('-') == 'a-b'", unicode, new String[] {STR, STR}),
        // bytes, booleans
        Arguments.of("self.val1 == b'AB'", "{val1: QUI=}", new String[] {BYTES}),
        Arguments.of("size(self.val1) == 2", "{val1: QUI=}", new String[] {BYTES}),
        Arguments.of(
            "self.val1 != self.val2", "{val1: true, val2: false}", new String[] {BOOL, BOOL}),
        // durations, dates and times
        Arguments.of(
            "self.val1 == duration('1h2m') + duration('3s4ms')",
            "{val1: 1h2m3s4ms}",
            new String[] {DURATION}),
        Arguments.of("self.val1.getMinutes() == 62", "{val1: 1h2m3s4ms}", new String[] {DURATION}),
        Arguments.of(
            "self.val1 == timestamp('1997-07-16T00:00:00.000Z')",
            "{val1: '1997-07-16'}",
            new String[] {DATE}),
        Arguments.of("self.val1.getMonth() == 6", "{val1: '1997-07-16'}", new String[] {DATE}),
        Arguments.of(
            "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
            "{val1: '2011-08-18T19:03:37.010000000+01:00'}",
            new String[] {DATE_TIME}),
        Arguments.of(
            "self.val1.getHours('UTC') == 18",
            "{val1: '2011-08-18T19:03:37.010000000+01:00'}",
            new String[] {DATE_TIME}),
        // lists, maps and the macros
        Arguments.of(
            "self.val1 + [4, 5] == [1, 2, 3, 4, 5]", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of(
            "1 in self.val1 && !(0 in self.val1)", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of("self.val1.all(x, x > 0)", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of("self.val1.exists(x, x == 2)", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of("self.val1.exists_one(x, x > 2)", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of(
            "self.val1.map(x, x * 2) == [2, 4, 6]", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of(
            "self.val1.filter(x, x > 1) == [2, 3]", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of(
            "self.val1 == {'k1': 'a', 'k2': 'b'}",
            "{val1: {k2: b, k1: a}}",
            new String[] {STR_MAP}),
        Arguments.of("'k1' in self.val1", "{val1: {k1: a}}", new String[] {STR_MAP}),
        // Kubernetes' list library
        Arguments.of("self.val1.isSorted()", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of("!self.val1.isSorted()", "{val1: [3, 1]}", new String[] {INTS}),
        Arguments.of("self.val1.sum() == 6", "{val1: [1, 2, 3]}", new String[] {INTS}),
        Arguments.of(
            "self.val1.min() == 1 && self.val1.max() == 3",
            "{val1: [3, 1, 2]}",
            new String[] {INTS}),
        Arguments.of(
            "self.val1.indexOf(2) == 1 && self.val1.lastIndexOf(2) == 3",
            "{val1: [1, 2, 3, 2]}",
            new String[] {INTS}),
        Arguments.of("['b', 'a'].max() == 'b'", "{}", new String[] {}),
        // Kubernetes' regex, URL and IP functions
        Arguments.of("'abc 123'.find('[0-9]+') == '123'", "{}", new String[] {}),
        Arguments.of("'123 abc 456'.findAll('[0-9]+') == ['123', '456']", "{}", new String[] {}),
        Arguments.of("'123 abc 456'.findAll('[0-9]+', 1) == ['123']", "{}", new String[] {}),
        Arguments.of(
            "url('https://example.com:80/').getHost() == 'example.com:80'", "{}", new String[] {}),
        Arguments.of(
            "url('https://example.com/path').getScheme() == 'https'", "{}", new String[] {}),
        Arguments.of("url('https://[::1]:80/').getHostname() == '::1'", "{}", new String[] {}),
        Arguments.of("url('https://example.com:80/').getPort() == '80'", "{}", new String[] {}),
        Arguments.of(
            "url('https://example.com/a%20b').getEscapedPath() == '/a%20b'", "{}", new String[] {}),
        Arguments.of(
            "url('https://example.com/?k=a&k=b').getQuery() == {'k': ['a', 'b']}",
            "{}",
            new String[] {}),
        Arguments.of(
            "isURL('https://example.com') && !isURL('example.com')", "{}", new String[] {}),
        Arguments.of(
            "isIP('10.0.0.1') && isIP('::1') && !isIP('10.0.0.256')", "{}", new String[] {}),
        // Kubernetes' quantity library
        Arguments.of("quantity('500m').isLessThan(quantity('1'))", "{}", new String[] {}),
        Arguments.of("quantity('1Gi').isGreaterThan(quantity('1G'))", "{}", new String[] {}),
        Arguments.of("quantity('1k').asInteger() == 1000", "{}", new String[] {}),
        Arguments.of(
            "!quantity('1.5').isInteger() && quantity('2').isInteger()", "{}", new String[] {}),
        Arguments.of("quantity('1.5').asApproximateFloat() == 1.5", "{}", new String[] {}),
        Arguments.of(
            "quantity('-3').sign() == -1 && quantity('0').sign() == 0", "{}", new String[] {}),
        Arguments.of(
            "quantity('1').add(quantity('500m')).compareTo(quantity('1500m')) == 0",
            "{}",
            new String[] {}),
        Arguments.of("quantity('2').sub(1).compareTo(quantity('1')) == 0", "{}", new String[] {}),
        Arguments.of("isQuantity('10Mi') && !isQuantity('ten')", "{}", new String[] {}),
        // has() and optionals
        Arguments.of("has(self.val1) && !has(self.val2)", "{val1: 1}", new String[] {INT, INT}),
        Arguments.of("self.?val2.orValue(7) == 7", "{val1: 1}", new String[] {INT, INT}),
        Arguments.of("optional.of(1).hasValue()", "{}", new String[] {}),
        // property names that are CEL reserved words or hold '.', '-', '/' or '__' are escaped
        Arguments.of(
            "self.__namespace__ == 'a' && self.a__dot__b == 1 && self.x__dash__y == 2"
                + " && self.p__slash__q == 3 && self.u__underscores__v == 4",
            "{namespace: a, a.b: 1, x-y: 2, p/q: 3, u__v: 4}",
            new String[] {}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void holds(String rule, String values, String[] schemas) {
    assertEquals(List.of(), run(rule, values, schemas));
  }

  static Stream<Arguments> fails() {
    return Stream.of(
        Arguments.of(
            "self.val1 + 1 == 0",
            "{val1: 9223372036854775807}",
            new String[] {INT},
            "<nil>: Invalid value: \"object\": integer overflow evaluating rule: self.val1 + 1 == 0"),
        Arguments.of(
            "1 / self.val1 == 1",
            "{val1: 0}",
            new String[] {INT},
            "<nil>: Invalid value: \"object\": division by zero evaluating rule: 1 / self.val1 == 1"),
        Arguments.of(
            "self.val1 == 1",
            "{}",
            new String[] {INT},
            "<nil>: Invalid value: \"object\": no such key: val1 evaluating rule: self.val1 == 1"),
        Arguments.of(
            "self.val1 > 1",
            "{val1: 0}",
            new String[] {INT},
            "<nil>: Invalid value: \"object\": failed rule: self.val1 > 1"),
        Arguments.of(
            "self.val1 > 1",
            "{val1: a}",
            new String[] {"{x-kubernetes-int-or-string: true}"},
            "<nil>: Invalid value: \"object\": 'no such overload': call arguments did not match a"
                + " supported operator, function or macro signature for rule: self.val1 > 1"),
        Arguments.of(
            "self.val1.min() == 0",
            "{val1: []}",
            new String[] {INTS},
            "<nil>: Invalid value: \"object\": min called on empty list evaluating rule:"
                + " self.val1.min() == 0"));
  }

  @org.junit.jupiter.api.Test
  void refusesWhatIsNotAQuantity() {
    assertEquals(
        List.of(
            "<nil>: Invalid value: \"object\": quantities must match the regular expression"
                + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' evaluating rule:"
                + " quantity('ten').sign() == 1"),
        run("quantity('ten').sign() == 1", "{}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void fails(String rule, String values, String[] schemas, String expected) {
    assertEquals(List.of(expected), run(rule, values, schemas));
  }
}
