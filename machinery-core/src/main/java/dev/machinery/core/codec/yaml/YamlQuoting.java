package dev.machinery.core.codec.yaml;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.regex.Pattern;

/**
 * Decides which strings the YAML encoder quotes. A string is written plain only when it is plainly
 * safe: it starts with a letter, digit or one of {@code _ . /}, holds only letters, digits, inner
 * spaces and {@code _ . / : = + @ -}, has no {@code ": "} or {@code " #"} in it, does not end with
 * a space or colon, and the library's reader (YAML 1.2 core schema) would not take it for a number,
 * boolean or null, and a YAML 1.1 reader would not take it for a number, date or timestamp ({@code
 * 1_000}, {@code 0b101}, {@code 12:30}, {@code 2024-05-01T12:00:00Z}); Jackson's own rules, which
 * also cover YAML 1.1's words ({@code yes}, {@code on}), must agree. The key {@code <<} is quoted
 * so that it is not read as a merge key. So a string written by the library reads back as the same
 * string.
 */
public final class YamlQuoting extends StringQuotingChecker.Default {
  private static final long serialVersionUID = 1L;

  /** A checker with the library's rules. */
  public YamlQuoting() {}

  /**
   * The start of a YAML 1.1 date or timestamp ({@code 2001-12-14}, {@code 2001-12-14t21:59:43.10Z},
   * {@code 2001-12-14 21:59:43.10 -5}), which YAML 1.1 readers (SnakeYAML's default resolver, Go's
   * yaml.v2) read as a time; any string starting so is quoted, a little more than the pattern
   * needs.
   */
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ]|$)");

  @Override
  public boolean needToQuoteValue(String value) {
    return super.needToQuoteValue(value) || !plainlySafe(value);
  }

  @Override
  public boolean needToQuoteName(String name) {
    return super.needToQuoteName(name) || name.equals("<<") || !plainlySafe(name);
  }

  static boolean plainlySafe(String s) {
    if (s.isEmpty()) {
      return false;
    }
    char first = s.charAt(0);
    if (!(isAlphanumeric(first) || first == '_' || first == '.' || first == '/')) {
      return false;
    }
    char last = s.charAt(s.length() - 1);
    if (last == ' ' || last == ':') {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          isAlphanumeric(c)
              || c == '_'
              || c == '.'
              || c == '/'
              || c == ':'
              || c == '='
              || c == '+'
              || c == '@'
              || c == '-'
              || c == ' ';
      if (!ok
          || (c == ' ' && s.charAt(i - 1) == ':')
          || (c == ' ' && i + 1 < s.length() && s.charAt(i + 1) == '#')) {
        return false;
      }
    }
    return YamlReader.plainToken(s) == JsonToken.VALUE_STRING
        && !numberLike(s)
        && !(first >= '0' && first <= '9' && DATE.matcher(s).lookingAt());
  }

  /**
   * Whether a YAML 1.1 reader (Go's yaml.v2, which kubectl uses) might take the string for a number
   * or a date although the core schema does not: it starts like a number and holds nothing but
   * digits, signs, dots, colons, underscores and the letters of hexadecimal, binary, octal and
   * exponent forms ({@code 1_000}, {@code 0b101}, {@code 12:30}, {@code 2026-11-25}).
   */
  private static boolean numberLike(String s) {
    char first = s.charAt(0);
    if (!((first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.')) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean numeric =
          (c >= '0' && c <= '9')
              || (c >= 'a' && c <= 'f')
              || (c >= 'A' && c <= 'F')
              || "xXoObB_:.+-".indexOf(c) >= 0;
      if (!numeric) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
