package dev.machinery.core.typed;

import static dev.machinery.core.typed.TypedToFieldSetTest.ASSOCIATIVE_LIST;
import static dev.machinery.core.typed.TypedToFieldSetTest.GRAB_BAG;
import static dev.machinery.core.typed.TypedToFieldSetTest.SIMPLE_PAIR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's validate_test.go (TestSchemaValidation): valid objects, invalid objects
 * (whose errors must say more than "invalid atom"), and objects valid only when duplicates are
 * allowed; then the messages of Go's errors for a selection of them.
 */
class TypedValidationTest {
  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":1}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":{}}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":null}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\"}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":true}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":null}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":null}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":1}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":3.14159}"),
        Arguments.of(GRAB_BAG, "{\"string\":null}"),
        Arguments.of(GRAB_BAG, "{\"string\":\"aoeu\"}"),
        Arguments.of(GRAB_BAG, "{\"bool\":null}"),
        Arguments.of(GRAB_BAG, "{\"bool\":true}"),
        Arguments.of(GRAB_BAG, "{\"bool\":false}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[\"a\",\"b\",\"c\"]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[true,false]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[1,2,3,3.14159]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[]}"),
        Arguments.of(
            ASSOCIATIVE_LIST, "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":\"a\"}}]}"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1},{\"key\":\"a\",\"id\":2},{\"key\":\"b\",\"id\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"atomicList\":[\"a\",\"a\",\"a\"]}"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"x\",\"value\":{\"a\":\"a\"},\"bv\":true,\"nv\":3.14}]}"));
  }

  @ParameterizedTest
  @MethodSource("valid")
  void validObjects(SchemaType type, String object) {
    type.validate(SmdSchemas.yaml(object));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(SIMPLE_PAIR, "{\"key\":true,\"value\":1}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":1,\"value\":{}}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":false,\"value\":null}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":[1, 2]}"),
        Arguments.of(SIMPLE_PAIR, "{\"key\":{\"foo\":true}}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":[\"foo\"]}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":{\"a\":1}}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":\"foo\"}"),
        Arguments.of(GRAB_BAG, "{\"numeric\":true}"),
        Arguments.of(GRAB_BAG, "{\"string\":1}"),
        Arguments.of(GRAB_BAG, "{\"string\":3.5}"),
        Arguments.of(GRAB_BAG, "{\"string\":true}"),
        Arguments.of(GRAB_BAG, "{\"string\":{\"a\":1}}"),
        Arguments.of(GRAB_BAG, "{\"string\":[\"foo\"]}"),
        Arguments.of(GRAB_BAG, "{\"bool\":1}"),
        Arguments.of(GRAB_BAG, "{\"bool\":3.5}"),
        Arguments.of(GRAB_BAG, "{\"bool\":\"aoeu\"}"),
        Arguments.of(GRAB_BAG, "{\"bool\":{\"a\":1}}"),
        Arguments.of(GRAB_BAG, "{\"bool\":[\"foo\"]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[1]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[true]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[1.5]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[null]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[{}]}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[[]]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[1]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[1.5]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[null]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[{}]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[[]]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[\"a\"]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[null]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[true]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[\"a\"]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[[]]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[{}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"key\":true,\"value\":1}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":{\"key\":true,\"value\":1}}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":true}"),
        Arguments.of(ASSOCIATIVE_LIST, "true"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":true,\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":[],\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":{},\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":1.5,\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":1,\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":null,\"value\":1}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{},{}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{},null]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[[]]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[null]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{}]}"),
        Arguments.of(
            ASSOCIATIVE_LIST, "{\"list\":[{\"value\":{\"a\":\"a\"},\"bv\":true,\"nv\":3.14}]}"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":1}}]}"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":\"a\"},\"bv\":\"true\",\"nv\":3.14}]}"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":\"a\"},\"bv\":true,\"nv\":false}]}"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void invalidObjects(SchemaType type, String object) {
    TypedException e =
        assertThrows(TypedException.class, () -> type.validate(SmdSchemas.yaml(object)));
    assertFalse(e.getMessage().contains("invalid atom"), e.getMessage());
    assertThrows(TypedException.class, () -> type.toFieldSet(SmdSchemas.yaml(object), true));
  }

  static Stream<Arguments> duplicates() {
    return Stream.of(
        Arguments.of(GRAB_BAG, "{\"setStr\":[\"a\",\"a\"]}"),
        Arguments.of(GRAB_BAG, "{\"setBool\":[true,false,true]}"),
        Arguments.of(GRAB_BAG, "{\"setNumeric\":[1,2,3,3.14159,1]}"),
        Arguments.of(
            ASSOCIATIVE_LIST, "{\"list\":[{\"key\":\"a\",\"id\":1},{\"key\":\"a\",\"id\":1}]}"));
  }

  @ParameterizedTest
  @MethodSource("duplicates")
  void duplicatesOnlyWhenAllowed(SchemaType type, String object) {
    TypedException e =
        assertThrows(TypedException.class, () -> type.validate(SmdSchemas.yaml(object)));
    assertFalse(e.getMessage().contains("invalid atom"), e.getMessage());
    type.validate(SmdSchemas.yaml(object), true);
  }

  /** Go's messages; values print as JSON where Go prints its own value structs. */
  static Stream<Arguments> messages() {
    return Stream.of(
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1},{\"key\":\"a\",\"id\":1}]}",
            ".list: duplicate entries for key [id=1,key=\"a\"]"),
        Arguments.of(
            GRAB_BAG,
            "{\"setNumeric\":[1,2,3,3.14159,1]}",
            ".setNumeric: duplicate entries for key [=1]"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[null]}",
            ".list: element 0: associative list with keys may not have a null element"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[[]]}",
            ".list: element 0: associative list with keys may not have non-map elements"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1},{}]}",
            ".list: element 1: associative list with keys has an element that omits all key"
                + " fields [\"key\" \"id\"] (and doesn't have default values for any key fields)"),
        Arguments.of(
            GRAB_BAG,
            "{\"setStr\":[{}]}",
            ".setStr: element 0: associative list without keys has an element that's a map type"),
        Arguments.of(
            GRAB_BAG,
            "{\"setStr\":[[]]}",
            ".setStr: element 0: not supported: associative list with lists as elements"),
        Arguments.of(
            GRAB_BAG,
            "{\"setStr\":[null]}",
            ".setStr: element 0: associative list without keys has an element that's an explicit"
                + " null"),
        Arguments.of(
            GRAB_BAG,
            "{\"numeric\":\"foo\"}",
            ".numeric: expected numeric (int or float), got string"),
        Arguments.of(
            GRAB_BAG,
            "{\"numeric\":[\"foo\"]}",
            ".numeric: expected numeric (int or float), got []interface {}"),
        Arguments.of(
            GRAB_BAG,
            "{\"numeric\":{\"a\":1}}",
            ".numeric: expected numeric (int or float), got map[string]interface {}"),
        Arguments.of(GRAB_BAG, "{\"setStr\":[1]}", ".setStr[=1]: expected string, got 1"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":1}}]}",
            ".list[id=1,key=\"a\"].value.a: expected string, got 1"),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"bv\":\"true\"}]}",
            ".list[id=1,key=\"a\"].bv: expected boolean, got \"true\""),
        Arguments.of(
            ASSOCIATIVE_LIST, "{\"key\":true,\"value\":1}", ".key: field not declared in schema"),
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":true}", ".list: expected list, got true"),
        Arguments.of(ASSOCIATIVE_LIST, "true", "expected map, got true"),
        Arguments.of(
            GRAB_BAG,
            "{\"numeric\":\"a\",\"bool\":1}",
            "errors:\n"
                + "  .numeric: expected numeric (int or float), got string\n"
                + "  .bool: expected boolean, got 1"));
  }

  @ParameterizedTest
  @MethodSource("messages")
  void messages(SchemaType type, String object, String message) {
    TypedException e =
        assertThrows(TypedException.class, () -> type.validate(SmdSchemas.yaml(object)));
    assertEquals(message, e.getMessage());
    assertEquals(400, e.statusCode());
  }

  @Test
  void errorsCarryTheirPaths() {
    TypedException e =
        assertThrows(
            TypedException.class,
            () ->
                ASSOCIATIVE_LIST.validate(
                    SmdSchemas.yaml("{\"list\":[{\"key\":\"a\",\"id\":\"x\"}]}")));
    assertEquals(
        List.of(
            new ValidationError(
                ".list[id=\"x\",key=\"a\"].id", "expected numeric (int or float), got string")),
        e.errors());
  }

  @Test
  void unknownTypes() {
    Schema schema = Schema.builder().build();
    TypedException e =
        assertThrows(
            TypedException.class, () -> schema.type("nope").validate(SmdSchemas.yaml("{}")));
    assertEquals("schema error: no type found matching: nope", e.getMessage());
    Schema empty = Schema.builder().type("empty", new Atom(null, null, null)).build();
    e =
        assertThrows(
            TypedException.class, () -> empty.type("empty").validate(SmdSchemas.yaml("{}")));
    assertEquals("schema error: invalid atom: named type: empty", e.getMessage());
  }
}
