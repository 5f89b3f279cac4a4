package dev.machinery.core.fieldpath;

import static dev.machinery.core.fieldpath.PathElement.field;
import static dev.machinery.core.fieldpath.PathElement.index;
import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** structured-merge-diff's element_test.go and serialize-pe_test.go, and more. */
class PathElementTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  // TestPathElementLess: a < b, or equal.
  static Stream<Arguments> ordered() {
    return Stream.of(
        Arguments.of("FieldName-1", field("anteater"), field("zebra"), false),
        Arguments.of("FieldName-2", field("bee"), field("bee"), true),
        Arguments.of("FieldName-3", field("capybara"), key("dog", 3), false),
        Arguments.of("FieldName-4", field("elephant"), value(4), false),
        Arguments.of("FieldName-5", field("falcon"), index(5), false),
        Arguments.of("Key-1", key("goat", 1), key("goat", 1), true),
        Arguments.of("Key-2", key("horse", 1), key("horse", 2), false),
        Arguments.of("Key-3", key("ibex", 1), key("jay", 1), false),
        Arguments.of("Key-4", key("kite", 1), key("kite", 1, "kite-2", 1), false),
        Arguments.of("Key-5", key("kite", 1), value(1), false),
        Arguments.of("Key-6", key("kite", 1), index(5), false),
        Arguments.of("Value-1", value(1), value(2), false),
        Arguments.of("Value-2", value(1), value(1), true),
        Arguments.of("Value-3", value(1), index(1), false),
        Arguments.of("Index-1", index(1), index(2), false),
        Arguments.of("Index-2", index(1), index(1), true),
        // Beyond Go's table: the order of value kinds, and numbers across int and float.
        Arguments.of("int equals float", value(1), value(1.0), true),
        Arguments.of("int before larger float", value(1), value(1.5), false),
        Arguments.of("number before string", value(100), value("1"), false),
        Arguments.of("string before bool", value("z"), value(false), false),
        Arguments.of("false before true", value(false), value(true), false),
        Arguments.of("bool before list", value(true), value(json("[]")), false),
        Arguments.of("shorter list first", value(json("[1]")), value(json("[1,0]")), false),
        Arguments.of("list before map", value(json("[1]")), value(json("{}")), false),
        Arguments.of("map before null", value(json("{\"a\":1}")), value(null), false),
        Arguments.of("map by first key", value(json("{\"a\":9}")), value(json("{\"b\":1}")), false),
        Arguments.of("map by value", value(json("{\"a\":1}")), value(json("{\"a\":2}")), false),
        Arguments.of(
            "maps equal",
            value(json("{\"a\":1,\"b\":2}")),
            value(json("{\"b\":2,\"a\":1.0}")),
            true),
        Arguments.of("strings by code point", field("\uffff"), field("\ud83d\ude80"), false),
        Arguments.of("key by value", key("a", "x"), key("a", "y"), false),
        Arguments.of("negative index", index(-1), index(0), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ordered")
  void ordersAsStructuredMergeDiff(String name, PathElement a, PathElement b, boolean equal) {
    if (equal) {
      assertEquals(0, a.compareTo(b));
      assertEquals(0, b.compareTo(a));
      assertEquals(a, b);
      assertEquals(a.hashCode(), b.hashCode());
    } else {
      assertTrue(a.compareTo(b) < 0, a + " < " + b);
      assertTrue(b.compareTo(a) > 0, b + " > " + a);
      assertNotEquals(a, b);
    }
  }

  @Test
  void sortsKeyFieldsByName() {
    assertEquals(key("a", "a", "b", "a", "c", "a"), key("c", "a", "b", "a", "a", "a"));
    assertEquals("[a=\"1\",b=2]", key("b", 2, "a", "1").toString());
  }

  static Stream<Arguments> strings() {
    return Stream.of(
        Arguments.of(field("spec"), ".spec"),
        Arguments.of(field(""), "."),
        Arguments.of(key("name", "nginx"), "[name=\"nginx\"]"),
        Arguments.of(key("a", "b", "c", 1, "d", 1.5, "e", true), "[a=\"b\",c=1,d=1.5,e=true]"),
        Arguments.of(value("b"), "[=\"b\"]"),
        Arguments.of(value(5), "[=5]"),
        Arguments.of(value(false), "[=false]"),
        Arguments.of(value(3.14159), "[=3.14159]"),
        Arguments.of(value(null), "[=null]"),
        Arguments.of(value(1e6), "[=1e+06]"),
        Arguments.of(value(123456.0), "[=123456]"),
        Arguments.of(value(0.0001), "[=0.0001]"),
        Arguments.of(value(0.00001), "[=1e-05]"),
        Arguments.of(value(-2.5e-300), "[=-2.5e-300]"),
        Arguments.of(value(json("[1,\"a\",[]]")), "[=[1,\"a\",[]]]"),
        Arguments.of(value(json("{\"b\":1,\"a\":\"x\"}")), "[=a=\"x\"b=1]"),
        Arguments.of(value("app with \"quotes\""), "[=\"app with \\\"quotes\\\"\"]"),
        Arguments.of(value("tab\tnew\nbell\u0007del\u007f"), "[=\"tab\\tnew\\nbell\\adel\\x7f\"]"),
        Arguments.of(value("nbsp\u00a0zwsp\u200b"), "[=\"nbsp\\u00a0zwsp\\u200b\"]"),
        Arguments.of(value("app-with-unicøde-🚀"), "[=\"app-with-unicøde-🚀\"]"),
        Arguments.of(index(0), "[0]"),
        Arguments.of(index(2147483648L), "[2147483648]"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("strings")
  void printsAsGo(PathElement element, String expected) {
    assertEquals(expected, element.toString());
  }

  // TestPathElementRoundTrip.
  static Stream<Arguments> roundTrips() {
    return Stream.of(
        Arguments.of("i:0", index(0)),
        Arguments.of("i:1234", index(1234)),
        Arguments.of("f:", field("")),
        Arguments.of("f:spec", field("spec")),
        Arguments.of("f:more-complicated-string", field("more-complicated-string")),
        Arguments.of("f: string-with-spaces   ", field(" string-with-spaces   ")),
        Arguments.of(
            "f:abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            field("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")),
        Arguments.of("k:{\"name\":\"my-container\"}", key("name", "my-container")),
        Arguments.of(
            "k:{\"name\":\"   name with spaces   \"}", key("name", "   name with spaces   ")),
        Arguments.of(
            "k:{\"port\":\"8080\",\"protocol\":\"TCP\"}", key("port", "8080", "protocol", "TCP")),
        Arguments.of("k:{\"optionalField\":null}", key("optionalField", null)),
        Arguments.of(
            "k:{\"jsonField\":{\"A\":1,\"B\":null,\"C\":\"D\",\"E\":{\"F\":\"G\"}}}",
            key("jsonField", json("{\"A\":1.0,\"B\":null,\"C\":\"D\",\"E\":{\"F\":\"G\"}}"))),
        Arguments.of(
            "k:{\"listField\":[\"1\",\"2\",\"3\"]}", key("listField", json("[\"1\",\"2\",\"3\"]"))),
        Arguments.of("v:null", value(null)),
        Arguments.of("v:\"some-string\"", value("some-string")),
        Arguments.of("v:1234", value(1234.0)),
        Arguments.of("v:{\"some\":\"json\"}", value(json("{\"some\":\"json\"}"))),
        Arguments.of(
            "v:{\"some\":\" some  with spaces  \"}",
            value(json("{\"some\":\" some  with spaces  \"}"))),
        Arguments.of("k:{\"name\":\"app-🚀\"}", key("name", "app-🚀")),
        Arguments.of("k:{\"name\":\"app-💻\"}", key("name", "app-💻")),
        Arguments.of("k:{\"name\":\"app with-unicøde\"}", key("name", "app with-unicøde")),
        Arguments.of("k:{\"name\":\"你好世界\"}", key("name", "你好世界")),
        Arguments.of("k:{\"name\":\"Привет, мир\"}", key("name", "Привет, мир")),
        Arguments.of("k:{\"name\":\"नमस्ते दुनिया\"}", key("name", "नमस्ते दुनिया")),
        Arguments.of("k:{\"name\":\"👋\"}", key("name", "👋")),
        Arguments.of("f:spec-🚀", field("spec-🚀")),
        Arguments.of("f:spec-\\n", field("spec-\\n")),
        // Beyond Go's table: numbers, escaping and key field order as kube-apiserver writes them.
        Arguments.of(
            "k:{\"containerPort\":80,\"protocol\":\"TCP\"}",
            key("protocol", "TCP", "containerPort", 80)),
        Arguments.of("v:1.5", value(1.5)),
        Arguments.of("v:-0", value(-0.0)),
        Arguments.of("v:1e+21", value(1e21)),
        Arguments.of("v:100000000000000000000", value(1e20)),
        Arguments.of("v:0.000001", value(1e-6)),
        Arguments.of("v:1e-7", value(1e-7)),
        Arguments.of("v:1.2345e-300", value(1.2345e-300)),
        Arguments.of("v:true", value(true)),
        Arguments.of("v:[1,\"a\",{}]", value(json("[1,\"a\",{}]"))),
        Arguments.of("v:{\"a\":1,\"b\":2}", value(json("{\"b\":2,\"a\":1}"))),
        Arguments.of("v:\"\\u003ca\\u003e \\u0026 \\u2028\\u2029\"", value("<a> & \u2028\u2029")),
        Arguments.of(
            "v:\"q\\\"b\\\\ \\n\\r\\t\\u0000\\u001f\u007f\"",
            value("q\"b\\ \n\r\t\u0000\u001f\u007f")),
        Arguments.of("v:{\"\\u003c\":1}", value(json("{\"<\":1}"))),
        Arguments.of("k:{\"<\":\"\\u003c\"}", key("<", "<")),
        Arguments.of("i:-1", index(-1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roundTrips")
  void readsAndWritesItsFieldsV1Form(String text, PathElement element) {
    PathElement parsed = PathElement.parse(text);
    assertEquals(element, parsed);
    assertEquals(text, parsed.serialize());
    assertEquals(text, element.serialize());
  }

  @Test
  void readsNumbersAsDoublesAsGoDoes() {
    assertEquals("v:9007199254740992", PathElement.parse("v:9007199254740993").serialize());
    assertEquals("v:1", PathElement.parse("v:1.0").serialize());
    assertEquals("v:100", PathElement.parse("v:1e2").serialize());
    assertEquals("v:9007199254740993", value(9007199254740993L).serialize());
  }

  // TestDeserializePathElementSuccess.
  static Stream<Arguments> readable() {
    return Stream.of(
        Arguments.of("v: {\"some\":\"json\"}", value(json("{\"some\":\"json\"}"))),
        Arguments.of("k: {\"name\":\"my-container\"}", key("name", "my-container")),
        Arguments.of("v:{\"some\":\"json\"} ", value(json("{\"some\":\"json\"}"))),
        Arguments.of("k:{\"name\":\"my-container\"} ", key("name", "my-container")),
        Arguments.of(
            "k:{\"name\\u002dcontainer\":\"my-container\"}", key("name-container", "my-container")),
        Arguments.of(
            "k:{\"name\\nwith\\nnewlines\":\"my-container\"}",
            key("name\nwith\nnewlines", "my-container")),
        Arguments.of(
            "k:{\"name\\\"quoted\\\"\":\"my-container\"}", key("name\"quoted\"", "my-container")),
        Arguments.of(
            "k:{\"name-\\ud83d\\ude80\":\"my-container\"}", key("name-🚀", "my-container")),
        Arguments.of("k:{\"\\u4f60\\u597d\":\"\\u4e16\\u754c\"}", key("你好", "世界")),
        Arguments.of("v:\"value\\u002dcontainer\"", value("value-container")),
        Arguments.of("v:\"value\\nwith\\nnewlines\"", value("value\nwith\nnewlines")),
        Arguments.of("v:\"value\\\"quoted\\\"\"", value("value\"quoted\"")),
        Arguments.of("v:\"value-\\ud83d\\ude80\"", value("value-🚀")),
        Arguments.of("v:\"\\u4f60\\u597d\"", value("你好")),
        Arguments.of("k:{\"name-🚀\":\"my-container\"}", key("name-🚀", "my-container")),
        Arguments.of("v:\"value-🚀\"", value("value-🚀")),
        // Beyond Go's table.
        Arguments.of("i:+7", index(7)),
        Arguments.of("i:007", index(7)),
        Arguments.of("k:null", new PathElement.Key(List.of())),
        Arguments.of("k:{}", new PathElement.Key(List.of())),
        Arguments.of("v:\"\\ud800x\"", value("\ufffdx")),
        Arguments.of("v:\"\\/\\b\\f\"", value("/\b\f")),
        Arguments.of("v:-1.5E+2", value(-150)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readable")
  void readsWhitespaceAndEscapes(String text, PathElement element) {
    assertEquals(element, PathElement.parse(text));
  }

  @Test
  void keepsKeyFieldsOfTheSameName() {
    PathElement.Key key = (PathElement.Key) PathElement.parse("k:{\"b\":1,\"a\":2,\"a\":1}");
    assertEquals("[a=2,a=1,b=1]", key.toString());
    assertEquals("k:{\"a\":2,\"a\":1,\"b\":1}", key.serialize());
  }

  // TestDeserializePathElementError, with the messages.
  static Stream<Arguments> malformed() {
    String kind = "expected a kind and a colon, like \"f:name\"";
    String colon = "expected a colon after the kind, like \"f:name\"";
    return Stream.of(
        Arguments.of("", "path element \"\": " + kind),
        Arguments.of("no-colon", "path element \"no-colon\": " + colon),
        Arguments.of(
            "i:index is not a number",
            "path element \"i:index is not a number\": the index is not an integer"),
        Arguments.of("i:1.23", "path element \"i:1.23\": the index is not an integer"),
        Arguments.of("i:", "path element \"i:\": the index is not an integer"),
        Arguments.of(
            "v:invalid json",
            "path element \"v:invalid json\": expected a JSON value, found 'i' at character 2 of the element"),
        Arguments.of(
            "v:",
            "path element \"v:\": expected a JSON value, found the end of the input at character 2 of the element"),
        Arguments.of(
            "k:invalid json",
            "path element \"k:invalid json\": expected a JSON value, found 'i' at character 2 of the element"),
        Arguments.of(
            "k:{\"name\":invalid}",
            "path element \"k:{\\\"name\\\":invalid}\": expected a JSON value, found 'i' at character 10 of the element"),
        Arguments.of(
            "v:{\"some\":\" \\x41\"}",
            "path element \"v:{\\\"some\\\":\\\" \\\\x41\\\"}\": invalid escape '\\x' in a string at character 13 of the element"),
        Arguments.of("v", "path element \"v\": " + kind),
        Arguments.of("k", "path element \"k\": " + kind),
        Arguments.of("f", "path element \"f\": " + kind),
        Arguments.of("i", "path element \"i\": " + kind),
        Arguments.of(
            "v:{\"a\":\"b\"",
            "path element \"v:{\\\"a\\\":\\\"b\\\"\": expected ',' or '}' after an object entry, found the end of the input at character 10 of the element"),
        Arguments.of(
            "k:{\"a\":\"b\"",
            "path element \"k:{\\\"a\\\":\\\"b\\\"\": expected ',' or '}' after an object entry, found the end of the input at character 10 of the element"),
        Arguments.of("i: 0", "path element \"i: 0\": the index is not an integer"),
        Arguments.of("i:0 ", "path element \"i:0 \": the index is not an integer"),
        Arguments.of(
            "v:{\"some\":\"json\"} {\"other\":\"json\"}",
            "path element \"v:{\\\"some\\\":\\\"json\\\"} {\\\"other\\\":\\\"json\\\"}\": unexpected '{' after the JSON value at character 18 of the element"),
        Arguments.of(
            "k:{\"name\":\"my-container\"} {\"other\":\"my-container\"}",
            "path element \"k:{\\\"name\\\":\\\"my-container\\\"} {\\\"other\\\":\\\"my-container\\\"}\": unexpected '{' after the JSON value at character 26 of the element"),
        Arguments.of(
            "v:{\"some\":\"json\"} {\"other\":\"json\"",
            "path element \"v:{\\\"some\\\":\\\"json\\\"} {\\\"other\\\":\\\"json\\\"\": unexpected '{' after the JSON value at character 18 of the element"),
        Arguments.of(
            "k:{\"name\":\"my-container\"} {\"other\":\"my-container\"",
            "path element \"k:{\\\"name\\\":\\\"my-container\\\"} {\\\"other\\\":\\\"my-container\\\"\": unexpected '{' after the JSON value at character 26 of the element"),
        Arguments.of(
            "v:{\"some\":\"json\"} garbage",
            "path element \"v:{\\\"some\\\":\\\"json\\\"} garbage\": unexpected 'g' after the JSON value at character 18 of the element"),
        Arguments.of(
            "k:{\"name\":\"my-container\"} garbage",
            "path element \"k:{\\\"name\\\":\\\"my-container\\\"} garbage\": unexpected 'g' after the JSON value at character 26 of the element"),
        // Beyond Go's table.
        Arguments.of(
            "r:Hello", "path element \"r:Hello\": unknown kind \"r\": expected f, k, v or i"),
        Arguments.of("k:[1]", "path element \"k:[1]\": a key must be a JSON object"),
        Arguments.of(
            "i:9223372036854775808",
            "path element \"i:9223372036854775808\": the index is out of the 64-bit range"),
        Arguments.of(
            "v:01",
            "path element \"v:01\": a number must not have a leading zero at character 2 of the element"),
        Arguments.of(
            "v:1e400",
            "path element \"v:1e400\": number 1e400 is out of the range of a double at character 2 of the element"),
        Arguments.of(
            "v:\"a\nb\"",
            "path element \"v:\\\"a\\nb\\\"\": control character U+000A in a string must be escaped at character 4 of the element"),
        Arguments.of(
            "v:\"\\u12\"",
            "path element \"v:\\\"\\\\u12\\\"\": expected four hexadecimal digits after \\u at character 5 of the element"),
        Arguments.of(
            "v:tru",
            "path element \"v:tru\": expected a JSON value, found 't' at character 2 of the element"),
        Arguments.of(
            "v:[1,]",
            "path element \"v:[1,]\": expected a JSON value, found ']' at character 5 of the element"),
        Arguments.of(
            "v:-",
            "path element \"v:-\": expected a digit in a number, found the end of the input at character 3 of the element"),
        Arguments.of(
            "v:1.",
            "path element \"v:1.\": expected a digit after the decimal point, found the end of the input at character 4 of the element"),
        Arguments.of(
            "v:1e",
            "path element \"v:1e\": expected a digit in the exponent, found the end of the input at character 4 of the element"),
        Arguments.of(
            "v:\"abc",
            "path element \"v:\\\"abc\": the string is not closed at character 6 of the element"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("malformed")
  void refusesMalformedElements(String text, String message) {
    FieldPathException e = assertThrows(FieldPathException.class, () -> PathElement.parse(text));
    assertEquals(message, e.getMessage());
    assertEquals(FieldPathException.Kind.MALFORMED, e.kind());
    assertEquals(-1, e.offset());
    assertEquals(400, e.statusCode());
  }

  @Test
  void refusesValuesDeeperThanTheLimit() {
    String deep = "v:" + "[".repeat(1001) + "]".repeat(1001);
    FieldPathException e = assertThrows(FieldPathException.class, () -> PathElement.parse(deep));
    assertEquals(FieldPathException.Kind.TOO_LARGE, e.kind());
    assertEquals(
        "path element \"v:"
            + "[".repeat(59)
            + "...\": the JSON is nested deeper than 1000 levels"
            + " at character 1002 of the element",
        e.getMessage());
    assertEquals(413, e.statusCode());
  }

  @Test
  void refusesValuesThatAreNotJson() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> value(new Object()));
    assertEquals(
        "a path element value must be null, a String, a Boolean, an integer, a floating-point"
            + " number or a JsonNode; got java.lang.Object",
        e.getMessage());
    assertEquals(
        "number NaN is not finite",
        assertThrows(IllegalArgumentException.class, () -> value(Double.NaN)).getMessage());
    assertEquals(
        "every key field name needs a value",
        assertThrows(IllegalArgumentException.class, () -> key("name")).getMessage());
  }

  @Test
  void copiesJsonValuesInAndOut() {
    com.fasterxml.jackson.databind.node.ObjectNode node = JSON.createObjectNode().put("a", 1);
    PathElement.Value element = (PathElement.Value) value(node);
    node.put("a", 2);
    ((com.fasterxml.jackson.databind.node.ObjectNode) element.value()).put("a", 3);
    assertEquals("v:{\"a\":1}", element.serialize());
  }

  @Test
  void sortsAListOfElementsAsGo() {
    List<PathElement> elements =
        new ArrayList<>(
            Arrays.asList(
                index(1), value("x"), key("name", "b"), field("b"), value(2), field("a")));
    elements.sort(null);
    assertEquals("[.a, .b, [name=\"b\"], [=2], [=\"x\"], [1]]", elements.toString());
  }
}
