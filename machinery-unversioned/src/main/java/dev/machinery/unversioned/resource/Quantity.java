package dev.machinery.unversioned.resource;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.machinery.conversion.Immutable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A fixed-point number with a unit suffix, as Kubernetes writes resource amounts ({@code
 * resource.Quantity}): {@code 500m} CPU, {@code 1Gi} memory, {@code 1e3}. Never a floating-point
 * number.
 *
 * <p>Parsing follows Kubernetes' scanner: an optional sign, digits with an optional fraction, and a
 * suffix that is decimal SI ({@code n u m "" k M G T P E}), binary SI ({@code Ki Mi Gi Ti Pi Ei})
 * or a decimal exponent ({@code e3}, {@code E-6}). Parsing keeps precision to the nano unit: a
 * smaller non-zero fraction rounds away from zero ({@code 0.1n} is {@code 1n}, so that a request
 * for some resource never becomes none); parsed binary SI amounts are capped at 2<sup>63</sup>-1 in
 * magnitude. A quantity made with {@link #of(BigDecimal, Format)}, {@link #ofScaled} or by
 * arithmetic keeps its exact value, as Kubernetes' {@code inf.Dec} does: comparison, equality and
 * arithmetic use that value, and only its text is rounded. The quantity remembers the kind of
 * suffix it was written with and writes itself in that kind's canonical form: no fraction, the
 * largest suffix that loses nothing ({@code 1.5Gi} becomes {@code 1536Mi}, {@code 0.5} becomes
 * {@code 500m}, {@code 1000M} becomes {@code 1G}); a binary amount under 1024 or with a fraction is
 * written in decimal SI. Decimal SI has no suffix below {@code n}: a value with a smaller fraction
 * is written rounded up to the nano unit, away from zero (the value parsing its exact text would
 * give), where Kubernetes drops the exponent and writes 10<sup>-12</sup> as {@code 1}; a decimal
 * exponent is written exactly.
 *
 * <p>Bounds hold against hostile input: text longer than {@value #MAX_LENGTH} characters, or whose
 * exponent is beyond &plusmn;{@value #MAX_EXPONENT}, is a {@link QuantityFormatException} rather
 * than a slow parse.
 *
 * <p>{@link #equals} holds when the exact values are equal and so are the canonical texts (the same
 * value written the same way); {@link #compareTo} and {@link #isSemanticallyEqual} compare exact
 * values only ({@code 1000m} and {@code 1} are the same amount), as Kubernetes' {@code Cmp} and
 * {@code Equal} do. On the wire a quantity is a JSON or YAML string; a bare number is accepted when
 * reading. Immutable and safe for concurrent use.
 */
@Immutable
@JsonDeserialize(using = Quantity.Deserializer.class)
public final class Quantity implements Comparable<Quantity> {
  /** The longest text {@link #parse} reads. */
  public static final int MAX_LENGTH = 100;

  /** The largest decimal exponent (in magnitude) {@link #parse} accepts. */
  public static final int MAX_EXPONENT = 1000;

  private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal NANO = BigDecimal.ONE.movePointLeft(9);
  private static final BigInteger KIBI = BigInteger.valueOf(1024);
  private static final String[] DECIMAL_SUFFIXES = {
    "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
  };
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  /** The zero quantity, {@code 0}, in decimal SI. */
  public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);

  /** How a quantity is written. */
  public enum Format {
    /** Decimal SI suffixes: {@code 12M} is 12&times;10<sup>6</sup>. */
    DECIMAL_SI,
    /** Binary SI suffixes: {@code 12Mi} is 12&times;2<sup>20</sup>. */
    BINARY_SI,
    /** A decimal exponent: {@code 12e6}. */
    DECIMAL_EXPONENT
  }

  private final BigDecimal amount;
  private final Format format;
  private final String text;

  private Quantity(BigDecimal amount, Format format) {
    this.amount = amount;
    this.format = format;
    this.text = canonical(amount, format);
  }

  /**
   * Parses a quantity as Kubernetes does.
   *
   * @param text the text, such as {@code 500m}, {@code 1.5Gi} or {@code 2e3}
   * @return the quantity
   * @throws QuantityFormatException when the text is not a quantity, naming it and why
   */
  public static Quantity parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      throw new QuantityFormatException(
          text,
          "quantities must match the regular expression '" + QuantityFormatException.GRAMMAR + "'");
    }
    if (text.length() > MAX_LENGTH) {
      throw new QuantityFormatException(
          text, "longer than the " + MAX_LENGTH + " characters a quantity may have");
    }
    int end = text.length();
    int pos = 0;
    boolean negative = false;
    if (text.charAt(0) == '-' || text.charAt(0) == '+') {
      negative = text.charAt(0) == '-';
      pos++;
    }
    int wholeStart = pos;
    while (pos < end && isDigit(text.charAt(pos))) {
      pos++;
    }
    String whole = text.substring(wholeStart, pos);
    String fraction = "";
    if (pos < end && text.charAt(pos) == '.') {
      int fractionStart = ++pos;
      while (pos < end && isDigit(text.charAt(pos))) {
        pos++;
      }
      fraction = text.substring(fractionStart, pos);
    }
    int suffixStart = pos;
    while (pos < end && "eEinumkKMGTP".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < end && isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos < end) {
      throw new QuantityFormatException(
          text,
          "quantities must match the regular expression '" + QuantityFormatException.GRAMMAR + "'");
    }
    String suffix = text.substring(suffixStart);
    BigInteger unscaled =
        whole.isEmpty() && fraction.isEmpty() ? BigInteger.ZERO : new BigInteger(whole + fraction);
    BigDecimal value = new BigDecimal(negative ? unscaled.negate() : unscaled, fraction.length());
    Format format;
    int decimalIndex = indexOf(DECIMAL_SUFFIXES, suffix);
    int binaryIndex = suffix.isEmpty() ? -1 : indexOf(BINARY_SUFFIXES, suffix);
    if (decimalIndex >= 0) {
      format = Format.DECIMAL_SI;
      value = value.scaleByPowerOfTen(3 * (decimalIndex - 3));
    } else if (binaryIndex >= 0) {
      format = Format.BINARY_SI;
      value = new BigDecimal(value.unscaledValue().shiftLeft(10 * binaryIndex), value.scale());
    } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      format = Format.DECIMAL_EXPONENT;
      value = value.scaleByPowerOfTen(exponent(text, suffix.substring(1)));
    } else {
      throw new QuantityFormatException(text, "unable to parse quantity's suffix");
    }
    return rounded(value, format);
  }

  private static int exponent(String text, String digits) {
    String magnitude =
        digits.startsWith("+") || digits.startsWith("-") ? digits.substring(1) : digits;
    if (magnitude.isEmpty()) {
      throw new QuantityFormatException(text, "unable to parse quantity's suffix");
    }
    String significant = magnitude.replaceFirst("^0+(?=.)", "");
    if (significant.length() > 4 || Integer.parseInt(significant) > MAX_EXPONENT) {
      throw new QuantityFormatException(
          text, "exponent beyond the ±" + MAX_EXPONENT + " a quantity may have");
    }
    int exponent = Integer.parseInt(significant);
    return digits.startsWith("-") ? -exponent : exponent;
  }

  /**
   * Makes a quantity of an exact decimal value ({@code resource.NewDecimalQuantity}), kept exactly:
   * not rounded to the nano unit nor capped as parsing does. Its text is rounded where the format
   * cannot write it exactly (see the class comment).
   *
   * @param value the value
   * @param format how to write it
   * @return the quantity
   */
  public static Quantity of(BigDecimal value, Format format) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(format, "format");
    return new Quantity(value, format);
  }

  /**
   * The value as {@code ParseQuantity} keeps it: rounded to the nano unit away from zero and, in
   * binary SI, capped at 2<sup>63</sup>-1 in magnitude; a binary amount under one is decimal SI.
   */
  private static Quantity rounded(BigDecimal value, Format format) {
    int sign = value.signum();
    if (sign == 0) {
      return new Quantity(BigDecimal.ZERO, format);
    }
    BigDecimal magnitude = value.abs();
    if (magnitude.compareTo(NANO) < 0) {
      magnitude = NANO; // rounds up to the smallest amount there is, without a huge division
    } else if (magnitude.scale() > 9) {
      magnitude = magnitude.setScale(9, RoundingMode.UP);
    }
    if (format == Format.BINARY_SI) {
      if (magnitude.compareTo(MAX_BINARY) > 0) {
        magnitude = MAX_BINARY;
      }
      if (magnitude.compareTo(BigDecimal.ONE) < 0) {
        format = Format.DECIMAL_SI;
      }
    }
    return new Quantity(sign < 0 ? magnitude.negate() : magnitude, format);
  }

  /**
   * Makes a quantity of a whole number ({@code resource.NewQuantity}), exactly.
   *
   * @param value the value
   * @param format how to write it
   * @return the quantity
   */
  public static Quantity of(long value, Format format) {
    return of(BigDecimal.valueOf(value), format);
  }

  /**
   * Makes a quantity of thousandths in decimal SI ({@code resource.NewMilliQuantity}): {@code
   * ofMilli(500)} is {@code 500m}.
   *
   * @param milli the value in thousandths
   * @return the quantity
   */
  public static Quantity ofMilli(long milli) {
    return of(BigDecimal.valueOf(milli, 3), Format.DECIMAL_SI);
  }

  /**
   * Makes a quantity of exactly {@code value} &times; 10<sup>{@code exponent}</sup> in decimal SI
   * ({@code resource.NewScaledQuantity}); below the nano unit too.
   *
   * @param value the unscaled value
   * @param exponent the power of ten
   * @return the quantity
   */
  public static Quantity ofScaled(long value, int exponent) {
    if (Math.abs((long) exponent) > MAX_EXPONENT) {
      throw new IllegalArgumentException(
          "exponent " + exponent + " beyond the ±" + MAX_EXPONENT + " a quantity may have");
    }
    return of(BigDecimal.valueOf(value).scaleByPowerOfTen(exponent), Format.DECIMAL_SI);
  }

  /**
   * Returns the exact value.
   *
   * @return the value
   */
  public BigDecimal amount() {
    return amount;
  }

  /**
   * Returns the format the quantity is written in.
   *
   * @return the format
   */
  public Format format() {
    return format;
  }

  /**
   * Returns the value in whole units, rounded away from zero ({@code Value()}): {@code 1500m} is 2.
   *
   * @return the value
   * @throws ArithmeticException when it does not fit a {@code long}
   */
  public long value() {
    return scaledValue(0);
  }

  /**
   * Returns the value in thousandths, rounded away from zero ({@code MilliValue()}): {@code 1} is
   * 1000.
   *
   * @return the value in thousandths
   * @throws ArithmeticException when it does not fit a {@code long}
   */
  public long milliValue() {
    return scaledValue(-3);
  }

  /**
   * Returns the value in units of 10<sup>{@code exponent}</sup>, rounded away from zero ({@code
   * ScaledValue}): {@code 1} in units of 10<sup>-9</sup> is 10<sup>9</sup>.
   *
   * @param exponent the power of ten of the unit
   * @return the value in that unit
   * @throws ArithmeticException when it does not fit a {@code long}
   */
  public long scaledValue(int exponent) {
    if (amount.signum() == 0) {
      return 0;
    }
    BigDecimal scaled = amount.scaleByPowerOfTen(-exponent);
    if (scaled.precision() - scaled.scale() > 19) {
      throw new ArithmeticException(this + " does not fit a long in units of 1e" + exponent);
    }
    try {
      return scaled.setScale(0, RoundingMode.UP).longValueExact();
    } catch (ArithmeticException e) {
      throw new ArithmeticException(this + " does not fit a long in units of 1e" + exponent);
    }
  }

  /**
   * Returns the exact sum, in this quantity's format (in the other's when this one is zero, as
   * Kubernetes does).
   *
   * @param other the quantity to add
   * @return the sum
   */
  public Quantity add(Quantity other) {
    return new Quantity(amount.add(other.amount), amount.signum() == 0 ? other.format : format);
  }

  /**
   * Returns the exact difference, in this quantity's format (in the other's when this one is zero).
   *
   * @param other the quantity to subtract
   * @return the difference
   */
  public Quantity subtract(Quantity other) {
    return new Quantity(
        amount.subtract(other.amount), amount.signum() == 0 ? other.format : format);
  }

  /**
   * Returns the exact product with a whole number, in this quantity's format.
   *
   * @param factor the factor
   * @return the product
   */
  public Quantity multiply(long factor) {
    return new Quantity(amount.multiply(BigDecimal.valueOf(factor)), format);
  }

  /**
   * Returns the negated quantity.
   *
   * @return the negation
   */
  public Quantity negate() {
    return new Quantity(amount.negate(), format);
  }

  /**
   * Returns the sign of the value: -1, 0 or 1.
   *
   * @return the sign
   */
  public int signum() {
    return amount.signum();
  }

  /**
   * Whether the value is zero.
   *
   * @return true for zero
   */
  public boolean isZero() {
    return amount.signum() == 0;
  }

  /**
   * Compares exact values only, ignoring the format ({@code Cmp}).
   *
   * @param other the other quantity
   * @return negative, zero or positive as this value is less, equal or greater
   */
  @Override
  public int compareTo(Quantity other) {
    return amount.compareTo(other.amount);
  }

  /**
   * Whether two quantities are exactly the same amount, whatever their format ({@code Equal}):
   * {@code 1000m} and {@code 1} are.
   *
   * @param other the other quantity
   * @return true for the same amount
   */
  public boolean isSemanticallyEqual(Quantity other) {
    return other != null && compareTo(other) == 0;
  }

  /**
   * Equal exact value and equal canonical text: the same amount, written the same way.
   *
   * @param other the other object
   * @return true when both are quantities of the same value with the same canonical text
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof Quantity quantity
        && text.equals(quantity.text)
        && amount.compareTo(quantity.amount) == 0;
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /**
   * Returns the canonical text, as Kubernetes writes it.
   *
   * @return the text, such as {@code 1536Mi}
   */
  @JsonValue
  @Override
  public String toString() {
    return text;
  }

  private static String canonical(BigDecimal amount, Format format) {
    if (amount.signum() == 0) {
      return "0";
    }
    if (format == Format.BINARY_SI
        && amount.abs().compareTo(BigDecimal.valueOf(1024)) >= 0
        && amount.stripTrailingZeros().scale() <= 0) {
      BigInteger mantissa = amount.toBigIntegerExact();
      int power = 0;
      while (power < BINARY_SUFFIXES.length - 1) {
        BigInteger[] division = mantissa.divideAndRemainder(KIBI);
        if (division[1].signum() != 0) {
          break;
        }
        mantissa = division[0];
        power++;
      }
      return mantissa + BINARY_SUFFIXES[power];
    }
    BigDecimal written = amount;
    if (format != Format.DECIMAL_EXPONENT && amount.scale() > 9) {
      // Decimal SI has no suffix below n: rounded up to it, away from zero, as parsing would.
      BigDecimal magnitude = amount.abs();
      magnitude = magnitude.compareTo(NANO) < 0 ? NANO : magnitude.setScale(9, RoundingMode.UP);
      written = amount.signum() < 0 ? magnitude.negate() : magnitude;
    }
    BigDecimal stripped = written.stripTrailingZeros();
    BigInteger mantissa = stripped.unscaledValue();
    int exponent = -stripped.scale();
    int shift = Math.floorMod(exponent, 3);
    if (shift != 0) {
      mantissa = mantissa.multiply(BigInteger.TEN.pow(shift));
      exponent -= shift;
    }
    if (format == Format.DECIMAL_EXPONENT) {
      return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
    }
    if (exponent > 18) {
      // Beyond exa there is no suffix: written in E rather than losing the exponent.
      mantissa = mantissa.multiply(BigInteger.TEN.pow(exponent - 18));
      exponent = 18;
    }
    return mantissa + DECIMAL_SUFFIXES[exponent / 3 + 3];
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int indexOf(String[] suffixes, String suffix) {
    for (int i = 0; i < suffixes.length; i++) {
      if (suffixes[i].equals(suffix)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Reads a quantity from a JSON or YAML string (surrounding blanks ignored, as Kubernetes does) or
   * a bare number, and refuses anything else with the field's path.
   */
  static final class Deserializer extends StdDeserializer<Quantity> {
    private static final long serialVersionUID = 1L;

    Deserializer() {
      super(Quantity.class);
    }

    @Override
    public Quantity deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonToken token = parser.currentToken();
      if (token != JsonToken.VALUE_STRING
          && token != JsonToken.VALUE_NUMBER_INT
          && token != JsonToken.VALUE_NUMBER_FLOAT) {
        return (Quantity) context.handleUnexpectedToken(Quantity.class, parser);
      }
      String text = parser.getText().strip();
      try {
        return parse(text);
      } catch (QuantityFormatException e) {
        throw context.weirdStringException(text, Quantity.class, e.getMessage());
      }
    }
  }
}
