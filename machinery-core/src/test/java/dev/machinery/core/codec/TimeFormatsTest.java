package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Go's own duration facts (time.Duration.String and time.ParseDuration tests) and RFC 3339. */
class TimeFormatsTest {
  @Test
  void durationsPrintAsGoPrintsThem() {
    Object[][] rows = {
      {"0s", 0L},
      {"1ns", 1L},
      {"1.1µs", 1100L},
      {"2.2ms", 2_200_000L},
      {"3.3s", 3_300_000_000L},
      {"4m5s", 245_000_000_000L},
      {"4m5.001s", 245_001_000_000L},
      {"5h6m7.001s", 18_367_001_000_000L},
      {"8m0.000000001s", 480_000_000_001L},
      {"2562047h47m16.854775807s", Long.MAX_VALUE},
      {"-2562047h47m16.854775808s", Long.MIN_VALUE},
      {"1h0m0s", 3_600_000_000_000L},
    };
    for (Object[] row : rows) {
      Duration duration = Duration.ofNanos((Long) row[1]);
      assertEquals(row[0], TimeFormats.formatDuration(duration));
      assertEquals(duration, TimeFormats.parseDuration((String) row[0]), (String) row[0]);
    }
  }

  @Test
  void durationsParseAsGoParsesThem() {
    Object[][] rows = {
      {"0", 0L},
      {"5s", 5_000_000_000L},
      {"30s", 30_000_000_000L},
      {"1478s", 1_478_000_000_000L},
      {"-5s", -5_000_000_000L},
      {"+5s", 5_000_000_000L},
      {"-0", 0L},
      {"+0", 0L},
      {"5.0s", 5_000_000_000L},
      {"5.6s", 5_600_000_000L},
      {"5.s", 5_000_000_000L},
      {".5s", 500_000_000L},
      {"1.004s", 1_004_000_000L},
      {"100.00100s", 100_001_000_000L},
      {"10ns", 10L},
      {"11us", 11_000L},
      {"12µs", 12_000L},
      {"12μs", 12_000L},
      {"13ms", 13_000_000L},
      {"15m", 900_000_000_000L},
      {"16h", 57_600_000_000_000L},
      {"3h30m", 12_600_000_000_000L},
      {"10.5s4m", 250_500_000_000L},
      {"-2m3.4s", -123_400_000_000L},
      {"1h2m3s4ms5us6ns", 3_723_004_005_006L},
      {"39h9m14.425s", 140_954_425_000_000L},
      {"52763797000ns", 52_763_797_000L},
      {"9223372036854775807ns", Long.MAX_VALUE},
    };
    for (Object[] row : rows) {
      assertEquals(
          Duration.ofNanos((Long) row[1]),
          TimeFormats.parseDuration((String) row[0]),
          (String) row[0]);
    }
    for (String bad :
        new String[] {
          "", "3", "-", "s", ".", "-.", ".s", "+.s", "3000000h", "1d", "9223372036854775808ns"
        }) {
      assertThrows(DateTimeException.class, () -> TimeFormats.parseDuration(bad), bad);
    }
    assertThrows(DateTimeException.class, () -> TimeFormats.parseDuration("1".repeat(1000) + "s"));
  }

  @Test
  void timesAsKubernetesWritesThem() {
    Instant instant = Instant.parse("2024-05-01T12:00:00.123456789Z");
    assertEquals("2024-05-01T12:00:00Z", TimeFormats.formatSeconds(instant));
    assertEquals("2024-05-01T12:00:00.123456Z", TimeFormats.formatMicros(instant));
    assertEquals(
        "2024-05-01T12:00:00.123456789Z",
        TimeFormats.formatNanos(instant.atOffset(ZoneOffset.UTC)));
    assertEquals(
        "2024-05-01T14:00:00.5+02:00",
        TimeFormats.formatNanos(OffsetDateTime.parse("2024-05-01T14:00:00.500+02:00")));
    assertEquals(
        "2024-05-01T12:00:00Z",
        TimeFormats.formatNanos(Instant.parse("2024-05-01T12:00:00Z").atOffset(ZoneOffset.UTC)));
    assertEquals(instant, TimeFormats.parse("2024-05-01T14:00:00.123456789+02:00").toInstant());
  }
}
