package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Function;

/**
 * The codecs' reading and writing of {@link Instant}, {@link OffsetDateTime} and {@link Duration}
 * in any class, with no annotation: RFC 3339 times as Go's {@code time.Time} writes them (nothing
 * lost) and Go's duration text, as {@link TimeFormats} defines them. A property's own
 * {@code @JsonSerialize}/{@code @JsonDeserialize} still wins. Stateless; thread-safe.
 */
final class JavaTimeCodecs {
  private JavaTimeCodecs() {}

  static void register(SimpleModule module) {
    module.addSerializer(
        Instant.class,
        new Writer<>(
            Instant.class, instant -> TimeFormats.formatNanos(instant.atOffset(ZoneOffset.UTC))));
    module.addDeserializer(
        Instant.class,
        new Reader<>(
            Instant.class,
            text -> TimeFormats.parse(text).toInstant(),
            "an RFC 3339 time such as 2024-05-01T12:00:00Z"));
    module.addSerializer(
        OffsetDateTime.class, new Writer<>(OffsetDateTime.class, TimeFormats::formatNanos));
    module.addDeserializer(
        OffsetDateTime.class,
        new Reader<>(
            OffsetDateTime.class,
            TimeFormats::parse,
            "an RFC 3339 time such as 2024-05-01T12:00:00+02:00"));
    module.addSerializer(Duration.class, new Writer<>(Duration.class, TimeFormats::formatDuration));
    module.addDeserializer(
        Duration.class,
        new Reader<>(
            Duration.class, TimeFormats::parseDuration, "a duration such as 1h30m or 500ms"));
  }

  /** Writes a value as a string. */
  private static final class Writer<T> extends StdSerializer<T> {
    private static final long serialVersionUID = 1L;
    private final transient Function<T, String> format;

    Writer(Class<T> type, Function<T, String> format) {
      super(type);
      this.format = format;
    }

    @Override
    public void serialize(T value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeString(format.apply(value));
    }
  }

  /** Reads a value from a string; anything else, or a bad string, fails with the field's path. */
  private static final class Reader<T> extends StdDeserializer<T> {
    private static final long serialVersionUID = 1L;
    private final transient Function<String, T> parse;
    private final String expected;

    Reader(Class<T> type, Function<String, T> parse, String expected) {
      super(type);
      this.parse = parse;
      this.expected = expected;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
      if (parser.currentToken() != JsonToken.VALUE_STRING) {
        return (T)
            context.handleUnexpectedToken(
                handledType(), parser.currentToken(), parser, "expected " + expected);
      }
      String text = parser.getText();
      try {
        return parse.apply(text);
      } catch (DateTimeException e) {
        return (T) context.handleWeirdStringValue(handledType(), text, "expected " + expected);
      }
    }
  }
}
