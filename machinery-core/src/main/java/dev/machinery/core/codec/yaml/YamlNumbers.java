package dev.machinery.core.codec.yaml;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Writes floating-point numbers so that YAML 1.1 and YAML 1.2 readers both read a float: with a dot
 * in the mantissa and a signed exponent ({@code 1.0e+10}), as YAML 1.1's float pattern requires.
 * Java writes {@code 1.0E10} and Go's YAML encoder {@code 1e+10}; readers that follow YAML 1.1
 * strictly (PyYAML) read either as a string. Stateless.
 */
public final class YamlNumbers {
  private YamlNumbers() {}

  /** A finite double, as {@link Double#toString} gives it, with its exponent in the 1.1 form. */
  static String format(double value) {
    return withSignedExponent(Double.toString(value));
  }

  /** A finite float, as {@link Float#toString} gives it, with its exponent in the 1.1 form. */
  static String format(float value) {
    return withSignedExponent(Float.toString(value));
  }

  /** A decimal, plain or in scientific notation, with a dot before any exponent. */
  static String format(BigDecimal value, boolean plain) {
    return withSignedExponent(plain ? value.toPlainString() : value.toString());
  }

  /** {@code 1.0E10} → {@code 1.0e+10}, {@code 1E-7} → {@code 1.0e-7}; without an exponent as is. */
  private static String withSignedExponent(String number) {
    int e = number.indexOf('E');
    if (e < 0) {
      return number;
    }
    String mantissa = number.substring(0, e);
    String exponent = number.substring(e + 1);
    return (mantissa.indexOf('.') < 0 ? mantissa + ".0" : mantissa)
        + 'e'
        + (exponent.charAt(0) == '-' || exponent.charAt(0) == '+' ? exponent : "+" + exponent);
  }

  /**
   * Jackson's YAML generator with its floating-point numbers written as {@link YamlNumbers} writes
   * them, for what the library's emitter leaves to it. Confined to the encoding thread.
   */
  public static final class Generator extends JsonGeneratorDelegate {
    /**
     * Wraps a generator.
     *
     * @param yaml Jackson's YAML generator
     */
    public Generator(JsonGenerator yaml) {
      super(yaml, false);
    }

    @Override
    public void writeNumber(double v) throws IOException {
      if (Double.isFinite(v)) {
        delegate.writeNumber(format(v));
      } else {
        delegate.writeNumber(v);
      }
    }

    @Override
    public void writeNumber(float v) throws IOException {
      if (Float.isFinite(v)) {
        delegate.writeNumber(format(v));
      } else {
        delegate.writeNumber(v);
      }
    }

    @Override
    public void writeNumber(BigDecimal v) throws IOException {
      if (v == null) {
        delegate.writeNull();
      } else {
        delegate.writeNumber(
            format(v, delegate.isEnabled(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)));
      }
    }
  }
}
