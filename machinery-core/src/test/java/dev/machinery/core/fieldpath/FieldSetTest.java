package dev.machinery.core.fieldpath;

import static dev.machinery.core.fieldpath.PathElement.field;
import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** structured-merge-diff's path_test.go and set_test.go. */
class FieldSetTest {
  private static FieldPath p(Object... parts) {
    return FieldPath.of(parts);
  }

  private static FieldSet set(FieldPath... paths) {
    return FieldSet.of(paths);
  }

  // TestPathString.
  static Stream<Arguments> pathStrings() {
    return Stream.of(
        Arguments.of(p("foo", 1), ".foo[1]"),
        Arguments.of(p("foo", "bar", 1, "baz"), ".foo.bar[1].baz"),
        Arguments.of(
            p("foo", key("a", "b", "c", 1, "d", 1.5, "e", true)), ".foo[a=\"b\",c=1,d=1.5,e=true]"),
        Arguments.of(
            p("foo", value("b"), value(5), value(false), value(3.14159)),
            ".foo[=\"b\"][=5][=false][=3.14159]"),
        Arguments.of(p("spec"), ".spec"),
        Arguments.of(
            p("spec", "apps", key("name", "app-🚀"), "container", "image"),
            ".spec.apps[name=\"app-🚀\"].container.image"),
        Arguments.of(
            p(
                "spec",
                "apps",
                key("name", "app-💻"),
                "container",
                "ports",
                key("name", "port-🔑"),
                "containerPort"),
            ".spec.apps[name=\"app-💻\"].container.ports[name=\"port-🔑\"].containerPort"),
        Arguments.of(p("spec", "field with space"), ".spec.field with space"),
        Arguments.of(
            p("spec", "apps", value("app with space"), "container", "image"),
            ".spec.apps[=\"app with space\"].container.image"),
        Arguments.of(
            p("spec", "apps", value("app with \"quotes\""), "container", "image"),
            ".spec.apps[=\"app with \\\"quotes\\\"\"].container.image"),
        Arguments.of(
            p("spec", "apps", value("app-with-unicøde"), "container", "image"),
            ".spec.apps[=\"app-with-unicøde\"].container.image"),
        Arguments.of(FieldPath.empty(), ""));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("pathStrings")
  void printsPathsAsGo(FieldPath path, String expected) {
    assertEquals(expected, path.toString());
  }

  @Test
  void ordersPathsElementByElement() {
    assertTrue(p("a").compareTo(p("a", "b")) < 0);
    assertTrue(p("a", "z").compareTo(p("b")) < 0);
    assertTrue(p("a", 1).compareTo(p("a", "b")) > 0);
    assertEquals(0, p("a", value(1)).compareTo(p("a", value(1.0))));
    assertEquals(p("a", "b"), p("a").append(field("b")));
  }

  // TestSetInsertHas.
  @Test
  void hasTheInsertedPathsOnly() {
    FieldSet s1 =
        set(
            p("foo", 0, "bar", "baz"),
            p("foo", 0, "bar"),
            p("foo", 0),
            p("foo", 1, "bar", "baz"),
            p("foo", 1, "bar"),
            p("qux", key("name", "first")),
            p("qux", key("name", "first"), "bar"),
            p("qux", key("name", "second"), "bar"),
            p("canonicalOrder", key("a", "a", "b", "a", "c", "a", "d", "a", "e", "a", "f", "a")));
    assertFalse(s1.has(p("qux", key("name", "second"))));
    assertTrue(s1.has(p("qux", key("name", "second"), "bar")));
    assertTrue(s1.has(p("qux", key("name", "first"))));
    assertFalse(s1.has(p("xuq", key("name", "first"))));
    assertTrue(s1.has(p("foo", 0)));
    assertTrue(s1.has(p("foo", 0, "bar")));
    assertTrue(s1.has(p("foo", 0, "bar", "baz")));
    assertFalse(s1.has(p("foo", 1)));
    assertTrue(s1.has(p("foo", 1, "bar")));
    assertTrue(s1.has(p("foo", 1, "bar", "baz")));
    assertTrue(
        s1.has(
            p("canonicalOrder", key("f", "a", "e", "a", "d", "a", "c", "a", "b", "a", "a", "a"))));
    assertFalse(FieldSet.empty().has(FieldPath.empty()));
    assertFalse(set(FieldPath.empty()).has(FieldPath.empty()));
    assertTrue(set(FieldPath.empty()).isEmpty());
  }

  // TestSetString.
  @Test
  void printsASinglePathSetAsThePath() {
    FieldPath path = p("foo", key("name", "first"));
    assertEquals(path.toString(), set(path).toString());
  }

  // TestSetIterSize.
  @Test
  void iteratesInGoOrderAndCounts() {
    FieldSet s1 =
        set(
            p("foo", 0, "bar", "baz"),
            p("foo", 0, "bar", "zot"),
            p("foo", 0, "bar"),
            p("foo", 0),
            p("foo", 1, "bar", "baz"),
            p("foo", 1, "bar"),
            p("qux", key("name", "first")),
            p("qux", key("name", "first"), "bar"),
            p("qux", key("name", "second"), "bar"));
    FieldSet s2 = FieldSet.empty();
    int added = 0;
    for (FieldPath path : s1) {
      assertEquals(added, s2.size());
      assertEquals(added == 0, s2.isEmpty());
      s2 = s2.with(path);
      added++;
    }
    assertEquals(s1, s2);
    assertEquals(9, s1.size());
    assertEquals(
        String.join(
            "\n",
            ".foo[0]",
            ".foo[0].bar",
            ".foo[0].bar.baz",
            ".foo[0].bar.zot",
            ".foo[1].bar",
            ".foo[1].bar.baz",
            ".qux[name=\"first\"]",
            ".qux[name=\"first\"].bar",
            ".qux[name=\"second\"].bar"),
        s1.toString());
    assertEquals(
        List.of(p("b"), p("a", "x")), set(p("a", "x"), p("b")).paths(), "members before children");
  }

  // TestSetEquals.
  static Stream<Arguments> equalities() {
    return Stream.of(
        Arguments.of(set(p("foo")), set(p("bar")), false),
        Arguments.of(set(p("foo")), set(p("foo")), true),
        Arguments.of(set(), set(p(0, "foo")), false),
        Arguments.of(set(p(1, "foo")), set(p(0, "foo")), false),
        Arguments.of(set(p(1, "foo")), set(p(1, "foo", "bar")), false),
        Arguments.of(set(p(0), p(1)), set(p(1), p(0)), true),
        Arguments.of(set(p("foo", 0), p("foo", 1)), set(p("foo", 1), p("foo", 0)), true),
        Arguments.of(
            set(p("foo", 0), p("foo"), p("bar", "baz"), p("qux", key("name", "first"))),
            set(p("foo", 1), p("bar", "baz"), p("bar"), p("qux", key("name", "second"))),
            false));
  }

  @ParameterizedTest
  @MethodSource("equalities")
  void comparesSets(FieldSet a, FieldSet b, boolean equal) {
    if (equal) {
      assertEquals(a, b);
      assertEquals(a.hashCode(), b.hashCode());
    } else {
      assertNotEquals(a, b);
    }
  }

  // TestSetUnion.
  @Test
  void unites() {
    FieldSet s1 =
        set(
            p("foo", 0),
            p("foo"),
            p("bar", "baz"),
            p("qux", key("name", "first")),
            p("parent", "child", "grandchild"));
    FieldSet s2 =
        set(
            p("foo", 1),
            p("bar", "baz"),
            p("bar"),
            p("qux", key("name", "second")),
            p("parent", "child"));
    FieldSet union =
        set(
            p("foo", 0),
            p("foo", 1),
            p("foo"),
            p("bar", "baz"),
            p("bar"),
            p("qux", key("name", "first")),
            p("qux", key("name", "second")),
            p("parent", "child"),
            p("parent", "child", "grandchild"));
    assertEquals(union, s1.union(s2));
    assertEquals(union, s2.union(s1));
  }

  // TestSetIntersectionDifference.
  @Test
  void intersectsAndSubtracts() {
    PathElement nameFirst = key("name", "first");
    FieldSet s1 =
        set(
            p("a0"),
            p("a1"),
            p("foo", 0),
            p("foo", 1),
            p("b0", nameFirst),
            p("b1", nameFirst),
            p("bar", "c0"),
            p("cp", nameFirst, "child"));
    FieldSet s2 =
        set(
            p("a1"),
            p("a2"),
            p("foo", 1),
            p("foo", 2),
            p("b1", nameFirst),
            p("b2", nameFirst),
            p("bar", "c2"),
            p("cp", nameFirst));
    FieldSet intersection = set(p("a1"), p("foo", 1), p("b1", nameFirst));
    assertEquals(intersection, s1.intersection(s2));
    assertEquals(
        set(p("a0"), p("foo", 0), p("b0", nameFirst), p("bar", "c0"), p("cp", nameFirst, "child")),
        s1.difference(s2));
    assertEquals(
        set(p("a2"), p("foo", 2), p("b2", nameFirst), p("bar", "c2"), p("cp", nameFirst)),
        s2.difference(s1));
    FieldSet notIntersection = s2.difference(s1).union(s1.difference(s2));
    assertEquals(intersection, s1.union(s2).difference(notIntersection), "the hard way");
  }

  // TestSetLeaves.
  static Stream<Arguments> leaves() {
    PathElement a = key("name", "a");
    PathElement pp = key("name", "p");
    return Stream.of(
        Arguments.of("empty set", set(), set()),
        Arguments.of(
            "all leaves",
            set(p("path1"), p("path2"), p("path3")),
            set(p("path1"), p("path2"), p("path3"))),
        Arguments.of(
            "only one leaf",
            set(p("root"), p("root", "l1"), p("root", "l1", "l2"), p("root", "l1", "l2", "l3")),
            set(p("root", "l1", "l2", "l3"))),
        Arguments.of(
            "multiple values, check for overwrite",
            set(
                p("root", a),
                p("root", a, "name"),
                p("root", a, "value", "b"),
                p("root", a, "value", "c")),
            set(p("root", a, "name"), p("root", a, "value", "b"), p("root", a, "value", "c"))),
        Arguments.of(
            "multiple values and nested",
            set(
                p("root", a),
                p("root", a, "name"),
                p("root", a, "value", "b"),
                p("root", a, "value", "b", "d"),
                p("root", a, "value", "c")),
            set(p("root", a, "name"), p("root", a, "value", "b", "d"), p("root", a, "value", "c"))),
        Arguments.of(
            "all-in-one",
            set(
                p("root"),
                p("root", a),
                p("root", a, "name"),
                p("root", a, "value", "b"),
                p("root", a, "value", "b", "c"),
                p("root", a, "value", "d"),
                p("root", a, "value", "e"),
                p("root", "x"),
                p("root", "x", "y"),
                p("root", "x", "z"),
                p("root", pp),
                p("root", pp, "name"),
                p("root", pp, "value", "q")),
            set(
                p("root", a, "name"),
                p("root", a, "value", "b", "c"),
                p("root", a, "value", "d"),
                p("root", a, "value", "e"),
                p("root", "x", "y"),
                p("root", "x", "z"),
                p("root", pp, "name"),
                p("root", pp, "value", "q"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leaves")
  void keepsOnlyLeaves(String name, FieldSet input, FieldSet expected) {
    assertEquals(expected, input.leaves());
  }

  // TestSetDifference.
  static Stream<Arguments> differences() {
    return Stream.of(
        Arguments.of("removes simple path", set(p("a")), set(p("a")), set(), set()),
        Arguments.of(
            "removes direct path", set(p("a", "b", "c")), set(p("a", "b", "c")), set(), set()),
        Arguments.of(
            "only removes matching child",
            set(p("a", "b", "c"), p("b", "b", "c")),
            set(p("a", "b", "c")),
            set(p("b", "b", "c")),
            set(p("b", "b", "c"))),
        Arguments.of(
            "does not remove parent of specific path",
            set(p("a")),
            set(p("a", "aa")),
            set(p("a")),
            set(p("a"))),
        Arguments.of(
            "RecursiveDifference removes nested path",
            set(p("a", "b", "c")),
            set(p("a")),
            set(p("a", "b", "c")),
            set()),
        Arguments.of(
            "RecursiveDifference only removes nested path for matching children",
            set(p("a", "aa", "aab"), p("a", "ab", "aba")),
            set(p("a", "aa")),
            set(p("a", "aa", "aab"), p("a", "ab", "aba")),
            set(p("a", "ab", "aba"))),
        Arguments.of(
            "RecursiveDifference removes all matching children",
            set(p("a", "aa", "aab"), p("a", "ab", "aba")),
            set(p("a")),
            set(p("a", "aa", "aab"), p("a", "ab", "aba")),
            set()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("differences")
  void subtracts(
      String name, FieldSet a, FieldSet b, FieldSet difference, FieldSet recursiveDifference) {
    assertEquals(difference, a.difference(b));
    assertEquals(recursiveDifference, a.recursiveDifference(b));
  }

  @Test
  void selectsThePathsBelowAnElement() {
    FieldSet s = set(p("spec", "replicas"), p("spec", "template", "spec"), p("status"));
    assertEquals(set(p("replicas"), p("template", "spec")), s.withPrefix(field("spec")));
    assertSame(FieldSet.empty(), s.withPrefix(field("status")));
    assertSame(FieldSet.empty(), s.withPrefix(field("metadata")));
    assertEquals(List.of(field("status")), s.members());
    assertEquals(List.of(field("spec")), List.copyOf(s.children().keySet()));
  }

  @Test
  void buildsFromPathsAndSets() {
    FieldSet s =
        FieldSet.builder()
            .insert(p("b"))
            .insert(p("a", "x"))
            .insert(FieldPath.empty())
            .insertAll(set(p("c")))
            .build();
    assertEquals(set(p("a", "x"), p("b"), p("c")), s);
    assertSame(s, s.with(p("b")));
    assertSame(s, s.with(FieldPath.empty()));
  }
}
