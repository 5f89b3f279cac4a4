package dev.machinery.core.typed;

import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * structured-merge-diff's toset_test.go (TestToFieldSet) and the ToFieldSet table of
 * deduced_test.go (TestToSetDeduced): objects and the field sets Go computes for them.
 */
class TypedToFieldSetTest {
  static final String UNTYPED_ATOMIC =
      """
      - name: __untyped_atomic_
        scalar: untyped
        list:
          elementType:
            namedType: __untyped_atomic_
          elementRelationship: atomic
        map:
          elementType:
            namedType: __untyped_atomic_
          elementRelationship: atomic
      """;

  static final SchemaType SIMPLE_PAIR =
      SmdSchemas.parse(
              """
              types:
              - name: stringPair
                map:
                  fields:
                  - name: key
                    type:
                      scalar: string
                  - name: value
                    type:
                      namedType: __untyped_atomic_
              """
                  + UNTYPED_ATOMIC)
          .type("stringPair");

  static final SchemaType GRAB_BAG =
      SmdSchemas.parse(
              """
              types:
              - name: myStruct
                map:
                  fields:
                  - name: numeric
                    type:
                      scalar: numeric
                  - name: string
                    type:
                      scalar: string
                  - name: bool
                    type:
                      scalar: boolean
                  - name: setStr
                    type:
                      list:
                        elementType:
                          scalar: string
                        elementRelationship: associative
                  - name: setBool
                    type:
                      list:
                        elementType:
                          scalar: boolean
                        elementRelationship: associative
                  - name: setNumeric
                    type:
                      list:
                        elementType:
                          scalar: numeric
                        elementRelationship: associative
                  - name: color
                    type:
                      map:
                        fields:
                        - name: R
                          type:
                            scalar: numeric
                        - name: G
                          type:
                            scalar: numeric
                        - name: B
                          type:
                            scalar: numeric
                        elementRelationship: atomic
                  - name: arbitraryWavelengthColor
                    type:
                      map:
                        elementType:
                          scalar: numeric
                        elementRelationship: atomic
                  - name: args
                    type:
                      list:
                        elementType:
                          map:
                            fields:
                            - name: key
                              type:
                                scalar: string
                            - name: value
                              type:
                                scalar: string
                        elementRelationship: atomic
              """)
          .type("myStruct");

  static final SchemaType ASSOCIATIVE_LIST =
      SmdSchemas.parse(
              """
              types:
              - name: myRoot
                map:
                  fields:
                  - name: list
                    type:
                      namedType: myList
                  - name: atomicList
                    type:
                      namedType: mySequence
              - name: myList
                list:
                  elementType:
                    namedType: myElement
                  elementRelationship: associative
                  keys:
                  - key
                  - id
              - name: mySequence
                list:
                  elementType:
                    scalar: string
                  elementRelationship: atomic
              - name: myElement
                map:
                  fields:
                  - name: key
                    type:
                      scalar: string
                  - name: id
                    type:
                      scalar: numeric
                  - name: value
                    type:
                      namedType: myValue
                  - name: bv
                    type:
                      scalar: boolean
                  - name: nv
                    type:
                      scalar: numeric
              - name: myValue
                map:
                  elementType:
                    scalar: string
              """)
          .type("myRoot");

  static FieldPath p(Object... parts) {
    return FieldPath.of(parts);
  }

  static FieldSet set(FieldPath... paths) {
    return FieldSet.of(paths);
  }

  static Stream<Arguments> fieldSets() {
    Object ka1 = key("key", "a", "id", 1);
    Object ka2 = key("key", "a", "id", 2);
    Object kb1 = key("key", "b", "id", 1);
    return Stream.of(
        // simple pair
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":1}", set(p("key"), p("value"))),
        Arguments.of(
            SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":{\"a\": \"b\"}}", set(p("key"), p("value"))),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":null}", set(p("key"), p("value"))),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\"}", set(p("key"))),
        Arguments.of(SIMPLE_PAIR, "{\"key\":\"foo\",\"value\":true}", set(p("key"), p("value"))),
        // struct grab bag
        Arguments.of(GRAB_BAG, "{\"numeric\":1}", set(p("numeric"))),
        Arguments.of(GRAB_BAG, "{\"numeric\":3.14159}", set(p("numeric"))),
        Arguments.of(GRAB_BAG, "{\"string\":\"aoeu\"}", set(p("string"))),
        Arguments.of(GRAB_BAG, "{\"bool\":true}", set(p("bool"))),
        Arguments.of(GRAB_BAG, "{\"bool\":false}", set(p("bool"))),
        Arguments.of(
            GRAB_BAG,
            "{\"setStr\":[\"a\",\"b\",\"c\"]}",
            set(p("setStr", value("a")), p("setStr", value("b")), p("setStr", value("c")))),
        Arguments.of(
            GRAB_BAG,
            "{\"setStr\":[\"a\",\"b\",\"c\",\"a\",\"b\",\"c\",\"c\"]}",
            set(p("setStr", value("a")), p("setStr", value("b")), p("setStr", value("c")))),
        Arguments.of(
            GRAB_BAG,
            "{\"setBool\":[true,false,true]}",
            set(p("setBool", value(true)), p("setBool", value(false)))),
        Arguments.of(
            GRAB_BAG,
            "{\"setNumeric\":[1,2,3,3.14159]}",
            set(
                p("setNumeric", value(1)),
                p("setNumeric", value(2)),
                p("setNumeric", value(3)),
                p("setNumeric", value(3.14159)))),
        Arguments.of(GRAB_BAG, "{\"color\":{}}", set(p("color"))),
        Arguments.of(GRAB_BAG, "{\"color\":null}", set(p("color"))),
        Arguments.of(GRAB_BAG, "{\"color\":{\"R\":255,\"G\":0,\"B\":0}}", set(p("color"))),
        Arguments.of(
            GRAB_BAG, "{\"arbitraryWavelengthColor\":{}}", set(p("arbitraryWavelengthColor"))),
        Arguments.of(
            GRAB_BAG, "{\"arbitraryWavelengthColor\":null}", set(p("arbitraryWavelengthColor"))),
        Arguments.of(
            GRAB_BAG,
            "{\"arbitraryWavelengthColor\":{\"IR\":255}}",
            set(p("arbitraryWavelengthColor"))),
        Arguments.of(GRAB_BAG, "{\"args\":[]}", set(p("args"))),
        Arguments.of(GRAB_BAG, "{\"args\":null}", set(p("args"))),
        Arguments.of(GRAB_BAG, "{\"args\":[null]}", set(p("args"))),
        Arguments.of(
            GRAB_BAG,
            "{\"args\":[{\"key\":\"a\",\"value\":\"b\"},{\"key\":\"c\",\"value\":\"d\"}]}",
            set(p("args"))),
        // associative list
        Arguments.of(ASSOCIATIVE_LIST, "{\"list\":[]}", set()),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"value\":{\"a\":\"a\"}}]}",
            set(
                p("list", ka1),
                p("list", ka1, "key"),
                p("list", ka1, "id"),
                p("list", ka1, "value", "a"))),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1},{\"key\":\"a\",\"id\":2},{\"key\":\"b\",\"id\":1}]}",
            set(
                p("list", ka1),
                p("list", ka2),
                p("list", kb1),
                p("list", ka1, "key"),
                p("list", ka1, "id"),
                p("list", ka2, "key"),
                p("list", ka2, "id"),
                p("list", kb1, "key"),
                p("list", kb1, "id"))),
        Arguments.of(
            ASSOCIATIVE_LIST,
            "{\"list\":[{\"key\":\"a\",\"id\":1,\"nv\":2},{\"key\":\"a\",\"id\":2,\"nv\":3},"
                + "{\"key\":\"b\",\"id\":1},{\"key\":\"a\",\"id\":2,\"bv\":true}]}",
            set(
                p("list", ka1),
                p("list", ka1, "key"),
                p("list", ka1, "id"),
                p("list", ka1, "nv"),
                p("list", ka2),
                p("list", kb1),
                p("list", kb1, "key"),
                p("list", kb1, "id"))),
        Arguments.of(
            ASSOCIATIVE_LIST, "{\"atomicList\":[\"a\",\"a\",\"a\"]}", set(p("atomicList"))));
  }

  @ParameterizedTest
  @MethodSource("fieldSets")
  void toFieldSet(SchemaType type, String object, FieldSet expected) {
    // Go parses these with AllowDuplicates
    assertEquals(expected, type.toFieldSet(SmdSchemas.yaml(object), true));
  }

  static Stream<Arguments> deducedFieldSets() {
    return Stream.of(
        Arguments.of("{\"key\":\"foo\",\"value\":1}", set(p("key"), p("value"))),
        Arguments.of(
            "{\"key\":\"foo\",\"value\":{\"a\": \"b\"}}",
            set(p("key"), p("value"), p("value", "a"))),
        Arguments.of("{\"key\":\"foo\",\"value\":null}", set(p("key"), p("value"))),
        Arguments.of("{\"key\":\"foo\"}", set(p("key"))),
        Arguments.of("{\"key\":\"foo\",\"value\":true}", set(p("key"), p("value"))),
        Arguments.of("{\"numeric\":1}", set(p("numeric"))),
        Arguments.of("{\"numeric\":3.14159}", set(p("numeric"))),
        Arguments.of("{\"string\":\"aoeu\"}", set(p("string"))),
        Arguments.of("{\"bool\":true}", set(p("bool"))),
        Arguments.of("{\"bool\":false}", set(p("bool"))),
        Arguments.of("{\"list\":[\"a\",\"b\",\"c\"]}", set(p("list"))),
        Arguments.of("{\"color\":{}}", set(p("color"))),
        Arguments.of("{\"color\":null}", set(p("color"))),
        Arguments.of(
            "{\"color\":{\"R\":255,\"G\":0,\"B\":0}}",
            set(p("color"), p("color", "R"), p("color", "G"), p("color", "B"))),
        Arguments.of("{\"arbitraryWavelengthColor\":null}", set(p("arbitraryWavelengthColor"))),
        Arguments.of(
            "{\"arbitraryWavelengthColor\":{\"IR\":255}}",
            set(p("arbitraryWavelengthColor"), p("arbitraryWavelengthColor", "IR"))),
        Arguments.of("{\"args\":[]}", set(p("args"))),
        Arguments.of("{\"args\":null}", set(p("args"))),
        Arguments.of("{\"args\":[null]}", set(p("args"))),
        Arguments.of(
            "{\"args\":[{\"key\":\"a\",\"value\":\"b\"},{\"key\":\"c\",\"value\":\"d\"}]}",
            set(p("args"))),
        Arguments.of("{\"atomicList\":[\"a\",\"a\",\"a\"]}", set(p("atomicList"))));
  }

  @ParameterizedTest
  @MethodSource("deducedFieldSets")
  void deducedToFieldSet(String object, FieldSet expected) {
    assertEquals(expected, SchemaType.DEDUCED.toFieldSet(SmdSchemas.yaml(object)));
  }

  @ParameterizedTest
  @MethodSource("deducedValid")
  void deducedValidates(String object) {
    SchemaType.DEDUCED.validate(SmdSchemas.yaml(object));
  }

  static Stream<String> deducedValid() {
    return Stream.of(
        "{\"a\": null}",
        "{\"a\": [\"a\", \"b\"]}",
        "{\"a\": {\"b\": [], \"c\": 2, \"d\": {\"f\": \"string\"}}}");
  }
}
