package dev.machinery.unversioned.labels;

import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Conversion between the {@code meta.k8s.io/v1} {@link LabelSelector} an object holds (a
 * Deployment's {@code spec.selector}) and a {@link Selector} ({@code LabelSelectorAsSelector} and
 * {@code ParseToLabelSelector}).
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class LabelSelectors {
  private LabelSelectors() {}

  /**
   * The selector a {@code LabelSelector} means: none matches nothing, an empty one everything,
   * {@code matchLabels} as equalities and {@code matchExpressions} by their operators.
   *
   * @param selector the label selector, or null
   * @return the selector
   * @throws SelectorParseException for an unknown operator or an invalid key or value
   */
  public static Selector toSelector(LabelSelector selector) {
    if (selector == null) {
      return Selector.nothing();
    }
    Map<String, String> labels =
        selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    List<LabelSelectorRequirement> expressions =
        selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
    if (labels.isEmpty() && expressions.isEmpty()) {
      return Selector.everything();
    }
    List<Requirement> requirements = new ArrayList<>();
    for (Map.Entry<String, String> label : new TreeMap<>(labels).entrySet()) {
      requirements.add(Requirement.of(label.getKey(), Operator.EQUALS, List.of(label.getValue())));
    }
    for (LabelSelectorRequirement expression : expressions) {
      String name = expression.getOperator() == null ? "" : expression.getOperator();
      Operator operator =
          switch (name) {
            case LabelSelectorRequirement.IN -> Operator.IN;
            case LabelSelectorRequirement.NOT_IN -> Operator.NOT_IN;
            case LabelSelectorRequirement.EXISTS -> Operator.EXISTS;
            case LabelSelectorRequirement.DOES_NOT_EXIST -> Operator.DOES_NOT_EXIST;
            default ->
                throw new SelectorParseException(
                    null, "\"" + name + "\" is not a valid label selector operator", List.of());
          };
      requirements.add(
          Requirement.of(
              expression.getKey() == null ? "" : expression.getKey(),
              operator,
              expression.getValues() == null ? List.of() : expression.getValues()));
    }
    return Selector.of(requirements);
  }

  /**
   * The {@code LabelSelector} of a selector string: equalities become {@code matchLabels}, the set
   * and existence operators {@code matchExpressions}; {@code !=}, {@code >} and {@code <} have no
   * {@code LabelSelector} form and are refused, as Kubernetes refuses them.
   *
   * @param text the selector text
   * @return the label selector, with both fields present (possibly empty)
   * @throws SelectorParseException when the text does not parse or has no such form
   */
  public static LabelSelector parse(String text) {
    Selector selector;
    try {
      selector = Selector.parse(text);
    } catch (SelectorParseException e) {
      throw new SelectorParseException(
          text,
          "couldn't parse the selector string \"" + text + "\": " + e.getMessage(),
          e.errors());
    }
    Map<String, String> labels = new LinkedHashMap<>();
    List<LabelSelectorRequirement> expressions = new ArrayList<>();
    for (Requirement requirement : selector.requirements()) {
      String operator;
      switch (requirement.operator()) {
        case EQUALS, DOUBLE_EQUALS -> {
          labels.put(requirement.key(), requirement.values().get(0));
          continue;
        }
        case IN -> operator = LabelSelectorRequirement.IN;
        case NOT_IN -> operator = LabelSelectorRequirement.NOT_IN;
        case EXISTS -> operator = LabelSelectorRequirement.EXISTS;
        case DOES_NOT_EXIST -> operator = LabelSelectorRequirement.DOES_NOT_EXIST;
        case GREATER_THAN, LESS_THAN ->
            throw new SelectorParseException(
                text,
                "\""
                    + (requirement.operator() == Operator.GREATER_THAN ? "gt" : "lt")
                    + "\" isn't supported in label selectors",
                List.of());
        default ->
            throw new SelectorParseException(
                text, "\"!=\" is not a valid label selector operator", List.of());
      }
      expressions.add(
          new LabelSelectorRequirement(
              requirement.key(), operator, new ArrayList<>(requirement.values())));
    }
    LabelSelector result = new LabelSelector();
    result.setMatchLabels(labels);
    result.setMatchExpressions(expressions);
    return result;
  }
}
