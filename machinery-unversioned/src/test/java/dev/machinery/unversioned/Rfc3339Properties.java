package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.unversioned.meta.v1.Rfc3339;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast formatter writes what java.time's formatter writes, and parsing gives it back. */
class Rfc3339Properties {
  private static final DateTimeFormatter REFERENCE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  @Test
  void formatsAsTheReferenceAndParsesBack() {
    Random random = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      long seconds =
          random.nextInt(4) == 0
              ? random.nextLong() % 253_402_300_799L
              : random.nextInt(Integer.MAX_VALUE);
      Instant instant = Instant.ofEpochSecond(Math.abs(seconds), random.nextInt(1_000_000_000));
      String text = Rfc3339.format(instant);
      assertEquals(
          REFERENCE.format(instant.truncatedTo(ChronoUnit.SECONDS)), text, instant.toString());
      assertEquals(instant.truncatedTo(ChronoUnit.SECONDS), Rfc3339.parse(text));
    }
    assertEquals("1970-01-01T00:00:00Z", Rfc3339.format(Instant.EPOCH));
    assertEquals("9999-12-31T23:59:59Z", Rfc3339.format(Instant.parse("9999-12-31T23:59:59.9Z")));
  }

  /**
   * Texts of the canonical shape, valid or not: the library reads them as the JDK's parser does.
   */
  @Test
  void parsesTheCanonicalShapeAsTheJdkParser() {
    List<String> texts =
        new ArrayList<>(
            List.of(
                "2024-02-29T12:00:00Z",
                "2023-02-29T12:00:00Z",
                "2100-02-29T00:00:00Z",
                "2000-02-29T23:59:59Z",
                "0000-01-01T00:00:00Z",
                "2024-04-31T00:00:00Z",
                "2024-13-01T00:00:00Z",
                "2024-00-10T00:00:00Z",
                "2024-01-00T00:00:00Z",
                "2024-01-01T24:00:00Z",
                "2024-01-01T23:60:00Z",
                "2024-01-01T23:59:60Z",
                "2024-01-01t10:00:00Z",
                "2024-01-01T10:00:00z",
                "2024-01-01 10:00:00Z",
                "2024/01/01T10:00:00Z",
                "20x4-01-01T10:00:00Z",
                "2024-01-01T10:0a:00Z",
                "+024-01-01T10:00:00Z",
                "2024-01-01T10:00:00+00:00",
                "2024-01-01T10:00:00.5Z"));
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      texts.add(
          String.format(
              Locale.ROOT,
              "%04d-%02d-%02dT%02d:%02d:%02dZ",
              random.nextInt(10_000),
              random.nextInt(14),
              random.nextInt(33),
              random.nextInt(25),
              random.nextInt(61),
              random.nextInt(61)));
    }
    for (String text : texts) {
      Instant expected;
      try {
        expected = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
      } catch (DateTimeParseException refused) {
        DateTimeParseException thrown =
            assertThrows(DateTimeParseException.class, () -> Rfc3339.parse(text), text);
        assertEquals(refused.getMessage(), thrown.getMessage(), text);
        continue;
      }
      assertEquals(expected, Rfc3339.parse(text), text);
    }
  }
}
