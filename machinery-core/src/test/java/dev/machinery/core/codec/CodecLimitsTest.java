package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.testapi.TestApi;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecLimitsTest {
  @Test
  void rejectsLimitsThatAreNotPositive() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CodecLimits.DEFAULTS.withMaxNestingDepth(0));
    assertEquals("maxNestingDepth must be positive, was 0", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CodecLimits.DEFAULTS.withMaxTokenCount(-1));
  }

  @Test
  void reportsTheConfiguredMaximumOfEachJsonLimit() {
    CodecLimits tight =
        CodecLimits.DEFAULTS
            .withMaxNestingDepth(5)
            .withMaxStringLength(10)
            .withMaxNumberLength(5)
            .withMaxNameLength(10)
            .withMaxTokenCount(40);
    Codec codec = CodecFactory.create(TestApi.scheme(), tight).json();
    String head = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",";
    List<Object[]> cases =
        List.of(
            new Object[] {"\"spec\":{\"extra\":{\"a\":[[[[1]]]]}}}", "maxNestingDepth", 5L},
            new Object[] {"\"metadata\":{\"name\":\"xxxxxxxxxxxx\"}}", "maxStringLength", 10L},
            new Object[] {"\"spec\":{\"replicas\":1234567}}", "maxNumberLength", 5L},
            new Object[] {"\"metadata\":{\"nnnnnnnnnnnn\":1}}", "maxNameLength", 10L},
            new Object[] {
              "\"spec\":{\"extra\":{\"l\":[" + "1,".repeat(40) + "1]}}}", "maxTokenCount", 40L
            });
    for (Object[] c : cases) {
      LimitExceededException e =
          assertThrows(LimitExceededException.class, () -> codec.decode(head + c[0]));
      assertEquals(c[1], e.limit());
      assertEquals(c[2], e.maximum(), (String) c[1]);
    }
  }

  @Test
  void checksNestingAgainAfterYamlAliasesAreExpanded() {
    Codec codec =
        CodecFactory.create(TestApi.scheme(), CodecLimits.DEFAULTS.withMaxNestingDepth(4)).yaml();
    // Each part is three levels deep; the alias puts a copy three levels further down.
    LimitExceededException e =
        assertThrows(
            LimitExceededException.class,
            () -> codec.decode("apiVersion: v1\nkind: Service\na: &deep [[x]]\nb: [[*deep]]\n"));
    assertEquals("maxNestingDepth", e.limit());
    assertEquals("the document nests deeper than 4 levels (after alias expansion)", e.getMessage());
  }
}
