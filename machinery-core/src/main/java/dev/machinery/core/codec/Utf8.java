package dev.machinery.core.codec;

import java.util.Locale;

/**
 * Strict UTF-8 validation of API bodies. API bodies are UTF-8: overlong forms, surrogates, code
 * points past U+10FFFF, truncated sequences and NUL bytes (which no JSON or YAML text holds
 * outside an escape, and which would let a parser guess UTF-16 or UTF-32) are rejected. A leading
 * byte order mark is skipped. Stateless.
 */
final class Utf8 {
  private Utf8() {}

  /**
   * Validates {@code data[0, length)} and returns the offset of the text after any byte order
   * mark.
   *
   * @throws DecodeException naming the byte offset of the first invalid byte
   */
  static int validate(byte[] data, int length) {
    int start =
        length >= 3
                && (data[0] & 0xff) == 0xEF
                && (data[1] & 0xff) == 0xBB
                && (data[2] & 0xff) == 0xBF
            ? 3
            : 0;
    int i = start;
    while (i < length) {
      // Fast path: eight ASCII bytes with no NUL among them.
      while (i + 8 <= length && asciiNoNul(data, i)) {
        i += 8;
      }
      if (i >= length) {
        break;
      }
      int b = data[i] & 0xff;
      if (b < 0x80) {
        if (b == 0) {
          throw invalid(i, "a NUL byte");
        }
        i++;
        continue;
      }
      int need;
      int min;
      int cp;
      if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
        min = 0x80;
        cp = b & 0x1F;
      } else if (b >= 0xE0 && b <= 0xEF) {
        need = 2;
        min = 0x800;
        cp = b & 0x0F;
      } else if (b >= 0xF0 && b <= 0xF4) {
        need = 3;
        min = 0x10000;
        cp = b & 0x07;
      } else {
        throw invalid(
            i,
            b == 0xC0 || b == 0xC1
                ? "an overlong encoding"
                : String.format(Locale.ROOT, "the byte 0x%02X", b));
      }
      if (i + need >= length) {
        throw invalid(i, "a truncated multi-byte sequence");
      }
      for (int k = 1; k <= need; k++) {
        int c = data[i + k] & 0xff;
        if ((c & 0xC0) != 0x80) {
          throw invalid(i, "a truncated multi-byte sequence");
        }
        cp = (cp << 6) | (c & 0x3F);
      }
      if (cp < min) {
        throw invalid(i, "an overlong encoding");
      }
      if (cp >= 0xD800 && cp <= 0xDFFF) {
        throw invalid(i, "an encoded surrogate");
      }
      if (cp > 0x10FFFF) {
        throw invalid(i, "a code point past U+10FFFF");
      }
      i += need + 1;
    }
    return start;
  }

  private static boolean asciiNoNul(byte[] d, int i) {
    return d[i] > 0
        && d[i + 1] > 0
        && d[i + 2] > 0
        && d[i + 3] > 0
        && d[i + 4] > 0
        && d[i + 5] > 0
        && d[i + 6] > 0
        && d[i + 7] > 0;
  }

  private static DecodeException invalid(int offset, String what) {
    return new DecodeException(
        "the body is not valid UTF-8: found " + what + " at byte offset " + offset, "");
  }
}
