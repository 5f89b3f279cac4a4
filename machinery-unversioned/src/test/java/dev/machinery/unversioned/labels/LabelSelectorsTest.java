package dev.machinery.unversioned.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** LabelSelectorAsSelector and ParseToLabelSelector, as Kubernetes' helpers do them. */
class LabelSelectorsTest {
  @Test
  void absentMatchesNothingEmptyMatchesEverything() {
    assertTrue(LabelSelectors.toSelector(null).matchesNothing());
    assertTrue(LabelSelectors.toSelector(new LabelSelector()).isEmpty());
  }

  @Test
  void matchLabelsAndExpressionsBecomeOneSelector() {
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(Map.of("app", "web"));
    selector.setMatchExpressions(
        List.of(
            new LabelSelectorRequirement("tier", LabelSelectorRequirement.IN, List.of("fe", "be")),
            new LabelSelectorRequirement("canary", LabelSelectorRequirement.DOES_NOT_EXIST, null)));
    Selector converted = LabelSelectors.toSelector(selector);
    assertEquals("app=web,!canary,tier in (be,fe)", converted.toString());
    assertTrue(converted.matches(Map.of("app", "web", "tier", "fe")));
    assertEquals(
        "\"Has\" is not a valid label selector operator",
        assertThrows(
                SelectorParseException.class,
                () -> {
                  LabelSelector bad = new LabelSelector();
                  bad.setMatchExpressions(
                      List.of(new LabelSelectorRequirement("a", "Has", List.of())));
                  LabelSelectors.toSelector(bad);
                })
            .getMessage());
  }

  @Test
  void parsesToLabelSelector() {
    LabelSelector parsed = LabelSelectors.parse("app=web,tier in (fe),!canary,track");
    assertEquals(Map.of("app", "web"), parsed.getMatchLabels());
    assertEquals(
        List.of(
            new LabelSelectorRequirement("canary", "DoesNotExist", List.of()),
            new LabelSelectorRequirement("tier", "In", List.of("fe")),
            new LabelSelectorRequirement("track", "Exists", List.of())),
        parsed.getMatchExpressions());
    assertEquals(
        "\"gt\" isn't supported in label selectors",
        assertThrows(SelectorParseException.class, () -> LabelSelectors.parse("x>1")).getMessage());
    assertTrue(
        assertThrows(SelectorParseException.class, () -> LabelSelectors.parse("x in ("))
            .getMessage()
            .startsWith("couldn't parse the selector string \"x in (\": "));
  }
}
