package dev.machinery.unversioned.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.resource.Quantity.Format;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

  private static final String MOST_POSITIVE = "9223372036854775807";
  private static final String MOST_NEGATIVE = "-9223372036854775808";

  /** Go's {@code decQuantity(m, e, format)}: exactly m&times;10<sup>e</sup>. */
  private static Quantity dec(String mantissa, int exponent, Format format) {
    return Quantity.of(new BigDecimal(mantissa).scaleByPowerOfTen(exponent), format);
  }

  /**
   * TestQuantityCmpInt64AndDec: {@code intQuantity(m, scale)} pairs and how the first compares with
   * the second, exactly; values below the nano unit are not rounded.
   */
  @Test
  void comparesExactValuesAsKubernetes() {
    long e18 = 1_000_000L * 1_000_000L * 1_000_000L;
    long[][] rows = {
      {901, -2, 901, -2, 0},
      {90, -1, 901, -2, -1},
      {901, -2, 900, -2, 1},
      {0, 0, 0, 0, 0},
      {0, 1, 0, -1, 0},
      {0, -1, 0, 1, 0},
      {800, -3, 1, 0, -1},
      {800, -3, 79, -2, 1},
      {Long.MAX_VALUE, 0, 1, -1, 1},
      {Long.MAX_VALUE, 1, 1, 0, 1},
      {Long.MAX_VALUE, 1, 1, 1, 1},
      {Long.MAX_VALUE, 1, 0, 1, 1},
      {Long.MAX_VALUE, -16, 1, 3, -1},
      {Long.MIN_VALUE, 0, 0, 0, -1},
      {Long.MIN_VALUE, -18, -1, 0, -1},
      {Long.MIN_VALUE, -19, -1, 0, 1},
      {e18, -17, 1, 1, 0},
      {e18, -17, -10, 0, 1},
      {-e18, -17, -10, 0, 0},
      {e18, -17, 1, 0, 1},
      {e18 + 1, -17, 1, 1, 1},
      {e18 - 1, -17, 1, 1, -1},
    };
    List<String> wrong = new ArrayList<>();
    for (long[] row : rows) {
      Quantity a = Quantity.ofScaled(row[0], (int) row[1]);
      Quantity b = Quantity.ofScaled(row[2], (int) row[3]);
      String what = row[0] + "e" + row[1] + " vs " + row[2] + "e" + row[3];
      if (Integer.signum(a.compareTo(b)) != row[4] || Integer.signum(b.compareTo(a)) != -row[4]) {
        wrong.add(what + ": " + a.compareTo(b) + ", want " + row[4]);
      }
      if (a.isSemanticallyEqual(b) != (row[4] == 0)) {
        wrong.add(what + ": semantically equal " + a.isSemanticallyEqual(b));
      }
    }
    // TestQuantityCmp
    String[][] parsed = {
      {"0", "0", "0"}, {"100m", "50m", "1"}, {"50m", "100m", "-1"}, {"10000T", "100Gi", "1"}
    };
    for (String[] row : parsed) {
      int cmp = Quantity.parse(row[0]).compareTo(Quantity.parse(row[1]));
      if (Integer.signum(cmp) != Integer.parseInt(row[2])) {
        wrong.add(row[0] + " vs " + row[1] + ": " + cmp + ", want " + row[2]);
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void ofKeepsTheExactValueAndParseRoundsToNano() {
    BigDecimal exact = new BigDecimal("9.99999999999999999");
    Quantity almostTen = Quantity.of(exact, Format.DECIMAL_SI);
    Quantity ten = Quantity.of(10, Format.DECIMAL_SI);
    assertEquals(exact, almostTen.amount());
    assertEquals(-1, almostTen.compareTo(ten));
    assertFalse(almostTen.isSemanticallyEqual(ten));
    assertNotEquals(ten, almostTen);
    // Decimal SI has no unit below n: the text rounds up to it, as parsing that value would.
    assertEquals("10", almostTen.toString());
    assertEquals("9999999999999999990e-18", Quantity.of(exact, Format.DECIMAL_EXPONENT).toString());
    assertEquals("-10", almostTen.negate().toString());
    // ParseQuantity rounds to the nano unit, away from zero.
    assertEquals(ten, Quantity.parse("9.99999999999999999"));
    assertEquals(0, Quantity.parse("9.99999999999999999").compareTo(ten));
    assertEquals(new BigDecimal("1E-12"), Quantity.ofScaled(1, -12).amount());
    assertEquals("1n", Quantity.ofScaled(1, -12).toString());
    assertEquals("1e-12", Quantity.of(new BigDecimal("1e-12"), Format.DECIMAL_EXPONENT).toString());
    // NewDecimalQuantity keeps the format and does not cap binary amounts; parsing does.
    Quantity half = Quantity.of(new BigDecimal("0.5"), Format.BINARY_SI);
    assertEquals(Format.BINARY_SI, half.format());
    assertEquals("500m", half.toString());
    assertEquals(Quantity.parse("500m"), half);
    Quantity huge = Quantity.of(BigDecimal.valueOf(2).pow(64), Format.BINARY_SI);
    assertEquals(BigDecimal.valueOf(2).pow(64), huge.amount());
    assertEquals("16Ei", huge.toString());
    assertEquals(MOST_POSITIVE, Quantity.parse("16Ei").toString());
  }

  /** TestAdd and TestSub: value, format; the result's value and format. */
  @Test
  void addsAndSubtractsExactly() {
    Quantity zero = Quantity.of(0, Format.DECIMAL_SI);
    Object[][] adds = {
      {dec("10", 0, Format.DECIMAL_SI), dec("1", 1, Format.DECIMAL_SI), "20", Format.DECIMAL_SI},
      {dec("10", 0, Format.DECIMAL_SI), dec("1", 0, Format.BINARY_SI), "11", Format.DECIMAL_SI},
      {dec("10", 0, Format.BINARY_SI), dec("1", 0, Format.DECIMAL_SI), "11", Format.BINARY_SI},
      {zero, dec("50", 0, Format.DECIMAL_SI), "50", Format.DECIMAL_SI},
      {dec("50", 0, Format.DECIMAL_SI), zero, "50", Format.DECIMAL_SI},
      {zero, zero, "0", Format.DECIMAL_SI},
      {Quantity.ofScaled(1, -12), Quantity.ofScaled(2, -12), "3e-12", Format.DECIMAL_SI},
    };
    Object[][] subtracts = {
      {dec("10", 0, Format.DECIMAL_SI), dec("1", 1, Format.DECIMAL_SI), "0", Format.DECIMAL_SI},
      {dec("10", 0, Format.DECIMAL_SI), dec("1", 0, Format.BINARY_SI), "9", Format.DECIMAL_SI},
      {dec("10", 0, Format.BINARY_SI), dec("1", 0, Format.DECIMAL_SI), "9", Format.BINARY_SI},
      {zero, dec("50", 0, Format.DECIMAL_SI), "-50", Format.DECIMAL_SI},
      {dec("50", 0, Format.DECIMAL_SI), zero, "50", Format.DECIMAL_SI},
      {zero, zero, "0", Format.DECIMAL_SI},
      {Quantity.ofScaled(3, -12), Quantity.ofScaled(1, -12), "2e-12", Format.DECIMAL_SI},
    };
    List<String> wrong = new ArrayList<>();
    for (Object[] row : adds) {
      checkExact(wrong, row[0] + " + " + row[1], ((Quantity) row[0]).add((Quantity) row[1]), row);
    }
    for (Object[] row : subtracts) {
      checkExact(
          wrong, row[0] + " - " + row[1], ((Quantity) row[0]).subtract((Quantity) row[1]), row);
    }
    assertEquals(List.of(), wrong);
  }

  private static void checkExact(List<String> wrong, String what, Quantity got, Object[] row) {
    if (got.amount().compareTo(new BigDecimal((String) row[2])) != 0 || got.format() != row[3]) {
      wrong.add(
          what + " → " + got.amount() + " " + got.format() + ", want " + row[2] + " " + row[3]);
    }
  }

  /** TestMul: the product is exact, beyond a long too. */
  @Test
  void multipliesExactly() {
    String minPlusOne = "9223372036854775808";
    String[][] rows = {
      {"10", "10", "100"},
      {"10", "1", "10"},
      {"0", "50", "0"},
      {"50", "0", "0"},
      {"10", "-10", "-100"},
      {"-10", "1", "-10"},
      {"-50", "0", "0"},
      {"-50", "-50", "2500"},
      {MOST_POSITIVE, "0", "0"},
      {MOST_POSITIVE, "1", MOST_POSITIVE},
      {MOST_POSITIVE, "-1", "-" + MOST_POSITIVE},
      {"4611686018427387903", "2", "9223372036854775806"},
      {"-4611686018427387903", "-2", "9223372036854775806"},
      {MOST_POSITIVE, "2", "18446744073709551614"},
      {MOST_POSITIVE, "10", MOST_POSITIVE + "0"},
      {MOST_POSITIVE, "-10", "-" + MOST_POSITIVE + "0"},
      {MOST_NEGATIVE, "0", "0"},
      {MOST_NEGATIVE, "1", MOST_NEGATIVE},
      {MOST_NEGATIVE, "-1", minPlusOne},
      {"-4611686018427387904", "2", MOST_NEGATIVE},
      {"-18446744073709551616", "-2", "36893488147419103232"},
      {MOST_NEGATIVE, "10", MOST_NEGATIVE + "0"},
      {MOST_NEGATIVE, "-10", minPlusOne + "0"},
    };
    List<String> wrong = new ArrayList<>();
    for (String[] row : rows) {
      for (Format format : Format.values()) {
        Quantity product = dec(row[0], 0, format).multiply(Long.parseLong(row[1]));
        if (product.amount().compareTo(new BigDecimal(row[2])) != 0 || product.format() != format) {
          wrong.add(row[0] + " × " + row[1] + " " + format + " → " + product.amount());
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  /** TestAddSubRoundTrip, TestAddSubRoundTripAcrossScales and TestNegateRoundTrip, seeded. */
  @Test
  void sumsCancelAtEveryScale() {
    Random random = new Random(42);
    for (int scale = -10; scale <= 10; scale++) {
      Quantity sum = Quantity.of(0, Format.DECIMAL_SI);
      long[] order = new long[100];
      for (int i = 0; i < order.length; i++) {
        order[i] = random.nextLong() >>> 1;
        sum = sum.add(Quantity.ofScaled(order[i], scale));
        Quantity q = Quantity.ofScaled(order[i], scale);
        assertEquals(0, q.negate().negate().compareTo(q), q.toString());
      }
      for (long j : order) {
        sum = sum.subtract(Quantity.ofScaled(j, scale));
      }
      assertTrue(sum.isZero(), "scale " + scale + ": " + sum.amount());
    }
    Quantity sum = Quantity.of(0, Format.DECIMAL_SI);
    long[] order = new long[100];
    for (int i = 0; i < order.length; i++) {
      order[i] = random.nextLong() >>> 1;
      sum = sum.add(Quantity.ofScaled(order[i], (int) (order[i] % 20 - 10)));
    }
    for (long j : order) {
      sum = sum.subtract(Quantity.ofScaled(j, (int) (j % 20 - 10)));
    }
    assertTrue(sum.isZero(), sum.amount().toString());
  }

  /** TestQuantityNeg. */
  @Test
  void negationIsExact() {
    assertEquals("-9010m", dec("901", -2, Format.DECIMAL_SI).negate().toString());
    assertEquals("10", dec("-10", 0, Format.BINARY_SI).negate().toString());
    assertEquals(Format.BINARY_SI, dec("-10", 0, Format.BINARY_SI).negate().format());
  }
}
