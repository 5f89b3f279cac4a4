package dev.machinery.core.internal;

/**
 * Quoting of user-supplied values for error messages: bounded in length and escaped, so that a
 * hostile input can never flood a log or smuggle control characters into it.
 *
 * <p>Stateless and safe for concurrent use.
 */
public final class Text {
  /** The most characters of a user value that an error message repeats. */
  public static final int MAX_QUOTED = 64;

  private Text() {}

  /**
   * Returns {@code value} in double quotes, with control and non-ASCII characters escaped and at
   * most {@link #MAX_QUOTED} characters of it shown (an ellipsis and the full length follow).
   *
   * @param value the value to quote; {@code null} gives {@code null}
   * @return the quoted value
   */
  public static String quote(CharSequence value) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_QUOTED) + 16).append('"');
    int shown = Math.min(value.length(), MAX_QUOTED);
    for (int i = 0; i < shown; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
    if (value.length() > shown) {
      out.append("... (").append(value.length()).append(" characters)");
    }
    return out.toString();
  }
}
