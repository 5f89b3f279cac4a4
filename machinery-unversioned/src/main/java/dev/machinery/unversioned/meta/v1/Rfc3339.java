package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Times as Kubernetes writes them ({@code metav1.Time}): RFC 3339 in UTC to the second, such as
 * {@code 2024-05-01T12:00:00Z}. Reading accepts any RFC 3339 offset and fraction and converts to
 * UTC; writing truncates to the second, as Kubernetes does.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class Rfc3339 {
  private static final DateTimeFormatter WRITER =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private Rfc3339() {}

  /**
   * Formats an instant as Kubernetes does.
   *
   * @param instant the instant
   * @return the text, such as {@code 2024-05-01T12:00:00Z}
   */
  public static String format(Instant instant) {
    LocalDateTime time = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
    int year = time.getYear();
    if (year < 0 || year > 9999) {
      return WRITER.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
    char[] text = new char[20];
    digits(text, 0, year, 4);
    text[4] = '-';
    digits(text, 5, time.getMonthValue(), 2);
    text[7] = '-';
    digits(text, 8, time.getDayOfMonth(), 2);
    text[10] = 'T';
    digits(text, 11, time.getHour(), 2);
    text[13] = ':';
    digits(text, 14, time.getMinute(), 2);
    text[16] = ':';
    digits(text, 17, time.getSecond(), 2);
    text[19] = 'Z';
    return new String(text);
  }

  private static void digits(char[] text, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      text[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /**
   * Parses an RFC 3339 time.
   *
   * @param text the text, such as {@code 2024-05-01T14:00:00+02:00}
   * @return the instant
   * @throws DateTimeParseException if the text is not an RFC 3339 time
   */
  public static Instant parse(String text) {
    // Kubernetes writes times in one shape, 2024-05-01T14:00:00Z: read that one by hand (a
    // list of a thousand objects holds thousands of them) and leave every other text, valid or
    // not, to the JDK's parser, so what is accepted and what is refused, and how, is the JDK's.
    if (text.length() == 20 && text.charAt(19) == 'Z') {
      Instant canonical = canonical(text);
      if (canonical != null) {
        return canonical;
      }
    }
    return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
  }

  /** The instant of {@code uuuu-MM-ddTHH:mm:ssZ}, or null when the text is not a valid one. */
  private static Instant canonical(String text) {
    if (text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':') {
      return null;
    }
    int year = number(text, 0, 4);
    int month = number(text, 5, 2);
    int day = number(text, 8, 2);
    int hour = number(text, 11, 2);
    int minute = number(text, 14, 2);
    int second = number(text, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23) {
      return null;
    }
    if (minute < 0 || minute > 59 || second < 0 || second > 59) {
      return null;
    }
    if (day > java.time.Month.of(month).length(java.time.Year.isLeap(year))) {
      return null;
    }
    long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3_600L + minute * 60L + second);
  }

  /**
   * The decimal number of {@code width} ASCII digits at {@code at}, or -1 if one is not a digit.
   */
  private static int number(String text, int at, int width) {
    int value = 0;
    for (int i = at; i < at + width; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** Writes an {@link Instant} as {@link #format} does; for {@code @JsonSerialize}. */
  public static final class Serializer extends StdSerializer<Instant> {
    private static final long serialVersionUID = 1L;

    /** Creates the serializer; Jackson calls this. */
    public Serializer() {
      super(Instant.class);
    }

    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeString(format(value));
    }
  }

  /** Reads an {@link Instant} as {@link #parse} does; for {@code @JsonDeserialize}. */
  public static final class Deserializer extends StdDeserializer<Instant> {
    private static final long serialVersionUID = 1L;

    /** Creates the deserializer; Jackson calls this. */
    public Deserializer() {
      super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (Instant)
            ctxt.handleUnexpectedToken(
                Instant.class, p.currentToken(), p, "expected an RFC 3339 time string");
      }
      String text = p.getText();
      try {
        return parse(text);
      } catch (DateTimeException e) {
        return (Instant)
            ctxt.handleWeirdStringValue(
                Instant.class, text, "expected an RFC 3339 time such as 2024-05-01T12:00:00Z");
      }
    }
  }
}
