package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.catchall.Loose;
import dev.machinery.core.testapi.catchall.Open;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 11, item 6: a field that lands in a {@code @JsonAnySetter} catch-all is an unknown field:
 * STRICT fails, WARN reports it and keeps it, IGNORE keeps it; a class marked {@link
 * PreserveUnknownFields} holds such fields on purpose.
 */
class CatchAllFieldsTest {
  private static final CodecFactory CODECS =
      CodecFactory.create(
          Scheme.builder()
              .addKnownTypes(GroupVersion.of("example.dev", "v1"), Loose.class, Open.class)
              .build());
  private static final String TYPO =
      "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Loose\","
          + "\"spec\":{\"replicas\":2,\"replcias\":3,\"extra\":{\"a\":[1]}}}";

  enum Format {
    JSON,
    YAML
  }

  private static Codec codec(Format format) {
    return format == Format.JSON ? CODECS.json() : CODECS.yaml();
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void strictRejectsATypoThatACatchAllWouldTake(Format format) {
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> codec(format).decode(TYPO));
    assertEquals(
        "strict decoding error: unknown field \"spec.replcias\", unknown field \"spec.extra\"",
        e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void warnReportsAndKeepsIgnoreKeeps(Format format) {
    Decoded<Loose> warned =
        codec(format).withFieldValidation(FieldValidation.WARN).decode(TYPO, Loose.class);
    assertEquals(
        List.of("unknown field \"spec.replcias\"", "unknown field \"spec.extra\""),
        warned.warnings().stream().map(Object::toString).toList());
    Map<String, Object> kept = Map.of("replcias", 3, "extra", Map.of("a", List.of(1)));
    assertEquals(kept, warned.object().getSpec().getAdditionalProperties());
    Decoded<Loose> ignored =
        codec(format).withFieldValidation(FieldValidation.IGNORE).decode(TYPO, Loose.class);
    assertEquals(List.of(), ignored.warnings());
    assertEquals(kept, ignored.object().getSpec().getAdditionalProperties());
  }

  @Test
  void aClassMarkedPreserveUnknownFieldsHoldsThemOnPurpose() {
    Decoded<Open> open =
        CODECS
            .json()
            .decode("{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Open\",\"x\":1}", Open.class);
    assertEquals(Map.of("x", 1), open.object().getRest());
    assertEquals(List.of(), open.warnings());
  }
}
