package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ages as Go's {@code duration.HumanDuration} writes them, at each of its boundaries. */
class AgesTest {
  @ParameterizedTest(name = "{0} s is {1}")
  @CsvSource({
    "0, 0s",
    "119, 119s",
    "120, 2m",
    "200, 3m20s",
    "600, 10m",
    "10740, 179m",
    "10800, 3h",
    "18720, 5h12m",
    "169200, 47h",
    "172800, 2d",
    "273600, 3d4h",
    "691200, 8d",
    "10368000, 120d",
    "63072000, 2y",
    "111888000, 3y200d",
    "283824000, 9y"
  })
  void writesDurationsAsKubernetesDoes(long seconds, String expected) {
    assertEquals(expected, Ages.human(Duration.ofSeconds(seconds)));
  }
}
