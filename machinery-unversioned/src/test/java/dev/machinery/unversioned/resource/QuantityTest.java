package dev.machinery.unversioned.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.resource.Quantity.Format;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuantityTest {
  private static final String[] SIGNS = {"", "-", "+"};

  @Test
  void parsesKubernetesTableWithEverySign() {
    List<String> wrong = new ArrayList<>();
    for (String[] row : QuantityCases.PARSE) {
      for (String sign : SIGNS) {
        String input = sign + row[0];
        BigDecimal expected = new BigDecimal(row[1]);
        if (sign.equals("-")) {
          expected = expected.negate();
        }
        Quantity parsed = Quantity.parse(input);
        if (parsed.amount().compareTo(expected) != 0 || parsed.format() != Format.valueOf(row[2])) {
          wrong.add(
              input
                  + " → "
                  + parsed.amount()
                  + " "
                  + parsed.format()
                  + ", want "
                  + expected
                  + " "
                  + row[2]);
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void refusesWhatKubernetesRefuses() {
    for (String input : QuantityCases.INVALID) {
      QuantityFormatException e =
          assertThrows(QuantityFormatException.class, () -> Quantity.parse(input), input);
      assertEquals(input, e.text());
    }
    assertThrows(QuantityFormatException.class, () -> Quantity.parse(""));
  }

  @Test
  void writesTheCanonicalFormAndReadsItBack() {
    List<String> wrong = new ArrayList<>();
    for (String[] row : QuantityCases.STRING) {
      Quantity quantity = Quantity.of(new BigDecimal(row[0]), Format.valueOf(row[1]));
      check(wrong, row[0] + " " + row[1], quantity.toString(), row[2]);
      check(wrong, "parse " + row[2], Quantity.parse(row[2]).toString(), row[2]);
      if (!row[3].isEmpty()) {
        check(wrong, "parse " + row[3], Quantity.parse(row[3]).toString(), row[2]);
      }
      if (!quantity.isZero()) {
        check(wrong, "-" + row[0], quantity.negate().toString(), "-" + row[2]);
      }
    }
    for (String[] row : QuantityCases.EMIT) {
      check(wrong, row[0], Quantity.parse(row[0]).toString(), row[1]);
      check(wrong, "-" + row[0], Quantity.parse("-" + row[0]).toString(), "-" + row[1]);
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void keepsExactValuesAroundTheLongBounds() {
    List<String> wrong = new ArrayList<>();
    for (String[] row : QuantityCases.BOUNDS) {
      Quantity parsed = Quantity.parse(row[0]);
      if (parsed.amount().compareTo(new BigDecimal(row[1])) != 0) {
        wrong.add(row[0] + " → " + parsed.amount() + ", want " + row[1]);
      }
      check(wrong, row[0], parsed.toString(), row[2]);
    }
    assertEquals(List.of(), wrong);
  }

  private static void check(List<String> wrong, String what, String got, String want) {
    if (!got.equals(want)) {
      wrong.add(what + " → " + got + ", want " + want);
    }
  }

  @Test
  void addingOrSubtractingZeroKeepsTheSuffix() {
    for (String text : List.of("100m", "1Gi")) {
      Quantity value = Quantity.parse(text);
      assertEquals(text, value.add(Quantity.ZERO).toString());
      assertEquals(text, Quantity.ZERO.add(value).toString());
      assertEquals(text, value.subtract(Quantity.ZERO).toString());
      assertEquals(value.negate().toString(), Quantity.ZERO.subtract(value).toString());
    }
    assertEquals("0", Quantity.parse("1000m").subtract(Quantity.parse("1")).toString());
  }

  @Test
  void scaledValuesRoundAwayFromZero() {
    // TestScaledValue: 1 in units of 10^from, read in units of 10^to.
    int[][] rows = {
      {-9, -9, 1},
      {-9, -6, 1},
      {-9, -3, 1},
      {-9, 0, 1},
      {-6, -9, 1000},
      {-6, -6, 1},
      {-6, -3, 1},
      {-6, 0, 1},
      {-3, -9, 1000000},
      {-3, -6, 1000},
      {-3, -3, 1},
      {-3, 0, 1},
      {0, -9, 1000000000},
      {0, -6, 1000000},
      {0, -3, 1000},
      {0, 0, 1},
      {2, -2, 10000},
    };
    for (int[] row : rows) {
      assertEquals(row[2], Quantity.ofScaled(1, row[0]).scaledValue(row[1]), row[0] + "→" + row[1]);
    }
    assertEquals(2, Quantity.parse("1500m").value());
    assertEquals(-10, Quantity.parse("-9.01").value());
    assertEquals(1000, Quantity.parse("1").milliValue());
    assertEquals(1, Quantity.parse("1n").milliValue());
    assertEquals(1024L * 1024 * 1024, Quantity.parse("1Gi").value());
    ArithmeticException tooBig =
        assertThrows(ArithmeticException.class, () -> Quantity.parse("100E").value());
    assertTrue(tooBig.getMessage().contains("100E"), tooBig.getMessage());
    assertThrows(ArithmeticException.class, () -> Quantity.parse("1e1000").milliValue());
  }

  @Test
  void equalityIsValueAndFormatComparisonIsValue() {
    assertEquals(Quantity.parse("1000m"), Quantity.parse("1"));
    assertEquals(Quantity.parse("1000m").hashCode(), Quantity.parse("1").hashCode());
    assertNotEquals(Quantity.parse("1Ki"), Quantity.parse("1024"));
    assertTrue(Quantity.parse("1Ki").isSemanticallyEqual(Quantity.parse("1024")));
    assertEquals(0, Quantity.parse("1Ki").compareTo(Quantity.parse("1.024k")));
    assertTrue(Quantity.parse("100m").compareTo(Quantity.parse("1")) < 0);
    assertEquals("1500m", Quantity.parse("500m").multiply(3).toString());
  }

  @Test
  void boundsHoldAgainstHostileText() {
    String digits = "9".repeat(10_000);
    QuantityFormatException e =
        assertThrows(QuantityFormatException.class, () -> Quantity.parse(digits));
    assertTrue(e.getMessage().contains("10000 characters"), e.getMessage());
    assertThrows(QuantityFormatException.class, () -> Quantity.parse("1e999999999"));
    assertThrows(QuantityFormatException.class, () -> Quantity.parse("1e-1001"));
    assertEquals(
        "10e999", Quantity.parse("1e1000").toString()); // exponents in threes, as in Kubernetes
    assertEquals("1e-9", Quantity.parse("1e-1000").toString());
    assertEquals("1n", Quantity.parse("0.000000000000000000001").toString());
  }

  /**
   * A deliberate difference: Kubernetes has no decimal SI suffix beyond E and writes 10^21 in
   * decimal SI as "1", losing the exponent; here it stays a number of E.
   */
  @Test
  void decimalAmountsBeyondExaStayInExa() {
    assertEquals("1000E", Quantity.parse("1000E").toString());
    assertEquals("1000E", Quantity.parse("1000000P").toString());
  }
}
