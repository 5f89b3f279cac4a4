package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.machinery.core.codec.TimeFormats;
import java.util.Objects;

/**
 * A duration as {@code metav1.Duration} writes it: Go's duration text, such as {@code 1h30m0s},
 * {@code 500ms} or {@code 0s}. (A plain {@code java.time.Duration} field is written the same way.)
 *
 * @param value the duration
 */
public record Duration(java.time.Duration value) implements Comparable<Duration> {
  /**
   * Checks the value.
   *
   * @param value the duration
   */
  public Duration {
    Objects.requireNonNull(value, "value");
  }

  /**
   * Parses Go's duration text.
   *
   * @param text the text, such as {@code 1h30m}
   * @return the duration
   * @throws java.time.DateTimeException when the text is not a duration
   */
  @JsonCreator
  public static Duration parse(String text) {
    return new Duration(TimeFormats.parseDuration(text));
  }

  @Override
  public int compareTo(Duration other) {
    return value.compareTo(other.value);
  }

  /**
   * Returns the duration as Kubernetes writes it.
   *
   * @return the text
   */
  @JsonValue
  @Override
  public String toString() {
    return TimeFormats.formatDuration(value);
  }
}
