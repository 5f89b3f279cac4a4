package dev.machinery.core.patch;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON pointer (RFC 6901): {@code /spec/containers/0/image}, with {@code ~1} for '/' and {@code
 * ~0} for '~' in a token. Immutable; thread-safe.
 */
final class JsonPointer {
  private final String text;
  private final List<String> tokens;

  private JsonPointer(String text, List<String> tokens) {
    this.text = text;
    this.tokens = tokens;
  }

  /** Parses a pointer; the message of a failure names what is wrong. */
  static JsonPointer parse(String text) {
    if (text.isEmpty()) {
      return new JsonPointer(text, List.of());
    }
    if (text.charAt(0) != '/') {
      throw new IllegalArgumentException("a JSON pointer starts with '/'");
    }
    List<String> tokens = new ArrayList<>();
    StringBuilder token = new StringBuilder();
    for (int i = 1; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '/') {
        tokens.add(token.toString());
        token.setLength(0);
        continue;
      }
      char c = text.charAt(i);
      if (c == '~') {
        char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
        if (next == '0') {
          token.append('~');
        } else if (next == '1') {
          token.append('/');
        } else {
          throw new IllegalArgumentException("'~' must be followed by '0' or '1'");
        }
        i++;
      } else {
        token.append(c);
      }
    }
    return new JsonPointer(text, List.copyOf(tokens));
  }

  List<String> tokens() {
    return tokens;
  }

  boolean isRoot() {
    return tokens.isEmpty();
  }

  /** Whether this pointer is a proper prefix of another (moving a value into itself). */
  boolean isProperPrefixOf(JsonPointer other) {
    return tokens.size() < other.tokens.size()
        && other.tokens.subList(0, tokens.size()).equals(tokens);
  }

  /** A pointer's text as messages show it: the root, the empty pointer, as {@code ""}. */
  static String show(String text) {
    return text.isEmpty() ? "\"\"" : text;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonPointer pointer && tokens.equals(pointer.tokens);
  }

  @Override
  public int hashCode() {
    return tokens.hashCode();
  }

  @Override
  public String toString() {
    return show(text);
  }
}
