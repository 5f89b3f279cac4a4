package dev.machinery.unversioned.labels;

import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A label selector ({@code labels.Selector}): requirements that must all hold, kept sorted by key
 * so that two selectors that mean the same write the same text. {@link #everything()} (no
 * requirement) matches every label set; {@link #nothing()} matches none.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class Selector {
  private static final Selector EVERYTHING = new Selector(List.of(), false);
  private static final Selector NOTHING = new Selector(List.of(), true);

  private final List<Requirement> requirements;
  private final boolean nothing;

  private Selector(List<Requirement> requirements, boolean nothing) {
    this.requirements = requirements;
    this.nothing = nothing;
  }

  /**
   * The selector that matches every label set: {@code ""}.
   *
   * @return the selector
   */
  public static Selector everything() {
    return EVERYTHING;
  }

  /**
   * The selector that matches nothing (what an absent {@code LabelSelector} means).
   *
   * @return the selector
   */
  public static Selector nothing() {
    return NOTHING;
  }

  /**
   * Parses Kubernetes' selector syntax ({@code labels.Parse}): {@code app=web,tier!=db}, {@code env
   * in (prod,staging)}, {@code !canary}, {@code replicas>2}.
   *
   * @param text the selector text
   * @return the selector
   * @throws SelectorParseException naming what was found and what was expected, or the invalid key
   *     or value
   */
  public static Selector parse(String text) {
    Objects.requireNonNull(text, "text");
    return of(SelectorParser.parse(text));
  }

  /**
   * A selector of requirements.
   *
   * @param requirements the requirements
   * @return the selector
   */
  public static Selector of(List<Requirement> requirements) {
    List<Requirement> sorted = new ArrayList<>(requirements);
    sorted.sort(Comparator.comparing(Requirement::key));
    return sorted.isEmpty() ? EVERYTHING : new Selector(List.copyOf(sorted), false);
  }

  /**
   * The selector that matches label sets holding every one of these labels ({@code
   * ValidatedSelectorFromSet}); no labels, null included (Go's nil {@code Set}), is {@link
   * #everything()}.
   *
   * @param labels the labels, or null for none
   * @return the selector
   * @throws SelectorParseException when a key or value is not valid, or null
   */
  public static Selector fromSet(Map<String, String> labels) {
    if (labels == null || labels.isEmpty()) {
      return EVERYTHING;
    }
    for (Map.Entry<String, String> label : labels.entrySet()) {
      FieldError error = null;
      if (label.getKey() == null) {
        error = FieldError.required(FieldPath.of("key"), "a label key may not be null");
      } else if (label.getValue() == null) {
        error =
            FieldError.required(
                FieldPath.of("values").index(0).key(label.getKey()),
                "a label value may be empty but not null");
      }
      if (error != null) {
        throw new SelectorParseException(null, error.toString(), List.of(error));
      }
    }
    List<Requirement> requirements = new ArrayList<>();
    for (Map.Entry<String, String> label : new TreeMap<>(labels).entrySet()) {
      requirements.add(Requirement.of(label.getKey(), Operator.EQUALS, List.of(label.getValue())));
    }
    return of(requirements);
  }

  /**
   * Returns a selector with further requirements.
   *
   * @param more the requirements to add
   * @return the selector
   */
  public Selector add(Requirement... more) {
    if (nothing) {
      return this;
    }
    List<Requirement> all = new ArrayList<>(requirements);
    all.addAll(List.of(more));
    return of(all);
  }

  /**
   * Whether every requirement holds for a label set ({@code Matches}).
   *
   * @param labels the labels, or null for none
   * @return true when selected
   */
  public boolean matches(Map<String, String> labels) {
    if (nothing) {
      return false;
    }
    for (Requirement requirement : requirements) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the selector has no requirement and so selects everything ({@code Empty}); false for
   * {@link #nothing()}.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return !nothing && requirements.isEmpty();
  }

  /**
   * Whether this is {@link #nothing()}.
   *
   * @return true when it matches nothing
   */
  public boolean matchesNothing() {
    return nothing;
  }

  /**
   * Returns the requirements, sorted by key.
   *
   * @return the requirements
   */
  public List<Requirement> requirements() {
    return requirements;
  }

  /**
   * The single value a label must have to be selected, if the selector pins it ({@code
   * RequiresExactMatch}): {@code =}, {@code ==} or {@code in} with one value, on the first
   * requirement of that key.
   *
   * @param key the label key
   * @return the value, or empty
   */
  public Optional<String> requiresExactMatch(String key) {
    for (Requirement requirement : requirements) {
      if (requirement.key().equals(key)) {
        Operator operator = requirement.operator();
        boolean exact =
            operator == Operator.EQUALS
                || operator == Operator.DOUBLE_EQUALS
                || operator == Operator.IN;
        return exact && requirement.values().size() == 1
            ? Optional.of(requirement.values().get(0))
            : Optional.empty();
      }
    }
    return Optional.empty();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Selector that
        && nothing == that.nothing
        && requirements.equals(that.requirements);
  }

  @Override
  public int hashCode() {
    return requirements.hashCode() * 2 + (nothing ? 1 : 0);
  }

  /**
   * Returns the canonical text, which parses back to an equal selector: requirements by key, values
   * sorted.
   *
   * @return the text; {@code ""} for everything and for nothing
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Requirement requirement : requirements) {
      if (text.length() > 0) {
        text.append(',');
      }
      text.append(requirement);
    }
    return text.toString();
  }
}
