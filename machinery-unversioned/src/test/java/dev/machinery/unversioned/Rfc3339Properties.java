package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.unversioned.meta.v1.Rfc3339;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
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
}
