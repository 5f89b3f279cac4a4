package dev.machinery.core.fieldpath;

import static dev.machinery.core.fieldpath.PathElement.field;
import static dev.machinery.core.fieldpath.PathElement.index;
import static dev.machinery.core.fieldpath.PathElement.key;
import static dev.machinery.core.fieldpath.PathElement.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.support.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Laws of field sets over seeded random sets, checked against a plain sorted set of paths: the
 * FieldsV1 round trip (structured-merge-diff's TestSerializeV1), and union, intersection and the
 * differences.
 */
class FieldSetProperties {
  // structured-merge-diff's randomPathMaker alphabet, with a few more values.
  private static final List<PathElement> ALPHABET =
      List.of(
          field("aaa"),
          field("aab"),
          field("aac"),
          field("aad"),
          field("aae"),
          field("aaf"),
          field("abcdefghijklmnopqrstuvwxyz"),
          field("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
          key("name", "привет"),
          key("name", "你好"),
          key("name", "こんにちは"),
          key("name", "안녕하세요"),
          key("name", "مرحبا"),
          key("name", "first"),
          key("name", "second"),
          key("port", 443, "protocol", "tcp"),
          key("port", 443, "protocol", "udp"),
          key("key", " value with spaces "),
          key("lang", "en-US"),
          key("unicode-key", "unicode-value-🔥"),
          value(1),
          value(2),
          value(3),
          value("aa"),
          value("ab"),
          value(true),
          value(0),
          value(-1),
          value(3.14159),
          value("string with spaces"),
          value("string with \"quotes\""),
          value("unicode-string-你好"),
          value(false),
          index(1),
          index(2),
          index(3),
          index(4),
          index(0),
          index(5),
          index(100),
          index(2147483648L),
          // Beyond Go's alphabet: escapes, odd numbers, a nested value, a lone surrogate's
          // stand-in.
          field("f:<&>\n\"\\"),
          value(1e21),
          value(1e-7),
          value(PathElementTest.json("{\"b\":[null,1.5],\"a\":\"\\u2028\"}")),
          key("a", "\ufffd", "b", false));

  private static PathElement element(SplittableRandom r) {
    return ALPHABET.get(r.nextInt(ALPHABET.size()));
  }

  private static FieldPath path(SplittableRandom r) {
    int n = 1 + r.nextInt(5);
    List<PathElement> elements = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      elements.add(element(r));
    }
    return new FieldPath(elements);
  }

  private static TreeSet<FieldPath> paths(SplittableRandom r, int max) {
    TreeSet<FieldPath> paths = new TreeSet<>();
    int n = r.nextInt(max + 1);
    for (int i = 0; i < n; i++) {
      paths.add(path(r));
    }
    return paths;
  }

  private static TreeSet<FieldPath> model(FieldSet set) {
    TreeSet<FieldPath> paths = new TreeSet<>(set.paths());
    assertEquals(set.size(), paths.size(), "size counts distinct paths");
    return paths;
  }

  @Test
  void readingWhatWasWrittenGivesTheSetAndItsBytes() {
    Seeds.forEach(
        500,
        r -> {
          FieldSet set = FieldSet.of(paths(r, 50));
          String json = FieldsV1.toJson(set);
          FieldSet read = FieldsV1.parse(json);
          assertEquals(set, read, json);
          assertEquals(json, FieldsV1.toJson(read));
        });
  }

  @Test
  void setsHoldExactlyTheirPaths() {
    Seeds.forEach(
        300,
        r -> {
          TreeSet<FieldPath> paths = paths(r, 40);
          FieldSet set = FieldSet.of(paths);
          assertEquals(paths, model(set));
          paths.forEach(p -> assertTrue(set.has(p), p::toString));
          FieldPath other = path(r);
          assertEquals(paths.contains(other), set.has(other));
          assertEquals(set, FieldSet.of(new ArrayList<>(paths.descendingSet())));
          assertEquals(
              set.hashCode(), FieldSet.of(new ArrayList<>(paths.descendingSet())).hashCode());
        });
  }

  @Test
  void operationsAgreeWithSetsOfPaths() {
    Seeds.forEach(
        300,
        r -> {
          TreeSet<FieldPath> a = paths(r, 30);
          TreeSet<FieldPath> b = paths(r, 30);
          b.addAll(new ArrayList<>(a).subList(0, a.size() / 2));
          FieldSet x = FieldSet.of(a);
          FieldSet y = FieldSet.of(b);

          TreeSet<FieldPath> union = new TreeSet<>(a);
          union.addAll(b);
          assertEquals(union, model(x.union(y)));
          TreeSet<FieldPath> intersection = new TreeSet<>(a);
          intersection.retainAll(b);
          assertEquals(intersection, model(x.intersection(y)));
          TreeSet<FieldPath> difference = new TreeSet<>(a);
          difference.removeAll(b);
          assertEquals(difference, model(x.difference(y)));
          TreeSet<FieldPath> recursive = new TreeSet<>(difference);
          recursive.removeIf(p -> hasPrefixIn(p, b));
          assertEquals(recursive, model(x.recursiveDifference(y)));
        });
  }

  private static boolean hasPrefixIn(FieldPath path, TreeSet<FieldPath> prefixes) {
    for (int n = 1; n <= path.size(); n++) {
      if (prefixes.contains(new FieldPath(path.elements().subList(0, n)))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void unionAndIntersectionLaws() {
    Seeds.forEach(
        300,
        r -> {
          FieldSet a = FieldSet.of(paths(r, 25));
          FieldSet b = FieldSet.of(paths(r, 25));
          FieldSet c = FieldSet.of(paths(r, 25));
          FieldSet empty = FieldSet.empty();
          assertEquals(a.union(b), b.union(a));
          assertEquals(a.intersection(b), b.intersection(a));
          assertEquals(a.union(b).union(c), a.union(b.union(c)));
          assertEquals(a.intersection(b).intersection(c), a.intersection(b.intersection(c)));
          assertEquals(a, a.union(a));
          assertEquals(a, a.intersection(a));
          assertEquals(a, a.union(empty));
          assertEquals(empty, a.intersection(empty));
          assertEquals(a, a.difference(b).union(a.intersection(b)));
          assertTrue(a.difference(b).intersection(b).isEmpty());
          assertTrue(a.difference(a).isEmpty());
          assertEquals(a, a.difference(empty));
          assertEquals(
              a.union(b).difference(a.difference(b).union(b.difference(a))), a.intersection(b));
          assertEquals(
              a.intersection(b.union(c)),
              a.intersection(b).union(a.intersection(c)),
              "distributes");
          assertEquals(a.difference(b), a.difference(b).union(a.recursiveDifference(b)));
          assertEquals(a.union(b).size(), a.size() + b.size() - a.intersection(b).size());
        });
  }

  @Test
  void leavesAreTheMembersNoOtherMemberContinues() {
    Seeds.forEach(
        300,
        r -> {
          FieldSet set = FieldSet.of(paths(r, 40));
          TreeSet<FieldPath> all = model(set);
          TreeSet<FieldPath> leaves = new TreeSet<>(all);
          leaves.removeIf(p -> all.stream().anyMatch(q -> q.size() > p.size() && startsWith(q, p)));
          assertEquals(leaves, model(set.leaves()));
          for (PathElement first : ALPHABET) {
            TreeSet<FieldPath> below = new TreeSet<>();
            for (FieldPath p : all) {
              if (p.size() > 1 && p.elements().get(0).equals(first)) {
                below.add(new FieldPath(p.elements().subList(1, p.size())));
              }
            }
            assertEquals(below, model(set.withPrefix(first)));
          }
        });
  }

  private static boolean startsWith(FieldPath path, FieldPath prefix) {
    return path.elements().subList(0, prefix.size()).equals(prefix.elements());
  }

  @Test
  void elementsAreTotallyOrderedAndReadBackFromTheirForm() {
    Seeds.forEach(
        200,
        r -> {
          PathElement a = element(r);
          PathElement b = element(r);
          PathElement c = element(r);
          assertEquals(Integer.signum(a.compareTo(b)), -Integer.signum(b.compareTo(a)));
          assertEquals(a.compareTo(b) == 0, a.equals(b));
          if (a.compareTo(b) <= 0 && b.compareTo(c) <= 0) {
            assertTrue(a.compareTo(c) <= 0);
          }
          PathElement read = PathElement.parse(a.serialize());
          assertEquals(a, read);
          assertEquals(a.serialize(), read.serialize());
          assertFalse(a.toString().isEmpty());
        });
  }
}
