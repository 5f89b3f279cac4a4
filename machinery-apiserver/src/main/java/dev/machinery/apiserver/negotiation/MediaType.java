package dev.machinery.apiserver.negotiation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A media type or media range, RFC 7231 §3.1.1.1 and RFC 6838: {@code type/subtype}, an optional
 * structured-syntax suffix ({@code json} in {@code application/vnd.k8s+json}), and parameters
 * (names lower-cased, values as given, quoted strings unquoted). The {@code q} weight of an Accept
 * range is kept apart from the parameters. Immutable.
 *
 * @param type the type, lower case, or {@code *}
 * @param subtype the subtype, lower case, or {@code *}
 * @param parameters the parameters in order, {@code q} excluded
 * @param quality the {@code q} weight, 0 to 1 (1 when absent)
 */
public record MediaType(
    String type, String subtype, Map<String, String> parameters, double quality) {
  private static final int MAX_PARAMETERS = 32;

  /**
   * Checks the parts and copies the parameters.
   *
   * @param type see the record description
   * @param subtype see the record description
   * @param parameters see the record description
   * @param quality see the record description
   */
  public MediaType {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(subtype, "subtype");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    if (!(quality >= 0 && quality <= 1)) {
      throw new IllegalArgumentException("quality must be within 0..1, got " + quality);
    }
  }

  /**
   * Returns a media type without parameters.
   *
   * @param type the type
   * @param subtype the subtype
   * @return the media type
   */
  public static MediaType of(String type, String subtype) {
    return new MediaType(
        type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT), Map.of(), 1);
  }

  /**
   * Parses one media type or media range.
   *
   * @param text such as {@code application/json;as=Table;g=meta.k8s.io;v=v1;q=0.9}
   * @return the media type
   * @throws MalformedMediaTypeException naming the fault and its position
   */
  public static MediaType parse(String text) {
    return new Parser(text, false).mediaType();
  }

  /**
   * Parses one range of an Accept header: as {@link #parse}, but a parameter without {@code =}
   * ({@code application/json;foo}) is ignored, as Kubernetes' negotiator ignores it.
   *
   * @throws MalformedRange naming the fault and its position
   */
  static MediaType parseRange(String text) {
    return new Parser(text, true).mediaType();
  }

  /**
   * Returns the structured-syntax suffix: {@code json} for {@code application/vnd.k8s+json}.
   *
   * @return the suffix, or {@code ""}
   */
  public String suffix() {
    int plus = subtype.lastIndexOf('+');
    return plus < 0 ? "" : subtype.substring(plus + 1);
  }

  /**
   * Returns a parameter's value.
   *
   * @param name the name, any case
   * @return the value, or {@code null}
   */
  public String parameter(String name) {
    return parameters.get(name.toLowerCase(Locale.ROOT));
  }

  /**
   * Returns whether this range matches a media type: equal type and subtype or wildcards, and every
   * parameter of the range present in the type with the same value.
   *
   * @param candidate the concrete media type
   * @return true if it matches
   */
  public boolean matches(MediaType candidate) {
    if (!type.equals("*") && !type.equals(candidate.type)) {
      return false;
    }
    if (!subtype.equals("*") && !subtype.equals(candidate.subtype)) {
      return false;
    }
    for (Map.Entry<String, String> parameter : parameters.entrySet()) {
      if (!parameter.getValue().equals(candidate.parameters.get(parameter.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns how specific the range is, for RFC 7231's precedence: {@code *}/{@code *} is 0, {@code
   * type/*} 1, {@code type/subtype} 2, plus one per parameter.
   *
   * @return the specificity
   */
  public int specificity() {
    return (type.equals("*") ? 0 : subtype.equals("*") ? 1 : 2) + parameters.size();
  }

  /**
   * Returns a copy with one more parameter.
   *
   * @param name the name
   * @param value the value
   * @return the media type
   */
  public MediaType withParameter(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(parameters);
    more.put(name.toLowerCase(Locale.ROOT), value);
    return new MediaType(type, subtype, more, quality);
  }

  /**
   * Returns the text form, parameters quoted where needed, {@code q} left out: {@code
   * application/json;as=Table;g=meta.k8s.io;v=v1}.
   *
   * @return the text
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(type).append('/').append(subtype);
    parameters.forEach(
        (name, value) -> {
          text.append(';').append(name).append('=');
          if (!value.isEmpty() && value.chars().allMatch(Parser::isTokenChar)) {
            text.append(value);
          } else {
            text.append('"');
            for (char c : value.toCharArray()) {
              if (c == '"' || c == '\\') {
                text.append('\\');
              }
              text.append(c);
            }
            text.append('"');
          }
        });
    return text.toString();
  }

  /**
   * Why one range of an Accept header is malformed. A long header may have many such ranges, each
   * thrown once, so it goes without a stack trace, which would cost more than the parsing.
   */
  static final class MalformedRange extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedRange(String message) {
      super(message, null, false, false);
    }
  }

  /** A strict RFC 7231 parser of one media type. */
  static final class Parser {
    private final String text;
    private final boolean skipBareParameters;
    private int position;

    Parser(String text, boolean skipBareParameters) {
      this.text = Objects.requireNonNull(text, "text");
      this.skipBareParameters = skipBareParameters;
    }

    static boolean isTokenChar(int c) {
      return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    private RuntimeException error(String problem) {
      String shown = text.length() > 200 ? text.substring(0, 200) + "…" : text;
      String message = "media type \"" + shown + "\": " + problem + " at position " + position;
      return skipBareParameters
          ? new MalformedRange(message)
          : new MalformedMediaTypeException(shown, message);
    }

    private String token(String what) {
      int start = position;
      while (position < text.length() && isTokenChar(text.charAt(position))) {
        position++;
      }
      if (position == start) {
        throw error("expected " + what);
      }
      return text.substring(start, position);
    }

    private void spaces() {
      while (position < text.length()
          && (text.charAt(position) == ' ' || text.charAt(position) == '\t')) {
        position++;
      }
    }

    MediaType mediaType() {
      spaces();
      String type = token("a type such as application").toLowerCase(Locale.ROOT);
      if (position >= text.length() || text.charAt(position) != '/') {
        throw error("expected '/' after the type");
      }
      position++;
      String subtype = token("a subtype such as json").toLowerCase(Locale.ROOT);
      if (type.equals("*") && !subtype.equals("*")) {
        throw error("a wildcard type needs a wildcard subtype");
      }
      Map<String, String> parameters = new LinkedHashMap<>();
      double quality = 1;
      spaces();
      while (position < text.length()) {
        if (text.charAt(position) != ';') {
          throw error("expected ';' before a parameter");
        }
        position++;
        spaces();
        if (position >= text.length()) {
          break; // a trailing ';' is tolerated, as browsers send it
        }
        if (skipBareParameters) {
          int end = position;
          while (end < text.length() && text.charAt(end) != ';' && text.charAt(end) != '=') {
            end++;
          }
          if (end == text.length() || text.charAt(end) == ';') {
            position = end; // a parameter without '=', such as "foo" in application/json;foo
            continue;
          }
        }
        String name = token("a parameter name").toLowerCase(Locale.ROOT);
        if (position >= text.length() || text.charAt(position) != '=') {
          throw error("expected '=' after parameter \"" + name + "\"");
        }
        position++;
        int valueStart = position;
        String value =
            position < text.length() && text.charAt(position) == '"'
                ? quoted()
                : token("a value for parameter \"" + name + "\"");
        if (name.equals("q")) {
          int end = position;
          position = valueStart;
          quality = quality(value);
          position = end;
        } else {
          if (parameters.size() >= MAX_PARAMETERS) {
            throw error("more than " + MAX_PARAMETERS + " parameters");
          }
          if (parameters.put(name, value) != null) {
            throw error("parameter \"" + name + "\" given twice");
          }
        }
        spaces();
      }
      return new MediaType(type, subtype, parameters, quality);
    }

    private String quoted() {
      position++;
      StringBuilder value = new StringBuilder();
      while (position < text.length()) {
        char c = text.charAt(position++);
        if (c == '"') {
          return value.toString();
        }
        if (c == '\\') {
          if (position >= text.length()) {
            break;
          }
          c = text.charAt(position++);
        }
        if (c < 32 && c != '\t' || c == 127) {
          throw error("control character in a quoted string");
        }
        value.append(c);
      }
      throw error("unterminated quoted string");
    }

    /** RFC 7231 §5.3.1: "0" or "1", with at most three decimals, 0 to 1. */
    private double quality(String value) {
      if (!value.matches("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?")) {
        throw error(
            "q=\"" + value + "\" is not a weight between 0 and 1 with at most three decimals");
      }
      return Double.parseDouble(value);
    }
  }

  // Written out rather than left to the record: its generated equals and hashCode are bootstrapped
  // by invokedynamic on first use, which a server's first request would pay for.
  @Override
  public boolean equals(Object o) {
    return this == o
        || o instanceof MediaType other
            && type.equals(other.type)
            && subtype.equals(other.subtype)
            && parameters.equals(other.parameters)
            && Double.compare(quality, other.quality) == 0;
  }

  @Override
  public int hashCode() {
    int hash = type.hashCode();
    hash = 31 * hash + subtype.hashCode();
    hash = 31 * hash + parameters.hashCode();
    return 31 * hash + Double.hashCode(quality);
  }
}
