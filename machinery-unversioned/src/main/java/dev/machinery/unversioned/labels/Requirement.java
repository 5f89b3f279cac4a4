package dev.machinery.unversioned.labels;

import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.Validation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One condition of a label selector ({@code labels.Requirement}): a key, an {@link Operator} and
 * values, validated as Kubernetes validates them when made. Values are kept sorted and without
 * repeats, as Kubernetes keeps them after parsing.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class Requirement {
  private final String key;
  private final Operator operator;
  private final List<String> values;

  private Requirement(String key, Operator operator, List<String> values) {
    this.key = key;
    this.operator = operator;
    this.values = values;
  }

  /**
   * Makes a requirement, checking what Kubernetes checks ({@code labels.NewRequirement}): a valid
   * key; at least one value for {@code in} and {@code notin}; exactly one for the equality
   * operators; none for {@code exists} and {@code !}; one integer for {@code >} and {@code <};
   * every value a valid label value.
   *
   * @param key the label key
   * @param operator the operator
   * @param values the values
   * @return the requirement
   * @throws SelectorParseException with the field errors, in Kubernetes' words
   */
  public static Requirement of(String key, Operator operator, Collection<String> values) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    List<String> sorted = new ArrayList<>(new TreeSet<>(values));
    List<FieldError> errors = new ArrayList<>();
    FieldPath keyPath = FieldPath.of("key");
    List<String> keyProblems = Validation.isQualifiedName(key);
    if (!keyProblems.isEmpty()) {
      errors.add(FieldError.invalid(keyPath, key, String.join("; ", keyProblems)));
    }
    FieldPath valuesPath = FieldPath.of("values");
    switch (operator) {
      case IN, NOT_IN -> {
        if (sorted.isEmpty()) {
          errors.add(
              FieldError.invalid(
                  valuesPath, sorted, "for 'in', 'notin' operators, values set can't be empty"));
        }
      }
      case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
        if (sorted.size() != 1) {
          errors.add(
              FieldError.invalid(
                  valuesPath, sorted, "exact-match compatibility requires one single value"));
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!sorted.isEmpty()) {
          errors.add(
              FieldError.invalid(
                  valuesPath, sorted, "values set must be empty for exists and does not exist"));
        }
      }
      case GREATER_THAN, LESS_THAN -> {
        if (sorted.size() != 1) {
          errors.add(
              FieldError.invalid(
                  valuesPath, sorted, "for 'Gt', 'Lt' operators, exactly one value is required"));
        }
        for (int i = 0; i < sorted.size(); i++) {
          if (parseInteger(sorted.get(i)) == null) {
            errors.add(
                FieldError.invalid(
                    valuesPath.index(i),
                    sorted.get(i),
                    "for 'Gt', 'Lt' operators, the value must be an integer"));
          }
        }
      }
    }
    for (int i = 0; i < sorted.size(); i++) {
      List<String> valueProblems = Validation.isValidLabelValue(sorted.get(i));
      if (!valueProblems.isEmpty()) {
        errors.add(
            FieldError.invalid(
                valuesPath.index(i).key(key), sorted.get(i), String.join("; ", valueProblems)));
      }
    }
    if (!errors.isEmpty()) {
      throw new SelectorParseException(null, FieldError.aggregate(errors), errors);
    }
    return new Requirement(key, operator, List.copyOf(sorted));
  }

  /**
   * Returns the label key.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * Returns the operator.
   *
   * @return the operator
   */
  public Operator operator() {
    return operator;
  }

  /**
   * Returns the values, sorted.
   *
   * @return the values
   */
  public List<String> values() {
    return values;
  }

  /**
   * Whether a label map satisfies this requirement ({@code Requirement.Matches}).
   *
   * @param labels the labels, or null for none
   * @return true when satisfied
   */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> present = labels == null ? Map.of() : labels;
    String value = present.get(key);
    boolean has = present.containsKey(key);
    return switch (operator) {
      case IN, EQUALS, DOUBLE_EQUALS -> has && values.contains(value);
      case NOT_IN, NOT_EQUALS -> !has || !values.contains(value);
      case EXISTS -> has;
      case DOES_NOT_EXIST -> !has;
      case GREATER_THAN, LESS_THAN -> {
        Long actual = has ? parseInteger(value) : null;
        Long bound = values.size() == 1 ? parseInteger(values.get(0)) : null;
        yield actual != null
            && bound != null
            && (operator == Operator.GREATER_THAN ? actual > bound : actual < bound);
      }
    };
  }

  /** A decimal int64 of ASCII digits with an optional sign, as Go's ParseInt reads one. */
  static Long parseInteger(String text) {
    if (text == null) {
      return null;
    }
    int start = !text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    if (text.length() == start || text.length() - start > 19) {
      return null;
    }
    for (int i = start; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return null;
      }
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Requirement that
        && key.equals(that.key)
        && operator == that.operator
        && values.equals(that.values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, operator, values);
  }

  /**
   * Returns the requirement as Kubernetes writes it: {@code x in (a,b)}, {@code !x}, {@code x!=a}.
   *
   * @return the text
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    if (operator == Operator.DOES_NOT_EXIST) {
      text.append('!');
    }
    text.append(key);
    if (operator == Operator.EXISTS || operator == Operator.DOES_NOT_EXIST) {
      return text.toString();
    }
    text.append(operator.text());
    boolean set = operator == Operator.IN || operator == Operator.NOT_IN;
    if (set) {
      text.append('(');
    }
    text.append(String.join(",", values));
    if (set) {
      text.append(')');
    }
    return text.toString();
  }
}
