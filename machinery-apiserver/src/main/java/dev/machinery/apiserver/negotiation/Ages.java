package dev.machinery.apiserver.negotiation;

import java.time.Duration;
import java.time.Instant;

/**
 * Ages as kube-apiserver's tables show them (Go's {@code duration.HumanDuration}): {@code 45s},
 * {@code 3m20s}, {@code 5h12m}, {@code 3d4h}, {@code 120d}, {@code 3y200d}; for the {@code Age}
 * columns of a {@link TableConvertor}. Stateless; thread-safe.
 */
public final class Ages {
  private Ages() {}

  /**
   * Returns the age of something created at a time, as of now.
   *
   * @param time when it was created, or {@code null}
   * @return the age, or {@code <unknown>} without a time
   */
  public static String since(Instant time) {
    if (time == null) {
      return "<unknown>";
    }
    return human(Duration.between(time, Instant.now()));
  }

  /**
   * Returns a duration as kube-apiserver's tables write it; a negative one is {@code 0s}.
   *
   * @param duration the duration
   * @return the text
   */
  public static String human(Duration duration) {
    long seconds = duration.getSeconds();
    if (seconds < 0) {
      return "0s";
    }
    if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    }
    if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = minutes / 60;
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    }
    if (hours < 48) {
      return hours + "h";
    }
    if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    }
    if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    }
    if (hours < 24 * 365 * 8) {
      long d = (hours / 24) % 365;
      return d == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + d + "d";
    }
    return hours / 24 / 365 + "y";
  }
}
