package dev.machinery.unversioned.intstr;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.machinery.conversion.Immutable;
import java.io.IOException;
import java.util.Objects;

/**
 * An integer or a string, as Kubernetes' {@code intstr.IntOrString}: a container port given by
 * number ({@code 8080}) or by name ({@code http}), a rolling update's {@code maxSurge} given as a
 * count ({@code 1}) or a percentage ({@code 25%}). On the wire it is a JSON number (a 32-bit
 * integer) or a JSON string, and it keeps which one it was.
 *
 * <p>Immutable and safe for concurrent use.
 */
@Immutable
@JsonDeserialize(using = IntOrString.Deserializer.class)
public final class IntOrString {
  private final boolean isInt;
  private final int intValue;
  private final String stringValue;

  private IntOrString(boolean isInt, int intValue, String stringValue) {
    this.isInt = isInt;
    this.intValue = intValue;
    this.stringValue = stringValue;
  }

  /**
   * The integer form ({@code intstr.FromInt32}).
   *
   * @param value the integer
   * @return the value
   */
  public static IntOrString ofInt(int value) {
    return new IntOrString(true, value, null);
  }

  /**
   * The string form ({@code intstr.FromString}), even when the string holds digits.
   *
   * @param value the string
   * @return the value
   */
  public static IntOrString ofString(String value) {
    return new IntOrString(false, 0, Objects.requireNonNull(value, "value"));
  }

  /**
   * The integer form when the text is a 32-bit decimal integer, else the string form ({@code
   * intstr.Parse}): {@code "8080"} is an integer, {@code "2147483648"} and {@code "http"} are
   * strings.
   *
   * @param text the text
   * @return the value
   */
  public static IntOrString parse(String text) {
    Long parsed = parseDecimal(text);
    if (parsed != null && parsed >= Integer.MIN_VALUE && parsed <= Integer.MAX_VALUE) {
      return ofInt(parsed.intValue());
    }
    return ofString(text);
  }

  /**
   * Whether this is the integer form.
   *
   * @return true for an integer
   */
  public boolean isInt() {
    return isInt;
  }

  /**
   * Returns the integer, or for the string form the integer the string spells, or 0 ({@code
   * IntValue()}).
   *
   * @return the integer
   */
  public int intValue() {
    if (isInt) {
      return intValue;
    }
    Long parsed = parseDecimal(stringValue);
    return parsed != null && parsed >= Integer.MIN_VALUE && parsed <= Integer.MAX_VALUE
        ? parsed.intValue()
        : 0;
  }

  /**
   * Returns the string of the string form, or null for the integer form.
   *
   * @return the string, or null
   */
  public String stringValue() {
    return stringValue;
  }

  /**
   * Resolves an absolute count or a percentage of a total ({@code
   * intstr.GetScaledValueFromIntOrPercent}): the integer form as it is, {@code "25%"} of 10 as 3
   * when rounding up or 2 when rounding down, as the deployment controller computes {@code
   * maxSurge} (up) and {@code maxUnavailable} (down). Computed exactly, not in floating point.
   *
   * @param total the total a percentage is taken of
   * @param roundUp whether a fraction rounds up (else down)
   * @return the count
   * @throws InvalidIntOrStringException for a string that is not a whole-number percentage
   */
  public int scaledValue(int total, boolean roundUp) {
    if (isInt) {
      return intValue;
    }
    if (!stringValue.endsWith("%")) {
      throw new InvalidIntOrStringException(this, "invalid type: string is not a percentage");
    }
    Long percent = parseDecimal(stringValue.substring(0, stringValue.length() - 1));
    if (percent == null || Math.abs(percent) > Integer.MAX_VALUE) {
      throw new InvalidIntOrStringException(
          this,
          "invalid value \"" + stringValue + "\": not a whole number of percent in the int range");
    }
    long product = percent * (long) total;
    long scaled = roundUp ? -Math.floorDiv(-product, 100) : Math.floorDiv(product, 100);
    return Math.toIntExact(scaled);
  }

  /** A decimal integer of ASCII digits with an optional sign, as Go's strconv reads one. */
  private static Long parseDecimal(String text) {
    int start = !text.isEmpty() && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    if (text.length() == start || text.length() - start > 19) {
      return null;
    }
    for (int i = start; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return null;
      }
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Returns the value as written on the wire: an {@code Integer} or a {@code String}.
   *
   * @return the wire value
   */
  @JsonValue
  public Object wireValue() {
    return isInt ? (Object) intValue : stringValue;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IntOrString that
        && isInt == that.isInt
        && intValue == that.intValue
        && Objects.equals(stringValue, that.stringValue);
  }

  @Override
  public int hashCode() {
    return isInt ? intValue : stringValue.hashCode() * 31 + 1;
  }

  /**
   * Returns the integer's digits or the string.
   *
   * @return the text
   */
  @Override
  public String toString() {
    return isInt ? Integer.toString(intValue) : stringValue;
  }

  /** Reads a JSON number (a 32-bit integer) or string; anything else fails with its path. */
  static final class Deserializer extends StdDeserializer<IntOrString> {
    private static final long serialVersionUID = 1L;

    Deserializer() {
      super(IntOrString.class);
    }

    @Override
    public IntOrString deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonToken token = parser.currentToken();
      if (token == JsonToken.VALUE_STRING) {
        return ofString(parser.getText());
      }
      if (token == JsonToken.VALUE_NUMBER_INT) {
        if (parser.getNumberType() != JsonParser.NumberType.INT) {
          throw context.weirdNumberException(
              parser.getNumberValue(), IntOrString.class, "out of the 32-bit integer range");
        }
        return ofInt(parser.getIntValue());
      }
      return (IntOrString) context.handleUnexpectedToken(IntOrString.class, parser);
    }
  }
}
