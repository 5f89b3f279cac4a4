package dev.machinery.unversioned.intstr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Rows of Kubernetes' util/intstr tests (TestParse, TestGetIntFromIntOrPercent and others). */
class IntOrStringTest {
  @Test
  void parseKeepsThe32BitRangeAsIntegers() {
    Object[][] rows = {
      {"0", 0},
      {"2147483647", Integer.MAX_VALUE},
      {"-2147483648", Integer.MIN_VALUE},
      {"2147483648", "2147483648"},
      {"-2147483649", "-2147483649"},
      {"9223372036854775807", "9223372036854775807"},
      {"-9223372036854775808", "-9223372036854775808"},
      {"9223372036854775808", "9223372036854775808"},
      {"-9223372036854775809", "-9223372036854775809"},
      {"http", "http"},
      {"٣", "٣"}, // digits beyond ASCII are not a number, as in Go
    };
    for (Object[] row : rows) {
      IntOrString parsed = IntOrString.parse((String) row[0]);
      if (row[1] instanceof Integer expected) {
        assertTrue(parsed.isInt(), (String) row[0]);
        assertEquals(expected, parsed.intValue());
      } else {
        assertFalse(parsed.isInt(), (String) row[0]);
        assertEquals(row[1], parsed.stringValue());
      }
    }
  }

  @Test
  void scalesPercentagesAsTheDeploymentControllerDoes() {
    assertEquals(123, IntOrString.ofInt(123).scaledValue(0, false));
    assertEquals(90, IntOrString.ofString("90%").scaledValue(100, true));
    assertEquals(86, IntOrString.ofString("90%").scaledValue(95, true));
    assertEquals(85, IntOrString.ofString("90%").scaledValue(95, false));
    assertEquals(3, IntOrString.ofString("25%").scaledValue(10, true));
    assertEquals(2, IntOrString.ofString("25%").scaledValue(10, false));
    assertEquals(40, IntOrString.ofString("40%").scaledValue(100, false));
    for (String bad : new String[] {"%", "90#", "#%", "90", "30%0", "a%", "a", "40%%", "200"}) {
      InvalidIntOrStringException e =
          assertThrows(
              InvalidIntOrStringException.class,
              () -> IntOrString.ofString(bad).scaledValue(100, true),
              bad);
      assertTrue(e.getMessage().startsWith("invalid value for IntOrString: "), e.getMessage());
      assertEquals(bad, e.value().stringValue());
    }
  }

  @Test
  void keepsItsFormAndPrintsAsKubernetes() {
    assertEquals(IntOrString.ofInt(93), IntOrString.parse("93"));
    assertFalse(IntOrString.ofString("93").equals(IntOrString.ofInt(93)));
    assertEquals(93, IntOrString.ofString("93").intValue());
    assertEquals(0, IntOrString.ofString("http").intValue());
    assertEquals("76", IntOrString.ofInt(76).toString());
    assertEquals("25%", IntOrString.ofString("25%").toString());
    assertEquals(76, IntOrString.ofInt(76).wireValue());
  }
}
