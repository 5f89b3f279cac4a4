package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ObjectJson#goNumbers()}: doubles and floats of untyped trees written as Go's {@code
 * encoding/json} writes a float64, whole numbers below 1e21 without a fraction.
 */
class GoNumbersTest {
  private static final ObjectMapper MAPPER =
      ObjectJson.mapperBuilder().addModule(ObjectJson.goNumbers()).build();

  @ParameterizedTest
  @CsvSource({
    "2.0, 2",
    "-3.0, -3",
    "0.0, 0",
    "1.5, 1.5",
    "0.1, 0.1",
    "1e20, 100000000000000000000",
    "1e21, 1.0E21",
    "123456789012.0, 123456789012"
  })
  void aDoubleIsWrittenAsGoWritesAFloat64(double value, String written) throws Exception {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("n", value);
    assertEquals("{\"n\":" + written + "}", MAPPER.writeValueAsString(tree));
  }

  @ParameterizedTest
  @CsvSource({"NaN", "Infinity", "-Infinity"})
  void whatJsonCannotHoldIsRefusedNamingTheValue(double value) {
    JsonMappingException refused =
        assertThrows(
            JsonMappingException.class, () -> MAPPER.writeValueAsString(Map.of("n", value)));
    assertTrue(refused.getMessage().contains("cannot encode " + value), refused.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"2.0, 2", "0.5, 0.5"})
  void aFloatIsWrittenInItsOwnShortestDigits(float value, String written) throws Exception {
    assertEquals("{\"n\":" + written + "}", MAPPER.writeValueAsString(Map.of("n", value)));
  }
}
