package dev.machinery.core.fieldpath;

import static dev.machinery.core.fieldpath.PathElement.field;
import static dev.machinery.core.fieldpath.PathElement.index;
import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** structured-merge-diff's serialize_test.go, real managedFields, and the limits. */
class FieldsV1Test {
  // TestSerializeV1GoldenData: read and written back byte for byte.
  static Stream<String> golden() {
    return Stream.of(
        "{\"f:aaa\":{},\"f:aab\":{},\"f:aac\":{},\"f:aad\":{},\"f:aae\":{},\"f:aaf\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{},\"k:{\\\"name\\\":\\\"second\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:1\":{},\"v:2\":{},\"v:3\":{},\"v:\\\"aa\\\"\":{},\"v:\\\"ab\\\"\":{},\"v:true\":{},\"i:1\":{},\"i:2\":{},\"i:3\":{},\"i:4\":{}}",
        "{\"f:aaa\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{\"v:3\":{\"f:aab\":{}}},\"v:3\":{},\"v:true\":{}},\"f:aab\":{\"f:aaa\":{},\"f:aaf\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}}},\"k:{\\\"name\\\":\\\"first\\\"}\":{}},\"f:aac\":{\"f:aaa\":{\"v:1\":{}},\"f:aac\":{},\"v:3\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{}}},\"f:aad\":{\"f:aac\":{\"v:1\":{}},\"f:aaf\":{\"k:{\\\"name\\\":\\\"first\\\"}\":{\"k:{\\\"name\\\":\\\"first\\\"}\":{}}},\"i:1\":{\"i:1\":{},\"i:3\":{\"v:true\":{}}}},\"f:aae\":{\"f:aae\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{}},\"i:4\":{\"f:aaf\":{}}},\"f:aaf\":{\"i:1\":{\"f:aac\":{}},\"i:2\":{},\"i:3\":{}},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"f:aad\":{\"f:aaf\":{}}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"f:aaa\":{\"f:aad\":{}}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"f:aac\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"i:3\":{}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"i:4\":{}}},\"v:1\":{\"f:aac\":{\"i:4\":{}},\"f:aaf\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}},\"v:2\":{\"f:aad\":{\"f:aaf\":{}},\"i:1\":{}},\"v:3\":{\"f:aaa\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{},\"i:2\":{}},\"v:\\\"aa\\\"\":{\"f:aab\":{\"f:aaf\":{}},\"f:aae\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"f:aad\":{}},\"i:2\":{}},\"v:\\\"ab\\\"\":{\"f:aaf\":{\"i:4\":{}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:1\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{}},\"i:1\":{\"f:aae\":{\"i:4\":{}}}},\"v:true\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{\"f:aaa\":{}},\"i:2\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}}},\"i:1\":{\"i:3\":{\"f:aaf\":{}}},\"i:2\":{\"f:aae\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"v:1\":{}}},\"i:3\":{\"f:aab\":{\"v:true\":{\"v:\\\"aa\\\"\":{}}},\"f:aaf\":{},\"i:1\":{}},\"i:4\":{\"v:\\\"aa\\\"\":{\"f:aab\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{}}}}}",
        "{\"f:spec\":{\".\":{},\"f:apps\":{\".\":{},\"k:{\\\"name\\\":\\\" app-💻\\\"}\":{\".\":{},\"f:container\":{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":{\".\":{},\"k:{\\\"name\\\":\\\"port 🔑\\\"}\":{\".\":{},\"f:containerPort\":{},\"f:name\":{}}}},\"f:name\":{}},\"k:{\\\"name\\\":\\\" app-🚀\\\"}\":{\".\":{},\"f:container\":{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":{\".\":{},\"k:{\\\"name\\\":\\\"port-✅ \\\"}\":{\".\":{},\"f:containerPort\":{},\"f:name\":{}}}},\"f:name\":{}}}}}");
  }

  @ParameterizedTest
  @MethodSource("golden")
  void writesBackGoldenDataByteForByte(String json) {
    assertEquals(json, FieldsV1.toJson(FieldsV1.parse(json)));
    assertArrayEquals(
        json.getBytes(StandardCharsets.UTF_8),
        FieldsV1.toBytes(FieldsV1.parse(json.getBytes(StandardCharsets.UTF_8))));
  }

  // TestDeserializeForValidNonNormalized: whitespace and any order read as the normal form.
  static Stream<Arguments> nonNormalized() {
    return Stream.of(
        Arguments.of(
            "{\n  \"f:aad\": {},\n  \"f:aaa\": {},\n  \"f:aab\": {},\n  \"f:aac\": {},\n  \"f:aae\": {},\n  \"f:aaf\": {},\n\n\n  \"k:{\\\"name\\\":\\\"first\\\"}\": {},\n  \"k:{\\\"name\\\":\\\"second\\\"}\": {},\n  \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {},\n  \"k:{ \\\"protocol\\\":\\\"udp\\\",\\\"port\\\":443}\": {},\n  \"v:1\": {},\n\n  \"v:2\": {},\n  \"v: 3\": {},\n  \"v:\\\"aa\\\"\": {},\n\n  \"v:\\\"ab\\\"\": {},\n  \"v:true\": {},\n  \"i:1\": {},\n  \t\"i:2\": {},\n  \"i:3\": {}  ,\n  \"i:4\":    {}\n}",
            "{\"f:aaa\":{},\"f:aab\":{},\"f:aac\":{},\"f:aad\":{},\"f:aae\":{},\"f:aaf\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{},\"k:{\\\"name\\\":\\\"second\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:1\":{},\"v:2\":{},\"v:3\":{},\"v:\\\"aa\\\"\":{},\"v:\\\"ab\\\"\":{},\"v:true\":{},\"i:1\":{},\"i:2\":{},\"i:3\":{},\"i:4\":{}}"),
        Arguments.of(
            "{\n  \"f:aaa\": {\n    \"k:{\\\"name\\\":\\\"second\\\"}\": {\n      \"v:3\": {\n        \"f:aab\": {}\n      }\n    },\n    \"v:3\": {},\n    \"v:true\": {}\n  },\n  \"f:aab\": {\n    \"f:aaa\": {},\n    \"f:aaf\": {\n      \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {\n        \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {}\n      }\n    },\n    \"k:{\\\"name\\\":\\\"first\\\"}\": {}\n  },\n  \"f:aac\": {\n    \"f:aaa\": {\n      \"v:1\": {}\n    },\n    \"f:aac\": {},\n    \"v:3\": {\n      \"k:{\\\"name\\\":\\\"second\\\"}\": {}\n    }\n  },\n  \"f:aad\": {\n    \"f:aac\": {\n      \"v:1\": {}\n    },\n    \"f:aaf\": {\n      \"k:{\\\"name\\\":\\\"first\\\"}\": {\n        \"k:{\\\"name\\\":\\\"first\\\"}\": {}\n      }\n    },\n    \"i:1\": {\n      \"i:1\": {},\n      \"i:3\": {\n        \"v:true\": {}\n      }\n    }\n  },\n  \"f:aae\": {\n    \"f:aae\": {},\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {\n      \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {}\n    },\n    \"i:4\": {\n      \"f:aaf\": {}\n    }\n  },\n  \"f:aaf\": {\n    \"i:1\": {\n      \"f:aac\": {}\n    },\n\t\"i:3\": {},\n    \"i:2\": {}\n  },\n  \"k:{\\\"name\\\":\\\"first\\\"}\": {\n    \"f:aad\": {\n      \"f:aaf\": {}\n    }\n  },\n  \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {\n    \"f:aaa\": {\n      \"f:aad\": {}\n    }\n  },\n  \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {\n    \"f:aac\": {},\n    \"k:{\\\"name\\\":\\\"first\\\"}\": {\n      \"i:3\": {}\n    },\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {\n      \"i:4\": {}\n    }\n  },\n   \"v:2\": {\n    \"f:aad\": {\n      \"f:aaf\": {}\n    },\n    \"i:1\": {}\n  },\n  \"v:1\": {\n    \"f:aac\": {\n      \"i:4\": {}\n    },\n    \"f:aaf\": {},\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {}\n  },\n  \"v:3\": {\n    \"f:aaa\": {},\n    \"k:{\\\"name\\\":\\\"first\\\"}\": {},\n    \"i:2\": {}\n  },\n  \"v:\\\"aa\\\"\": {\n    \"f:aab\": {\n      \"f:aaf\": {}\n    },\n    \"f:aae\": {},\n    \"k:{\\\"name\\\":\\\"first\\\"}\": {\n      \"f:aad\": {}\n    },\n    \"i:2\": {}\n  },\n  \"v:\\\"ab\\\"\": {\n    \"f:aaf\": {\n      \"i:4\": {}\n    },\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {},\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {},\n    \"v:1\": {\n      \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\": {}\n    },\n    \"i:1\": {\n      \"f:aae\": {\n        \"i:4\": {}\n      }\n    }\n  },\n  \n  \"v:true\": {\n    \"k:{\\\"name\\\":\\\"second\\\"}\": {\n      \"f:aaa\": {}\n    },\n    \"i:2\": {\n      \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {}\n    }\n  },\n\n  \n  \"i:1\": {\n    \"i:3\": {\n      \"f:aaf\": {}\n    }\n  },\n\n  \"i:3\": {\n    \"f:aab\": {\n      \"v:true\": {\n        \"v:\\\"aa\\\"\": {}\n      }\n    },\n    \"f:aaf\": {},\n    \"i:1\": {}\n  },\n\n  \"i:2\": {\n    \"f:aae\": {},\n    \"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\": {\n      \"v:1\": {}\n    }\n  },\n\n  \"i:4\": {\n    \"v:\\\"aa\\\"\": {\n      \"f:aab\": {\n        \"k:{\\\"name\\\":\\\"second\\\"}\": {}\n      }\n    }\n  }\n}",
            "{\"f:aaa\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{\"v:3\":{\"f:aab\":{}}},\"v:3\":{},\"v:true\":{}},\"f:aab\":{\"f:aaa\":{},\"f:aaf\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}}},\"k:{\\\"name\\\":\\\"first\\\"}\":{}},\"f:aac\":{\"f:aaa\":{\"v:1\":{}},\"f:aac\":{},\"v:3\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{}}},\"f:aad\":{\"f:aac\":{\"v:1\":{}},\"f:aaf\":{\"k:{\\\"name\\\":\\\"first\\\"}\":{\"k:{\\\"name\\\":\\\"first\\\"}\":{}}},\"i:1\":{\"i:1\":{},\"i:3\":{\"v:true\":{}}}},\"f:aae\":{\"f:aae\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{}},\"i:4\":{\"f:aaf\":{}}},\"f:aaf\":{\"i:1\":{\"f:aac\":{}},\"i:2\":{},\"i:3\":{}},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"f:aad\":{\"f:aaf\":{}}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"f:aaa\":{\"f:aad\":{}}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"f:aac\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"i:3\":{}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{\"i:4\":{}}},\"v:1\":{\"f:aac\":{\"i:4\":{}},\"f:aaf\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}},\"v:2\":{\"f:aad\":{\"f:aaf\":{}},\"i:1\":{}},\"v:3\":{\"f:aaa\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{},\"i:2\":{}},\"v:\\\"aa\\\"\":{\"f:aab\":{\"f:aaf\":{}},\"f:aae\":{},\"k:{\\\"name\\\":\\\"first\\\"}\":{\"f:aad\":{}},\"i:2\":{}},\"v:\\\"ab\\\"\":{\"f:aaf\":{\"i:4\":{}},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{},\"v:1\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"udp\\\"}\":{}},\"i:1\":{\"f:aae\":{\"i:4\":{}}}},\"v:true\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{\"f:aaa\":{}},\"i:2\":{\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{}}},\"i:1\":{\"i:3\":{\"f:aaf\":{}}},\"i:2\":{\"f:aae\":{},\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"tcp\\\"}\":{\"v:1\":{}}},\"i:3\":{\"f:aab\":{\"v:true\":{\"v:\\\"aa\\\"\":{}}},\"f:aaf\":{},\"i:1\":{}},\"i:4\":{\"v:\\\"aa\\\"\":{\"f:aab\":{\"k:{\\\"name\\\":\\\"second\\\"}\":{}}}}}"));
  }

  @ParameterizedTest
  @MethodSource("nonNormalized")
  void normalizesWhitespaceAndOrder(String input, String normal) {
    FieldSet set = FieldsV1.parse(input);
    assertEquals(FieldsV1.parse(normal), set);
    assertEquals(normal, FieldsV1.toJson(set));
  }

  // TestSetFromJSONTokenTypeErrors, with the messages and offsets, and two bad path elements.
  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "rootArray",
            "[]",
            0,
            "invalid FieldsV1 at offset 0: expected a JSON object, found '['"),
        Arguments.of(
            "rootNumber",
            "42",
            0,
            "invalid FieldsV1 at offset 0: expected a JSON object, found '4'"),
        Arguments.of(
            "rootString",
            "\"hi\"",
            0,
            "invalid FieldsV1 at offset 0: expected a JSON object, found '\"'"),
        Arguments.of(
            "empty",
            "",
            0,
            "invalid FieldsV1 at offset 0: expected a JSON object, found the end of the input"),
        Arguments.of(
            "whitespaceOnly",
            "   ",
            3,
            "invalid FieldsV1 at offset 3: expected a JSON object, found the end of the input"),
        Arguments.of(
            "numberAsKey",
            "{1:{}}",
            1,
            "invalid FieldsV1 at offset 1: expected a string key, found '1'"),
        Arguments.of(
            "trailingCommaAfterEntry",
            "{\"f:a\":{},}",
            10,
            "invalid FieldsV1 at offset 10: expected a string key, found '}'"),
        Arguments.of(
            "closedBeforeColon",
            "{\"f:a\" }:{}}",
            7,
            "invalid FieldsV1 at offset 7: expected ':' after a key, found '}'"),
        Arguments.of(
            "closedBeforeValue",
            "{\"f:a\":}",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found '}'"),
        Arguments.of(
            "valueIsNumber",
            "{\"f:a\":1}",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found '1'"),
        Arguments.of(
            "valueIsArray",
            "{\"f:a\":[]}",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found '['"),
        Arguments.of(
            "valueOpenedAsArrayClosedAsObject",
            "{\"f:a\":[}",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found '['"),
        Arguments.of(
            "valueOpenedAsObjectClosedAsArray",
            "{\"f:a\":{]}",
            8,
            "invalid FieldsV1 at offset 8 (in .a): expected a string key, found ']'"),
        Arguments.of(
            "doubleCommaBetweenEntries",
            "{\"f:a\":{},,\"f:b\":{}}",
            10,
            "invalid FieldsV1 at offset 10: expected a string key, found ','"),
        Arguments.of(
            "missingCommaBetweenEntries",
            "{\"f:a\":{} \"f:b\":{}}",
            10,
            "invalid FieldsV1 at offset 10: expected ',' or '}' after an entry, found '\"'"),
        Arguments.of(
            "doubleColonAfterKey",
            "{\"f:a\"::{}}",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found ':'"),
        Arguments.of(
            "colonWithoutKey",
            "{:1}",
            1,
            "invalid FieldsV1 at offset 1: expected a string key, found ':'"),
        Arguments.of(
            "keyWithoutColon",
            "{\"f:a\"}",
            6,
            "invalid FieldsV1 at offset 6: expected ':' after a key, found '}'"),
        Arguments.of(
            "leadingCommaInsideValue",
            "{\"f:a\":{,}}",
            8,
            "invalid FieldsV1 at offset 8 (in .a): expected a string key, found ','"),
        Arguments.of(
            "bareCloseBrace",
            "}",
            0,
            "invalid FieldsV1 at offset 0: expected a JSON object, found '}'"),
        Arguments.of(
            "keyEmptyString",
            "{\"\":{}}",
            1,
            "invalid FieldsV1 at offset 1: path element \"\": expected a kind and a colon, like \"f:name\""),
        Arguments.of(
            "keyMissingColon",
            "{\"x\":{}}",
            1,
            "invalid FieldsV1 at offset 1: path element \"x\": expected a kind and a colon, like \"f:name\""),
        Arguments.of(
            "keyOnlyColon",
            "{\":\":{}}",
            1,
            "invalid FieldsV1 at offset 1: path element \":\": expected a kind and a colon, like \"f:name\""),
        Arguments.of(
            "unclosedAfterOpen",
            "{",
            1,
            "invalid FieldsV1 at offset 1: expected a string key, found the end of the input"),
        Arguments.of(
            "unclosedAfterValue",
            "{\"f:a\":{}",
            9,
            "invalid FieldsV1 at offset 9: expected ',' or '}' after an entry, found the end of the input"),
        Arguments.of(
            "unclosedAfterTrailingComma",
            "{\"f:a\":{},",
            10,
            "invalid FieldsV1 at offset 10: expected a string key, found the end of the input"),
        Arguments.of(
            "truncatedOpenQuoteOnly",
            "{\"",
            2,
            "invalid FieldsV1 at offset 2: the string is not closed"),
        Arguments.of(
            "truncatedKeyTypeOnly",
            "{\"f",
            3,
            "invalid FieldsV1 at offset 3: the string is not closed"),
        Arguments.of(
            "truncatedKeySeparator",
            "{\"f:",
            4,
            "invalid FieldsV1 at offset 4: the string is not closed"),
        Arguments.of(
            "truncatedKeyNoCloseQuote",
            "{\"f:a",
            5,
            "invalid FieldsV1 at offset 5: the string is not closed"),
        Arguments.of(
            "truncatedAfterKey",
            "{\"f:a\"",
            6,
            "invalid FieldsV1 at offset 6: expected ':' after a key, found the end of the input"),
        Arguments.of(
            "truncatedAfterColon",
            "{\"f:a\":",
            7,
            "invalid FieldsV1 at offset 7 (in .a): expected a JSON object for a field set entry, found the end of the input"),
        Arguments.of(
            "truncatedAfterNestedOpen",
            "{\"f:a\":{",
            8,
            "invalid FieldsV1 at offset 8 (in .a): expected a string key, found the end of the input"),
        Arguments.of(
            "truncatedAfterNestedKey",
            "{\"f:a\":{\"f:b\"",
            13,
            "invalid FieldsV1 at offset 13 (in .a): expected ':' after a key, found the end of the input"),
        Arguments.of(
            "truncatedAfterNestedColon",
            "{\"f:a\":{\"f:b\":",
            14,
            "invalid FieldsV1 at offset 14 (in .a.b): expected a JSON object for a field set entry, found the end of the input"),
        Arguments.of(
            "truncatedAfterNestedValue",
            "{\"f:a\":{\"f:b\":{}",
            16,
            "invalid FieldsV1 at offset 16 (in .a): expected ',' or '}' after an entry, found the end of the input"),
        Arguments.of(
            "truncatedAfterNestedComma",
            "{\"f:a\":{\"f:b\":{},",
            17,
            "invalid FieldsV1 at offset 17 (in .a): expected a string key, found the end of the input"),
        Arguments.of(
            "truncatedKeyWithEscape",
            "{\"f:a\\",
            6,
            "invalid FieldsV1 at offset 6: the string is not closed"),
        Arguments.of(
            "truncatedKeyInsideUnicodeEscape",
            "{\"f:\\u00",
            6,
            "invalid FieldsV1 at offset 6: expected four hexadecimal digits after \\u"),
        Arguments.of(
            "truncatedAtSecondKey",
            "{\"f:a\":{}, \"f",
            13,
            "invalid FieldsV1 at offset 13: the string is not closed"),
        Arguments.of(
            "truncatedAtSecondKeyClose",
            "{\"f:a\":{}, \"f:b",
            15,
            "invalid FieldsV1 at offset 15: the string is not closed"),
        Arguments.of(
            "trailingCloseBrace",
            "{\"f:a\":{}}}",
            10,
            "invalid FieldsV1 at offset 10: unexpected '}' after the field set"),
        Arguments.of(
            "trailingObject",
            "{\"f:a\":{}}{}",
            10,
            "invalid FieldsV1 at offset 10: unexpected '{' after the field set"),
        Arguments.of(
            "trailingString",
            "{\"f:a\":{}}\"string\"",
            10,
            "invalid FieldsV1 at offset 10: unexpected '\"' after the field set"),
        Arguments.of(
            "trailingNumber",
            "{\"f:a\":{}}42",
            10,
            "invalid FieldsV1 at offset 10: unexpected '4' after the field set"),
        Arguments.of(
            "trailingWhitespaceThenCloseBrace",
            "{\"f:a\":{}}  }",
            12,
            "invalid FieldsV1 at offset 12: unexpected '}' after the field set"),
        Arguments.of(
            "trailingWhitespaceThenObject",
            "{\"f:a\":{}}  {}",
            12,
            "invalid FieldsV1 at offset 12: unexpected '{' after the field set"),
        Arguments.of(
            "trailingWhitespaceThenString",
            "{\"f:a\":{}}  \"x\"",
            12,
            "invalid FieldsV1 at offset 12: unexpected '\"' after the field set"),
        Arguments.of(
            "trailingWhitespaceThenNumber",
            "{\"f:a\":{}}\n42",
            11,
            "invalid FieldsV1 at offset 11: unexpected '4' after the field set"),
        Arguments.of(
            "badKeyInNestedEntry",
            "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":1\":{}}}}",
            27,
            "invalid FieldsV1 at offset 27 (in .spec.containers): path element \"k:{\\\"name\\\":1\": expected ',' or '}' after an object entry, found the end of the input at character 11 of the element"),
        Arguments.of(
            "badIndexInNestedEntry",
            "{\"f:spec\":{\"f:ports\":{\"i:x\":{}}}}",
            22,
            "invalid FieldsV1 at offset 22 (in .spec.ports): path element \"i:x\": the index is not an integer"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void refusesMalformedInput(String name, String input, int offset, String message) {
    FieldPathException e = assertThrows(FieldPathException.class, () -> FieldsV1.parse(input));
    assertEquals(message, e.getMessage());
    assertEquals(offset, e.offset());
    assertEquals(FieldPathException.Kind.MALFORMED, e.kind());
    assertEquals("BadRequest", e.statusReason());
  }

  // TestSetFromJSON: whitespace around and inside, and a bare null.
  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of("trailingSpace", "{\"f:a\":{}} "),
        Arguments.of("trailingTab", "{\"f:a\":{}}\t"),
        Arguments.of("trailingNewline", "{\"f:a\":{}}\n"),
        Arguments.of("trailingCarriageReturn", "{\"f:a\":{}}\r"),
        Arguments.of("trailingMultipleSpaces", "{\"f:a\":{}}     "),
        Arguments.of("trailingMixedWhitespace", "{\"f:a\":{}} \t\n\r "),
        Arguments.of("leadingSpace", " {\"f:a\":{}}"),
        Arguments.of("leadingTab", "\t{\"f:a\":{}}"),
        Arguments.of("leadingNewline", "\n{\"f:a\":{}}"),
        Arguments.of("leadingCarriageReturn", "\r{\"f:a\":{}}"),
        Arguments.of("leadingMultipleSpaces", "     {\"f:a\":{}}"),
        Arguments.of("leadingMixedWhitespace", " \t\n\r {\"f:a\":{}}"),
        Arguments.of("surroundingMixedWhitespace", " \t\n\r {\"f:a\":{}} \t\n\r "),
        Arguments.of("whitespaceAroundEmptySet", "  {}  "),
        Arguments.of("whitespaceBetweenTokens", "{ \"f:a\" : {} }"),
        Arguments.of("whitespaceBeforeKey", "{\n\t\"f:a\":{}}"),
        Arguments.of("whitespaceAfterColon", "{\"f:a\":     {}}"),
        Arguments.of("bareNull", "null"),
        Arguments.of("nullWithSurroundingWhitespace", " null "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void acceptsWhitespaceAndNull(String name, String input) {
    FieldSet set = FieldsV1.parse(input);
    assertEquals(input.contains("f:a") ? "{\"f:a\":{}}" : "{}", FieldsV1.toJson(set));
  }

  // TestDropUnknown.
  @Test
  void dropsEntriesOfUnknownKinds() {
    assertEquals("{\"f:aaa\":{}}", FieldsV1.toJson(FieldsV1.parse("{\"f:aaa\":{},\"r:aab\":{}}")));
    assertEquals(
        "{\"f:a\":{}}",
        FieldsV1.toJson(
            FieldsV1.parse("{\"f:a\":{\"r:x\":{\"f:b\":{}},\"r:y\":[1,{\"z\":null}]}}")));
  }

  @Test
  void readsTheSelfEntryAndNullAsGo() {
    // "." with any value makes the entry a member; null reads as {}.
    assertEquals(
        FieldSet.of(FieldPath.of("a"), FieldPath.of("a", "b"), FieldPath.of("c")),
        FieldsV1.parse("{\"f:a\":{\"f:b\":null,\".\":[1]},\"f:c\":null}"));
    // An entry of only "." is a member without children; the top-level "." is ignored.
    assertEquals("{\"f:a\":{}}", FieldsV1.toJson(FieldsV1.parse("{\".\":{},\"f:a\":{\".\":{}}}")));
    assertEquals(FieldSet.empty(), FieldsV1.parse("{}"));
    assertEquals("{}", FieldsV1.toJson(FieldSet.empty()));
  }

  @Test
  void mergesRepeatedEntriesAsGo() {
    // Members of repeated entries add up; the children of the later entry replace the earlier's.
    assertEquals(
        "{\"f:a\":{\".\":{},\"f:c\":{}}}",
        FieldsV1.toJson(FieldsV1.parse("{\"f:a\":{\"f:b\":{}},\"f:a\":{},\"f:a\":{\"f:c\":{}}}")));
  }

  @Test
  void writesEveryKindOfElementAsKubeApiserver() {
    FieldSet set =
        FieldSet.of(
            FieldPath.of("metadata", "labels", "app"),
            FieldPath.of("metadata", "finalizers", value("example.com/cleanup")),
            FieldPath.of("spec", "containers", key("name", "nginx")),
            FieldPath.of("spec", "containers", key("name", "nginx"), "image"),
            FieldPath.of(
                "spec",
                "containers",
                key("name", "nginx"),
                "ports",
                key("protocol", "TCP", "containerPort", 80)),
            FieldPath.of("spec", "args", index(0)),
            FieldPath.of("spec", "f:odd \"name\"\\<&>\n\u2028"),
            FieldPath.of("spec", "set", value(1.5)),
            FieldPath.of("spec", "set", value(json("{\"b\":[true,null],\"a\":\"<\"}"))));
    assertEquals(
        "{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/cleanup\\\"\":{}},"
            + "\"f:labels\":{\"f:app\":{}}},"
            + "\"f:spec\":{\"f:args\":{\"i:0\":{}},"
            + "\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},"
            + "\"f:ports\":{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{}}}},"
            + "\"f:f:odd \\\"name\\\"\\\\<&>\\n\u2028\":{},"
            + "\"f:set\":{\"v:1.5\":{},"
            + "\"v:{\\\"a\\\":\\\"\\\\u003c\\\",\\\"b\\\":[true,null]}\":{}}}}",
        FieldsV1.toJson(set));
    assertEquals(set, FieldsV1.parse(FieldsV1.toJson(set)));
  }

  private static com.fasterxml.jackson.databind.JsonNode json(String text) {
    return PathElementTest.json(text);
  }

  @Test
  void namesTheOffsetOfABadElementInAnEntry() {
    FieldPathException e =
        assertThrows(
            FieldPathException.class,
            () -> FieldsV1.parse("{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":}\":{}}}}"));
    assertEquals(
        "invalid FieldsV1 at offset 27 (in .spec.containers): path element"
            + " \"k:{\\\"name\\\":}\": expected a JSON value, found '}' at character 10 of the element",
        e.getMessage());
    assertEquals(27, e.offset());
  }

  // Real managedFields of kube-apiserver: each reads and writes back byte for byte.
  static List<String> managedFields() throws IOException {
    List<String> fields = new ArrayList<>();
    try (InputStream in = FieldsV1Test.class.getResourceAsStream("/fieldpath/managed-fields.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isEmpty() && !line.startsWith("#")) {
          fields.add(line);
        }
      }
    }
    return fields;
  }

  @ParameterizedTest
  @MethodSource("managedFields")
  void writesBackRealManagedFieldsByteForByte(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(bytes, FieldsV1.toBytes(FieldsV1.parse(bytes)));
  }

  @Test
  void readsTheFieldsOfARealDeployment() throws IOException {
    FieldSet set = FieldsV1.parse(managedFields().get(0));
    FieldPath image =
        FieldPath.of("spec", "template", "spec", "containers", key("name", "nginx"), "image");
    assertEquals(true, set.has(image));
    assertEquals(".spec.template.spec.containers[name=\"nginx\"].image", image.toString());
    assertEquals(24, set.size());
    assertEquals(20, set.leaves().size());
  }

  @Test
  void refusesInputBeyondTheLimits() {
    FieldsV1Limits limits = new FieldsV1Limits(64, 3);
    FieldPathException tooLong =
        assertThrows(
            FieldPathException.class, () -> FieldsV1.parse("{" + " ".repeat(64) + "}", limits));
    assertEquals("FieldsV1 of 66 characters is longer than the limit of 64", tooLong.getMessage());
    assertEquals(FieldPathException.Kind.TOO_LARGE, tooLong.kind());
    assertEquals(413, tooLong.statusCode());
    assertEquals(
        "FieldsV1 of 65 bytes is longer than the limit of 64",
        assertThrows(FieldPathException.class, () -> FieldsV1.parse(new byte[65], limits))
            .getMessage());

    String deep = "{\"f:a\":{\"f:b\":{\"f:c\":{\"f:d\":{}}}}}";
    FieldPathException tooDeep =
        assertThrows(FieldPathException.class, () -> FieldsV1.parse(deep, limits));
    assertEquals(
        "invalid FieldsV1 at offset 21 (in .a.b.c): the JSON is nested deeper than 3 levels",
        tooDeep.getMessage());
    assertEquals(FieldPathException.Kind.TOO_LARGE, tooDeep.kind());
    assertEquals(
        "invalid FieldsV1 at offset 13 (in .a): the JSON is nested deeper than 3 levels",
        assertThrows(
                FieldPathException.class, () -> FieldsV1.parse("{\"f:a\":{\".\":[[[]]]}}", limits))
            .getMessage());
  }

  @Test
  void refusesHostileNestingWithoutOverflowingTheStack() {
    String deep = "{\"f:a\":".repeat(100_000) + "{}" + "}".repeat(100_000);
    FieldPathException e = assertThrows(FieldPathException.class, () -> FieldsV1.parse(deep));
    assertEquals(FieldPathException.Kind.TOO_LARGE, e.kind());
    assertEquals(
        "invalid FieldsV1 at offset 7000 (in "
            + ".a".repeat(1000)
            + "): the JSON is nested deeper than 1000 levels",
        e.getMessage());
    String deepValue = "{\".\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
    assertEquals(
        "invalid FieldsV1 at offset 1004: the JSON is nested deeper than 1000 levels",
        assertThrows(FieldPathException.class, () -> FieldsV1.parse(deepValue)).getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {0xC3, 0xFF, 0x80})
  void refusesBytesThatAreNotUtf8(int bad) {
    byte[] bytes = {'{', '"', 'f', ':', (byte) bad, '"', ':', '{', '}', '}'};
    FieldPathException e = assertThrows(FieldPathException.class, () -> FieldsV1.parse(bytes));
    assertEquals("invalid FieldsV1 at byte 4: the input is not UTF-8", e.getMessage());
    assertEquals(-1, e.offset());
  }

  @Test
  void refusesBadLimits() {
    assertEquals(
        "maxLength must be at least 2 and maxDepth positive",
        assertThrows(IllegalArgumentException.class, () -> new FieldsV1Limits(1, 1)).getMessage());
    assertEquals(
        field("a"), FieldsV1.parse("{\"f:a\":{}}", new FieldsV1Limits(10, 2)).members().get(0));
  }
}
