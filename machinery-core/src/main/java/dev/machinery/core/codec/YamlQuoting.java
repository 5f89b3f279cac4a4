package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;

/**
 * Decides which strings the YAML encoder quotes. A string is written plain only when it is plainly
 * safe: it starts with a letter, digit or one of {@code _ . /}, holds only letters, digits, inner
 * spaces and {@code _ . / : = + @ -}, has no {@code ": "} or {@code " #"} in it, does not end with
 * a space or colon, and the library's reader (YAML 1.2 core schema) would not take it for a number,
 * boolean or null; Jackson's own rules, which also cover YAML 1.1 readers ({@code yes}, {@code
 * on}), must agree. The key {@code <<} is quoted so that it is not read as a merge key. So a string
 * written by the library reads back as the same string.
 */
final class YamlQuoting extends StringQuotingChecker.Default {
  private static final long serialVersionUID = 1L;

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
    return YamlReader.plainToken(s) == JsonToken.VALUE_STRING;
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
