package dev.machinery.core.fieldpath;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Text as Go writes it: floats in their shortest form ({@code strconv.FormatFloat} with precision
 * -1), strings quoted by {@code %q}, and JSON strings as kube-apiserver's JSON library escapes
 * them.
 */
final class GoText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private GoText() {}

  /** A float as Go's {@code %v} prints it: {@code 3.14159}, {@code 1e+06}, {@code 1e-05}. */
  static String formatFloat(double d) {
    Digits digits = Digits.of(d);
    int exp = digits.point - 1;
    if (!digits.zero() && (exp < -4 || exp >= 6)) {
      return digits.exponential();
    }
    return digits.fixed();
  }

  /** A float as a JSON number: fixed from 1e-6 up to 1e21, {@code 1e+21} and {@code 1e-7} out. */
  static String formatJsonFloat(double d) {
    double abs = Math.abs(d);
    Digits digits = Digits.of(d);
    if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
      String e = digits.exponential();
      int n = e.length();
      if (n >= 4 && e.charAt(n - 4) == 'e' && e.charAt(n - 3) == '-' && e.charAt(n - 2) == '0') {
        e = e.substring(0, n - 2) + e.charAt(n - 1);
      }
      return e;
    }
    return digits.fixed();
  }

  /**
   * Writes a JSON string. Quotes, backslashes and control characters are escaped ({@code \n},
   * {@code \r}, {@code \t}, else {@code \}{@code u00xx}); with {@code html}, also {@code <}, {@code
   * >}, {@code &}, U+2028 and U+2029. A lone surrogate becomes U+FFFD.
   */
  static void writeString(StringBuilder out, String s, boolean html) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c == '\n') {
          out.append("\\n");
        } else if (c == '\r') {
          out.append("\\r");
        } else if (c == '\t') {
          out.append("\\t");
        } else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&'))) {
          out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
        } else {
          out.append(c);
        }
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append(html ? "\\ufffd" : "\ufffd");
      } else if (html && (c == '\u2028' || c == '\u2029')) {
        out.append("\\u202").append(HEX[c & 0xF]);
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }

  /** A string as Go's {@code %q} quotes it (printable runes as they are, others escaped). */
  static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 0x10000 && Character.isSurrogate((char) cp)) {
        out.append("\\ufffd");
        continue;
      }
      if (cp == '"' || cp == '\\') {
        out.append('\\').appendCodePoint(cp);
      } else if (isPrint(cp)) {
        out.appendCodePoint(cp);
      } else {
        escapeRune(out, cp);
      }
    }
    return out.append('"').toString();
  }

  private static void escapeRune(StringBuilder out, int cp) {
    switch (cp) {
      case 7 -> out.append("\\a");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 11 -> out.append("\\v");
      default -> {
        if (cp < ' ' || cp == 0x7F) {
          out.append("\\x").append(HEX[cp >> 4]).append(HEX[cp & 0xF]);
        } else if (cp < 0x10000) {
          out.append("\\u");
          hex(out, cp, 4);
        } else {
          out.append("\\U");
          hex(out, cp, 8);
        }
      }
    }
  }

  private static void hex(StringBuilder out, int value, int digits) {
    for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
      out.append(HEX[(value >> shift) & 0xF]);
    }
  }

  // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  private static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER:
      case Character.LOWERCASE_LETTER:
      case Character.TITLECASE_LETTER:
      case Character.MODIFIER_LETTER:
      case Character.OTHER_LETTER:
      case Character.NON_SPACING_MARK:
      case Character.ENCLOSING_MARK:
      case Character.COMBINING_SPACING_MARK:
      case Character.DECIMAL_DIGIT_NUMBER:
      case Character.LETTER_NUMBER:
      case Character.OTHER_NUMBER:
      case Character.CONNECTOR_PUNCTUATION:
      case Character.DASH_PUNCTUATION:
      case Character.START_PUNCTUATION:
      case Character.END_PUNCTUATION:
      case Character.INITIAL_QUOTE_PUNCTUATION:
      case Character.FINAL_QUOTE_PUNCTUATION:
      case Character.OTHER_PUNCTUATION:
      case Character.MATH_SYMBOL:
      case Character.CURRENCY_SYMBOL:
      case Character.MODIFIER_SYMBOL:
      case Character.OTHER_SYMBOL:
        return true;
      default:
        return false;
    }
  }

  /**
   * The shortest decimal digits that read back as the double, as Go's {@code strconv} finds them:
   * the value is {@code 0.digits × 10^point}.
   */
  private record Digits(boolean negative, String digits, int point) {
    static Digits of(double d) {
      boolean negative = Double.doubleToRawLongBits(d) < 0;
      if (d == 0) {
        return new Digits(negative, "", 0);
      }
      BigDecimal exact = new BigDecimal(Math.abs(d));
      for (int precision = 1; precision <= 17; precision++) {
        BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
        if (rounded.doubleValue() == Math.abs(d)) {
          BigDecimal stripped = rounded.stripTrailingZeros();
          String digits = stripped.unscaledValue().toString();
          return new Digits(negative, digits, digits.length() - stripped.scale());
        }
      }
      throw new AssertionError("no shortest form for " + d);
    }

    boolean zero() {
      return digits.isEmpty();
    }

    String fixed() {
      StringBuilder b = new StringBuilder();
      if (negative) {
        b.append('-');
      }
      if (point > 0) {
        for (int i = 0; i < point; i++) {
          b.append(i < digits.length() ? digits.charAt(i) : '0');
        }
      } else {
        b.append('0');
      }
      int fraction = Math.max(digits.length() - point, 0);
      if (fraction > 0) {
        b.append('.');
        for (int i = 0; i < fraction; i++) {
          int at = point + i;
          b.append(at >= 0 && at < digits.length() ? digits.charAt(at) : '0');
        }
      }
      return b.toString();
    }

    String exponential() {
      StringBuilder b = new StringBuilder();
      if (negative) {
        b.append('-');
      }
      b.append(digits.charAt(0));
      if (digits.length() > 1) {
        b.append('.').append(digits, 1, digits.length());
      }
      int exp = point - 1;
      b.append('e').append(exp < 0 ? '-' : '+');
      int abs = Math.abs(exp);
      if (abs < 10) {
        b.append('0');
      }
      return b.append(abs).toString();
    }
  }
}
