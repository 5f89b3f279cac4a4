package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.machinery.core.codec.NullIsZero;
import dev.machinery.core.codec.TimeFormats;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A time to the microsecond, as {@code metav1.MicroTime} holds and writes it (events and leases):
 * RFC 3339 in UTC with six fraction digits, such as {@code 2024-05-01T12:00:00.250000Z}. A finer
 * fraction is dropped when the value is made.
 *
 * @param instant the time, truncated to the microsecond
 */
@NullIsZero
public record MicroTime(Instant instant) implements Comparable<MicroTime> {
  /**
   * Truncates the instant to the microsecond.
   *
   * @param instant the time
   */
  public MicroTime {
    instant = Objects.requireNonNull(instant, "instant").truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * The current time, to the microsecond.
   *
   * @return the time
   */
  public static MicroTime now() {
    return new MicroTime(Instant.now());
  }

  /**
   * Parses an RFC 3339 time.
   *
   * @param text the text
   * @return the time
   * @throws java.time.DateTimeException when the text is not an RFC 3339 time
   */
  @JsonCreator
  public static MicroTime parse(String text) {
    return new MicroTime(TimeFormats.parse(text).toInstant());
  }

  @Override
  public int compareTo(MicroTime other) {
    return instant.compareTo(other.instant);
  }

  /**
   * Returns the time as Kubernetes writes it.
   *
   * @return the text
   */
  @JsonValue
  @Override
  public String toString() {
    return TimeFormats.formatMicros(instant);
  }
}
