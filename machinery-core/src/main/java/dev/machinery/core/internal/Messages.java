package dev.machinery.core.internal;

import java.util.Locale;

/** Makes third-party error messages safe to show: escaped and bounded. Stateless. */
public final class Messages {
  private static final int MAX = 240;

  private Messages() {}

  /**
   * Returns a message with line breaks as spaces, other control and non-ASCII characters escaped,
   * and at most 240 characters kept.
   *
   * @param message a third-party message; null gives {@code (no detail)}
   * @return the message, safe to show
   */
  public static String sanitize(String message) {
    if (message == null) {
      return "(no detail)";
    }
    StringBuilder out = new StringBuilder(Math.min(message.length(), MAX) + 8);
    for (int i = 0; i < message.length() && out.length() < MAX; i++) {
      char c = message.charAt(i);
      if (c == '\n' || c == '\r' || c == '\t') {
        out.append(' ');
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    if (out.length() >= MAX) {
      out.append("...");
    }
    return out.toString();
  }
}
