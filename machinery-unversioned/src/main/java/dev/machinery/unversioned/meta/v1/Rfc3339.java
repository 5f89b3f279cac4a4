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
    return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
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
