package dev.machinery.cluster.kubelet;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Parses durations written as Go's {@code time.ParseDuration} reads them ({@code 2s}, {@code
 * 1m30s}, {@code 1.5h}, {@code 300ms}, {@code 10us}, {@code 0}): a sequence of decimal numbers,
 * each with a unit {@code ns}, {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m}, {@code
 * h}, optionally signed. Stateless and thread-safe.
 */
public final class GoDurations {
  private static final Map<String, Long> NANOS =
      Map.of(
          "ns", 1L,
          "us", 1_000L,
          "µs", 1_000L,
          "ms", 1_000_000L,
          "s", 1_000_000_000L,
          "m", 60_000_000_000L,
          "h", 3_600_000_000_000L);

  private GoDurations() {}

  /**
   * Parses a duration.
   *
   * @param text the text
   * @return the duration
   * @throws IllegalArgumentException naming the text when it is not a Go duration
   */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      throw invalid(text);
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
      throw invalid(text);
    }
    BigDecimal total = BigDecimal.ZERO;
    while (i < text.length()) {
      int start = i;
      while (i < text.length() && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
        i++;
      }
      String number = text.substring(start, i);
      if (number.isEmpty()
          || number.equals(".")
          || number.indexOf('.') != number.lastIndexOf('.')) {
        throw invalid(text);
      }
      int unitStart = i;
      while (i < text.length() && !Character.isDigit(text.charAt(i)) && text.charAt(i) != '.') {
        i++;
      }
      String unit = text.substring(unitStart, i);
      Long nanos = NANOS.get(unit);
      if (nanos == null) {
        throw unit.isEmpty()
            ? new IllegalArgumentException("time: missing unit in duration \"" + text + "\"")
            : new IllegalArgumentException(
                "time: unknown unit \"" + unit + "\" in duration \"" + text + "\"");
      }
      total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanos)));
    }
    long value = total.longValue();
    return Duration.ofNanos(negative ? -value : value);
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException("time: invalid duration \"" + text + "\"");
  }
}
