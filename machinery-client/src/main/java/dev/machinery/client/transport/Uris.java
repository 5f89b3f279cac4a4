package dev.machinery.client.transport;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of paths and query parts as Go's net/url writes them. Stateless. */
final class Uris {
  private Uris() {}

  /** Encodes a path, keeping its slashes. */
  static String encodePath(String path) {
    return encode(path, true);
  }

  /**
   * Encodes a query name or value as Go's {@code url.QueryEscape} does: letters, digits and {@code
   * -_.~} kept, a space as {@code +}, every other byte as {@code %XX}.
   */
  static String encodeQueryPart(String part) {
    return encode(part, false);
  }

  private static String encode(String text, boolean path) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (!path && c == ' ') {
        out.append('+');
      } else if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~'
          || (path
              && (c == '/' || c == ':' || c == '@' || c == '!' || c == '$' || c == '&' || c == '\''
                  || c == '(' || c == ')' || c == '*' || c == '+' || c == ',' || c == ';'
                  || c == '='))) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
