package dev.machinery.cel;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Go's duration strings ({@code time.ParseDuration}): an optional sign and a sequence of decimal
 * numbers with units {@code ns}, {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m},
 * {@code h}, such as {@code 1h30m} or {@code 1.5s}; {@code 0} alone. Stateless.
 */
final class GoDurations {
  private GoDurations() {}

  /**
   * Reads a duration.
   *
   * @param text the text
   * @return the duration, or {@code null} when the text is not one
   */
  static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    int i = 0;
    boolean negative = false;
    if (text.charAt(0) == '-' || text.charAt(0) == '+') {
      negative = text.charAt(0) == '-';
      i++;
    }
    if (text.substring(i).equals("0")) {
      return Duration.ZERO;
    }
    if (i == text.length()) {
      return null;
    }
    BigDecimal nanos = BigDecimal.ZERO;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
        i++;
      }
      if (start == i) {
        return null;
      }
      BigDecimal number;
      try {
        number = new BigDecimal(text.substring(start, i));
      } catch (NumberFormatException e) {
        return null;
      }
      int unitStart = i;
      while (i < text.length() && !Character.isDigit(text.charAt(i)) && text.charAt(i) != '.') {
        i++;
      }
      long unit;
      switch (text.substring(unitStart, i)) {
        case "ns" -> unit = 1L;
        case "us", "µs", "μs" -> unit = 1_000L;
        case "ms" -> unit = 1_000_000L;
        case "s" -> unit = 1_000_000_000L;
        case "m" -> unit = 60_000_000_000L;
        case "h" -> unit = 3_600_000_000_000L;
        default -> {
          return null;
        }
      }
      nanos = nanos.add(number.multiply(BigDecimal.valueOf(unit)));
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return null;
    }
    long total = nanos.longValue();
    return Duration.ofNanos(negative ? -total : total);
  }
}
