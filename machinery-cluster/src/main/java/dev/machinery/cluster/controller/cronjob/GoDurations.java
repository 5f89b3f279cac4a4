package dev.machinery.cluster.controller.cronjob;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.ParseDuration} for {@code @every}: a sequence of decimal numbers with units
 * {@code ns}, {@code us} ({@code µs}), {@code ms}, {@code s}, {@code m}, {@code h}, such as {@code
 * 1h30m} or {@code 1.5h}.
 *
 * <p>Stateless; thread-safe.
 */
final class GoDurations {
  private static final Pattern PART =
      Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)");

  private GoDurations() {}

  /** Returns the duration, or null when the text is not one. */
  static Duration parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    String rest = text;
    boolean negative = false;
    if (rest.startsWith("-") || rest.startsWith("+")) {
      negative = rest.startsWith("-");
      rest = rest.substring(1);
    }
    if (rest.equals("0")) {
      return Duration.ZERO;
    }
    Matcher matcher = PART.matcher(rest);
    int at = 0;
    double nanos = 0;
    while (at < rest.length()) {
      if (!matcher.find(at)
          || matcher.start() != at
          || matcher.group(1).isEmpty()
          || matcher.group(1).equals(".")) {
        return null;
      }
      double value = Double.parseDouble(matcher.group(1));
      double unit =
          switch (matcher.group(2)) {
            case "ns" -> 1;
            case "us", "µs", "μs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
          };
      nanos += value * unit;
      at = matcher.end();
    }
    Duration duration = Duration.ofNanos(Math.round(nanos));
    return negative ? duration.negated() : duration;
  }
}
