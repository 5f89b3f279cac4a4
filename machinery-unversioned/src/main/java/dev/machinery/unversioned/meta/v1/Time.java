package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.machinery.core.codec.NullIsZero;
import dev.machinery.core.codec.TimeFormats;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A time to the second, as {@code metav1.Time} holds and writes it: RFC 3339 in UTC, such as {@code
 * 2024-05-01T12:00:00Z}. A finer fraction is dropped when the value is made, so what is held is
 * what is written. Reading accepts any RFC 3339 offset and fraction.
 *
 * @param instant the time, truncated to the second
 */
@NullIsZero
public record Time(Instant instant) implements Comparable<Time> {
  /**
   * Truncates the instant to the second.
   *
   * @param instant the time
   */
  public Time {
    instant = Objects.requireNonNull(instant, "instant").truncatedTo(ChronoUnit.SECONDS);
  }

  /**
   * The current time, to the second.
   *
   * @return the time
   */
  public static Time now() {
    return new Time(Instant.now());
  }

  /**
   * Parses an RFC 3339 time.
   *
   * @param text the text
   * @return the time
   * @throws java.time.DateTimeException when the text is not an RFC 3339 time
   */
  @JsonCreator
  public static Time parse(String text) {
    return new Time(TimeFormats.parse(text).toInstant());
  }

  @Override
  public int compareTo(Time other) {
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
    return TimeFormats.formatSeconds(instant);
  }
}
