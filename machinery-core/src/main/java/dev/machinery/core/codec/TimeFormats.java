package dev.machinery.core.codec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Times and durations as Kubernetes writes them: RFC 3339 to the second ({@code metav1.Time}), to
 * the microsecond ({@code metav1.MicroTime}) and with the nanoseconds that are there (Go's {@code
 * time.Time}), and Go's duration text ({@code 1h2m3.5s}, {@code metav1.Duration}). The codecs read
 * and write {@link Instant}, {@link OffsetDateTime} and {@link Duration} fields of any class this
 * way with no annotation; the {@code meta.k8s.io/v1} value types use the same rules.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class TimeFormats {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX", Locale.ROOT);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSXXX", Locale.ROOT);
  private static final DateTimeFormatter NANOS =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .appendPattern("XXX")
          .toFormatter(Locale.ROOT);

  /** The longest text {@link #parseDuration} reads. */
  private static final int MAX_DURATION_LENGTH = 100;

  private TimeFormats() {}

  /**
   * Formats an instant as {@code metav1.Time} does: UTC, to the second (a fraction is dropped).
   *
   * @param instant the instant
   * @return the text, such as {@code 2024-05-01T12:00:00Z}
   */
  public static String formatSeconds(Instant instant) {
    return SECONDS.format(instant.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
  }

  /**
   * Formats an instant as {@code metav1.MicroTime} does: UTC, always six fraction digits (a finer
   * fraction is dropped).
   *
   * @param instant the instant
   * @return the text, such as {@code 2024-05-01T12:00:00.000000Z}
   */
  public static String formatMicros(Instant instant) {
    return MICROS.format(instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
  }

  /**
   * Formats a time as Go's {@code time.Time} does in JSON (RFC 3339 with nanoseconds): the offset
   * kept, the fraction written only as far as it is not zero. Nothing is lost.
   *
   * @param time the time
   * @return the text, such as {@code 2024-05-01T12:00:00.5+02:00}
   */
  public static String formatNanos(OffsetDateTime time) {
    return NANOS.format(time);
  }

  /**
   * Parses any RFC 3339 time, with any offset and fraction.
   *
   * @param text the text
   * @return the time with its offset
   * @throws DateTimeException when the text is not an RFC 3339 time
   */
  public static OffsetDateTime parse(String text) {
    return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  /**
   * Formats a duration as Go's {@code time.Duration.String()}: {@code 1h2m3.5s}, {@code 1.5ms},
   * {@code 300µs}, {@code 0s}.
   *
   * @param duration the duration
   * @return the text
   */
  public static String formatDuration(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    boolean negative = duration.isNegative();
    Duration magnitude = duration.abs();
    StringBuilder text = new StringBuilder();
    if (negative) {
      text.append('-');
    }
    long seconds = magnitude.getSeconds();
    int nanos = magnitude.getNano();
    if (seconds == 0) {
      // Under a second: the largest of ns, µs, ms that keeps a whole part.
      if (nanos < 1_000) {
        return text.append(nanos).append("ns").toString();
      }
      if (nanos < 1_000_000) {
        return text.append(fraction(nanos, 3)).append("µs").toString();
      }
      return text.append(fraction(nanos, 6)).append("ms").toString();
    }
    long hours = seconds / 3600;
    long minutes = seconds % 3600 / 60;
    long rest = seconds % 60;
    if (hours > 0) {
      text.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      text.append(minutes).append('m');
    }
    text.append(fraction(rest * 1_000_000_000L + nanos, 9)).append('s');
    return text.toString();
  }

  /** A number of units written with {@code digits} of them as a fraction, zeros trimmed. */
  private static String fraction(long value, int digits) {
    return new BigDecimal(BigInteger.valueOf(value), digits).stripTrailingZeros().toPlainString();
  }

  /**
   * Parses Go's duration text ({@code time.ParseDuration}): a sign, then numbers with units {@code
   * ns}, {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m}, {@code h}, such as {@code
   * 1h30m}, {@code -1.5s}, {@code 300ms}; {@code 0} alone is zero.
   *
   * @param text the text
   * @return the duration
   * @throws DateTimeException naming the text when it is not a duration
   */
  public static Duration parseDuration(String text) {
    if (text.length() > MAX_DURATION_LENGTH) {
      throw new DateTimeException(
          "time: invalid duration: longer than " + MAX_DURATION_LENGTH + " characters");
    }
    String quoted = "\"" + text + "\"";
    int at = 0;
    boolean negative = false;
    if (at < text.length() && (text.charAt(at) == '-' || text.charAt(at) == '+')) {
      negative = text.charAt(at) == '-';
      at++;
    }
    if (text.substring(at).equals("0")) {
      return Duration.ZERO;
    }
    if (at == text.length()) {
      throw new DateTimeException("time: invalid duration " + quoted);
    }
    BigDecimal total = BigDecimal.ZERO;
    while (at < text.length()) {
      int start = at;
      while (at < text.length() && (Character.isDigit(text.charAt(at)) && text.charAt(at) < 128)) {
        at++;
      }
      int wholeEnd = at;
      int fractionStart = at;
      if (at < text.length() && text.charAt(at) == '.') {
        at++;
        fractionStart = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
          at++;
        }
      }
      if (wholeEnd == start && at == fractionStart) {
        throw new DateTimeException("time: invalid duration " + quoted);
      }
      String number = text.substring(start, at);
      int unitStart = at;
      while (at < text.length()
          && text.charAt(at) != '.'
          && !(text.charAt(at) >= '0' && text.charAt(at) <= '9')) {
        at++;
      }
      String unit = text.substring(unitStart, at);
      long nanosPerUnit =
          switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "" -> throw new DateTimeException("time: missing unit in duration " + quoted);
            default ->
                throw new DateTimeException(
                    "time: unknown unit \"" + unit + "\" in duration " + quoted);
          };
      BigDecimal value =
          new BigDecimal(
              number.endsWith(".") ? number + "0" : number.startsWith(".") ? "0" + number : number);
      total = total.add(value.multiply(BigDecimal.valueOf(nanosPerUnit)));
    }
    BigInteger nanos = total.setScale(0, java.math.RoundingMode.DOWN).toBigIntegerExact();
    if (negative) {
      nanos = nanos.negate();
    }
    if (nanos.bitLength() > 63) {
      throw new DateTimeException("time: invalid duration " + quoted);
    }
    return Duration.ofNanos(nanos.longValueExact());
  }
}
