package dev.machinery.unversioned.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Rows of Kubernetes' labels tests (pkg/labels/selector_test.go: TestSelectorParse,
 * TestSetSelectorParser, TestSelectorMatches, TestRequirementSelectorMatching, TestToString,
 * TestRequiresExactMatch), carried over as tables.
 */
class SelectorTest {
  @Test
  void goodStringsParseAndReprintWithoutSpaces() {
    for (String text :
        List.of(
            "x=a,y=b,z=c",
            "",
            "x!=a,y=b",
            "x=",
            "x= ",
            "x=,z= ",
            "x= ,z= ",
            "!x",
            "x>1",
            "x>1,z<5")) {
      assertEquals(text.replace(" ", ""), Selector.parse(text).toString(), text);
    }
    for (String text : List.of("x=a||y=b", "x==a==b", "!x=a", "x<a")) {
      assertThrows(SelectorParseException.class, () -> Selector.parse(text), text);
    }
    assertEquals(Selector.parse("x=a,a=x").toString(), Selector.parse("a=x,x=a").toString());
  }

  /** Input, canonical text of the parsed selector or null when Kubernetes refuses it. */
  private static final String[][] SET_PARSER = {
    {"", ""},
    {"\rx", "x"},
    {"this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash"},
    {
      "this-is-another-dns.domain.com/key-with-dash in (so,what)",
      "this-is-another-dns.domain.com/key-with-dash in (so,what)"
    },
    {
      "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
      "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)"
    },
    {"foo  in\t (abc)", "foo in (abc)"},
    {"x notin\n (abc)", "x notin (abc)"},
    {"x  notin\t\t\t(abc,def)", "x notin (abc,def)"},
    {"x in (abc,def)", "x in (abc,def)"},
    {"x in (abc,)", "x in (,abc)"},
    {"x in (abc,abc)", "x in (abc)"},
    {"x in ()", "x in ()"},
    {"x in (a,,)", "x in (,a)"},
    {"x in (a,,,)", "x in (,a)"},
    {"x in (a,,,,,,)", "x in (,a)"},
    {"x in (a,,a,,a,,a,,)", "x in (,a)"},
    {"x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z in ()"},
    {"x,y in (a)", "x,y in (a)"},
    {"x=a", "x=a"},
    {"x>1", "x>1"},
    {"x<7", "x<7"},
    {"x=a,y!=b", "x=a,y!=b"},
    {"x=a,y!=b,z in (h,i,j)", "x=a,y!=b,z in (h,i,j)"},
    {"x=a||y=b", null},
    {"x,,y", null},
    {",x,y", null},
    {"x nott in (y)", null},
    {"x notin ( )", "x notin ()"},
    {"x notin (, a)", "x notin (,a)"},
    {"a in (xyz),", null},
    {"a in (xyz)b notin ()", null},
    {"a ", "a"},
    {"a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"},
    {"a in (xyz abc)", null},
    {"a notin(", null},
    {"a (", null},
    {"(", null},
  };

  @Test
  void setSyntaxParsesAsKubernetes() {
    List<String> wrong = new ArrayList<>();
    for (String[] row : SET_PARSER) {
      try {
        String got = Selector.parse(row[0]).toString();
        if (row[1] == null) {
          wrong.add("accepted " + row[0] + " as " + got);
        } else if (!got.equals(row[1])) {
          wrong.add(row[0] + " → " + got + ", want " + row[1]);
        } else if (!Selector.parse(got).equals(Selector.parse(row[0]))) {
          wrong.add(row[0] + ": canonical text does not re-parse to the same selector");
        }
      } catch (SelectorParseException e) {
        if (row[1] != null) {
          wrong.add("refused " + row[0] + ": " + e.getMessage());
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void matchesAsKubernetes() {
    Object[][] rows = {
      {"", Map.of("x", "y"), true},
      {"x=y", Map.of("x", "y"), true},
      {"x=y,z=w", Map.of("x", "y", "z", "w"), true},
      {"x!=y,z!=w", Map.of("x", "z", "z", "a"), true},
      {"notin=in", Map.of("notin", "in"), true},
      {"x", Map.of("x", "z"), true},
      {"!x", Map.of("y", "z"), true},
      {"x>1", Map.of("x", "2"), true},
      {"x<1", Map.of("x", "0"), true},
      {"x=z", Map.of(), false},
      {"x=y", Map.of("x", "z"), false},
      {"x=y,z=w", Map.of("x", "w", "z", "w"), false},
      {"x!=y,z!=w", Map.of("x", "z", "z", "w"), false},
      {"x", Map.of("y", "z"), false},
      {"!x", Map.of("x", "z"), false},
      {"x>1", Map.of("x", "0"), false},
      {"x<1", Map.of("x", "2"), false},
      {"foo=bar,baz=blah", Map.of("foo", "bar", "baz", "blah"), true},
      {"foo=blah", Map.of("foo", "bar", "baz", "blah"), false},
      {"foo=bar,foobar=bar,baz=blah", Map.of("foo", "bar", "baz", "blah"), false},
      {"x in (foo),y notin (alpha)", Map.of("x", "foo", "y", "baz"), true},
      {"x in (foo),y in (alpha)", Map.of("x", "foo", "y", "baz"), false},
      {"x notin (),y", Map.of("y", ""), true},
      {"!x,y", Map.of("y", ""), true},
      {"x notin (),!y", Map.of("y", ""), false},
      {"x in ()", Map.of("y", "baz"), false},
      {"z>1", Map.of("z", "2"), true},
      {"z>1", Map.of("z", "v2"), false},
    };
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      Map<String, String> labels = (Map<String, String>) row[1];
      assertEquals(row[2], Selector.parse((String) row[0]).matches(labels), row[0] + " " + labels);
    }
    assertTrue(Selector.everything().matches(Map.of("x", "y")));
    assertTrue(Selector.everything().isEmpty());
    assertFalse(Selector.nothing().matches(Map.of()));
    assertFalse(Selector.nothing().isEmpty());
    assertTrue(Selector.parse("x").matches(Map.of("x", "")));
    assertFalse(Selector.parse("x=a").matches(null));
  }

  @Test
  void writesRequirementsAsKubernetes() {
    assertEquals(
        "x in (abc,def),y notin (jkl),z",
        Selector.of(
                List.of(
                    Requirement.of("x", Operator.IN, List.of("def", "abc")),
                    Requirement.of("y", Operator.NOT_IN, List.of("jkl")),
                    Requirement.of("z", Operator.EXISTS, List.of())))
            .toString());
    assertEquals(
        "x notin (abc,def),y!=jkl,!z", Selector.parse("y!=jkl,!z,x notin (def,abc)").toString());
    assertEquals("x=abc,y==jkl,z!=a,z", Selector.parse("x=abc,y==jkl,z!=a,z").toString());
    assertEquals("x>2,y<8,z", Selector.parse("z,y<8,x>2").toString());
  }

  @Test
  void requiresExactMatchOnTheFirstRequirementOfTheKey() {
    assertEquals(Optional.of("value"), Selector.parse("key in (value)").requiresExactMatch("key"));
    assertEquals(
        Optional.empty(), Selector.parse("key in (value,value2)").requiresExactMatch("key"));
    assertEquals(
        Optional.of("value2"),
        Selector.parse("key in (value,value1),key2 in (value2)").requiresExactMatch("key2"));
    assertEquals(Optional.of("value"), Selector.parse("key=value").requiresExactMatch("key"));
    assertEquals(Optional.of("value"), Selector.parse("key==value").requiresExactMatch("key"));
    assertEquals(Optional.empty(), Selector.parse("key!=value").requiresExactMatch("key"));
  }

  @Test
  void requirementsAreValidatedWithKubernetesMessages() {
    SelectorParseException empty =
        assertThrows(
            SelectorParseException.class, () -> Requirement.of("x1", Operator.IN, List.of()));
    assertEquals(
        "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
        empty.getMessage());
    SelectorParseException two =
        assertThrows(
            SelectorParseException.class,
            () -> Requirement.of("x5", Operator.EQUALS, List.of("foo", "bar")));
    assertEquals(
        "values: Invalid value: [\"bar\",\"foo\"]: exact-match compatibility requires one single"
            + " value",
        two.getMessage());
    assertThrows(
        SelectorParseException.class, () -> Requirement.of("x8", Operator.EXISTS, List.of("foo")));
    assertThrows(
        SelectorParseException.class,
        () -> Requirement.of("x", Operator.GREATER_THAN, List.of("a")));
    SelectorParseException badValue =
        assertThrows(SelectorParseException.class, () -> Selector.parse("app=no spaces"));
    assertTrue(
        badValue.getMessage().startsWith("found 'spaces', expected: ',' or 'end of string'"),
        badValue.getMessage());
    SelectorParseException badKey =
        assertThrows(SelectorParseException.class, () -> Selector.parse("-app=web"));
    assertTrue(
        badKey.getMessage().startsWith("unable to parse requirement: key: Invalid value: \"-app\""),
        badKey.getMessage());
    assertEquals("-app=web", badKey.selector());
    assertEquals(1, badKey.errors().size());
    SelectorParseException value =
        assertThrows(SelectorParseException.class, () -> Selector.parse("app=-web"));
    assertTrue(
        value
            .getMessage()
            .startsWith("unable to parse requirement: values[0][app]: Invalid value: \"-web\""),
        value.getMessage());
    assertEquals(
        "found '=', expected: ',' or 'end of string'",
        assertThrows(SelectorParseException.class, () -> Selector.parse("!x=a")).getMessage());
  }

  /** A nil {@code Set} is the empty selector ({@code SelectorFromSet(nil)} selects everything). */
  @Test
  void aNullSetSelectsEverything() {
    Selector fromNull = Selector.fromSet(null);
    assertSame(Selector.everything(), fromNull);
    assertTrue(fromNull.isEmpty());
    assertTrue(fromNull.matches(Map.of("x", "y")));
    assertTrue(fromNull.matches(null));
    assertEquals("", fromNull.toString());
    assertSame(Selector.everything(), Selector.fromSet(Map.of()));
    assertEquals("a=b,x=y", Selector.fromSet(Map.of("x", "y", "a", "b")).toString());
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("app", null);
    assertEquals(
        "values[0][app]: Required value: a label value may be empty but not null",
        assertThrows(SelectorParseException.class, () -> Selector.fromSet(nullValue)).getMessage());
    Map<String, String> nullKey = new HashMap<>();
    nullKey.put(null, "web");
    assertEquals(
        "key: Required value: a label key may not be null",
        assertThrows(SelectorParseException.class, () -> Selector.fromSet(nullKey)).getMessage());
  }
}
