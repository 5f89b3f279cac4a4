package dev.machinery.unversioned.fields;

import dev.machinery.core.runtime.FieldLabel;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A field selector ({@code fields.Selector}): terms {@code field=value} (or {@code ==}) and {@code
 * field!=value} that must all hold, such as {@code metadata.name=web,status.phase!=Running}. Values
 * escape {@code \}, {@code ,} and {@code =} with a backslash. Terms are kept in the order
 * Kubernetes sorts them (by their text), so equal selectors write equal text.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class FieldSelector {
  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  /** One term: a field, whether it must equal (else differ), and the value. */
  public record Term(String field, boolean equal, String value) {
    /**
     * Checks the parts.
     *
     * @param field the field, such as {@code metadata.name}
     * @param equal true for {@code =}, false for {@code !=}
     * @param value the value, unescaped
     */
    public Term {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(value, "value");
    }

    /**
     * Returns the term as Kubernetes writes it, the value escaped.
     *
     * @return the text
     */
    @Override
    public String toString() {
      return field + (equal ? "=" : "!=") + escapeValue(value);
    }
  }

  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = terms;
  }

  /**
   * The selector that matches everything: {@code ""}.
   *
   * @return the selector
   */
  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /**
   * A selector of terms.
   *
   * @param terms the terms
   * @return the selector
   */
  public static FieldSelector of(List<Term> terms) {
    return terms.isEmpty() ? EVERYTHING : new FieldSelector(List.copyOf(terms));
  }

  /**
   * Parses Kubernetes' field selector syntax ({@code fields.ParseSelector}).
   *
   * @param text the selector text
   * @return the selector
   * @throws FieldSelectorParseException with Kubernetes' message
   */
  public static FieldSelector parse(String text) {
    Objects.requireNonNull(text, "text");
    List<String> parts = splitTerms(text);
    Collections.sort(parts);
    List<Term> terms = new ArrayList<>();
    for (String part : parts) {
      if (part.isEmpty()) {
        continue;
      }
      Term term = splitTerm(text, part);
      terms.add(term);
    }
    return of(terms);
  }

  private static List<String> splitTerms(String text) {
    List<String> terms = new ArrayList<>();
    if (text.isEmpty()) {
      return terms;
    }
    int start = 0;
    boolean escaped = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == ',') {
        terms.add(text.substring(start, i));
        start = i + 1;
      }
    }
    terms.add(text.substring(start));
    return terms;
  }

  /** The first operator from the left, trying {@code !=}, {@code ==}, {@code =} at each place. */
  private static Term splitTerm(String selector, String part) {
    for (int i = 0; i < part.length(); i++) {
      for (String operator : new String[] {"!=", "==", "="}) {
        if (part.startsWith(operator, i)) {
          String value = unescapeValue(selector, part.substring(i + operator.length()));
          return new Term(part.substring(0, i), !operator.equals("!="), value);
        }
      }
    }
    throw new FieldSelectorParseException(
        selector, "invalid selector: '" + selector + "'; can't understand '" + part + "'");
  }

  /**
   * Escapes {@code \}, {@code ,} and {@code =} in a value ({@code fields.EscapeValue}).
   *
   * @param value the value
   * @return the escaped value
   */
  public static String escapeValue(String value) {
    StringBuilder escaped = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' || c == ',' || c == '=') {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    return escaped.toString();
  }

  private static String unescapeValue(String selector, String value) {
    if (value.indexOf('\\') < 0 && value.indexOf(',') < 0 && value.indexOf('=') < 0) {
      return value;
    }
    StringBuilder plain = new StringBuilder(value.length());
    boolean escaped = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (escaped) {
        if (c != '\\' && c != ',' && c != '=') {
          throw new FieldSelectorParseException(
              selector, "invalid field selector: invalid escape sequence: \\" + c);
        }
        plain.append(c);
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == ',' || c == '=') {
        throw new FieldSelectorParseException(
            selector, "invalid field selector: unescaped character in value: " + (int) c);
      } else {
        plain.append(c);
      }
    }
    if (escaped) {
      throw new FieldSelectorParseException(
          selector, "invalid field selector: invalid escape sequence: \\");
    }
    return plain.toString();
  }

  /**
   * Returns the terms.
   *
   * @return the terms
   */
  public List<Term> terms() {
    return terms;
  }

  /**
   * Whether the selector has no term and so selects everything.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return terms.isEmpty();
  }

  /**
   * Whether every term holds for an object's selectable fields ({@code Matches}): a field the set
   * lacks (or maps to null) counts as the empty string, as in Kubernetes, and null is a set without
   * fields (Go's nil {@code Set}).
   *
   * @param fields the fields, such as {@link FieldSets#of}, or null for none
   * @return true when selected
   */
  public boolean matches(Map<String, String> fields) {
    for (Term term : terms) {
      String actual = fields == null ? null : fields.get(term.field());
      actual = actual == null ? "" : actual;
      if (term.equal() != actual.equals(term.value())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The value a field must have, if one {@code =} term pins it ({@code RequiresExactMatch}).
   *
   * @param field the field
   * @return the value, or empty
   */
  public Optional<String> requiresExactMatch(String field) {
    for (Term term : terms) {
      if (term.field().equals(field) && term.equal()) {
        return Optional.of(term.value());
      }
    }
    return Optional.empty();
  }

  /**
   * The selector in a kind's internal field labels: each term converted by the Scheme's field-label
   * conversion for the kind and version the client named ({@code metadata.name} and {@code
   * metadata.namespace} for every kind).
   *
   * @param scheme the scheme
   * @param kind the kind and version the request named
   * @return the converted selector
   * @throws dev.machinery.core.runtime.FieldLabelNotSupportedException for a field the kind does
   *     not support (a server answers it with {@code BadRequest})
   */
  public FieldSelector convertLabels(Scheme scheme, GroupVersionKind kind) {
    List<Term> converted = new ArrayList<>();
    for (Term term : terms) {
      FieldLabel label = scheme.convertFieldLabel(kind, term.field(), term.value());
      converted.add(new Term(label.label(), term.equal(), label.value()));
    }
    return of(converted);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FieldSelector that && terms.equals(that.terms);
  }

  @Override
  public int hashCode() {
    return terms.hashCode();
  }

  /**
   * Returns the text Kubernetes writes: the terms joined by commas, values escaped.
   *
   * @return the text; {@code ""} for everything
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (Term term : terms) {
      if (text.length() > 0) {
        text.append(',');
      }
      text.append(term);
    }
    return text.toString();
  }
}
