package dev.machinery.core.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * Strict UTF-8 validation of API bodies. API bodies are UTF-8: overlong forms, surrogates, code
 * points past U+10FFFF and truncated sequences are rejected, and so is a NUL byte among the first
 * four (from which a parser would guess UTF-16 or UTF-32; JSON and YAML parsers reject NUL bytes
 * anywhere else themselves). A leading byte order mark is skipped. Stateless.
 */
final class Utf8 {
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Utf8() {}

  /**
   * Validates {@code data[0, length)} and returns the offset of the text after any byte order mark.
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
    // Parsers guess UTF-16 or UTF-32 from NUL bytes among the first four; JSON and YAML reject a
    // NUL anywhere else themselves.
    for (int k = start; k < Math.min(length, start + 4); k++) {
      if (data[k] == 0) {
        throw invalid(k, "a NUL byte");
      }
    }
    final long high = 0x8080808080808080L;
    int i = start;
    while (i < length) {
      // Fast path: skip ASCII 32 bytes, then 8 bytes, at a time.
      while (i + 32 <= length
          && (((long) WORDS.get(data, i)
                      | (long) WORDS.get(data, i + 8)
                      | (long) WORDS.get(data, i + 16)
                      | (long) WORDS.get(data, i + 24))
                  & high)
              == 0) {
        i += 32;
      }
      while (i + 8 <= length && ((long) WORDS.get(data, i) & high) == 0) {
        i += 8;
      }
      if (i >= length) {
        break;
      }
      int b = data[i] & 0xff;
      if (b < 0x80) {
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

  /**
   * Decodes UTF-8 that {@link #validate} has accepted into UTF-16 code units (a code point past
   * U+FFFF as a surrogate pair) and returns how many were written; {@code out} holds at least one
   * unit per byte.
   */
  static int decodeValid(byte[] data, int start, int end, char[] out) {
    int n = 0;
    int i = start;
    while (i < end) {
      int b = data[i];
      if (b >= 0) {
        out[n++] = (char) b;
        i++;
      } else if ((b & 0xE0) == 0xC0) {
        out[n++] = (char) (((b & 0x1F) << 6) | (data[i + 1] & 0x3F));
        i += 2;
      } else if ((b & 0xF0) == 0xE0) {
        out[n++] = (char) (((b & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F));
        i += 3;
      } else {
        int codePoint =
            ((b & 0x07) << 18)
                | ((data[i + 1] & 0x3F) << 12)
                | ((data[i + 2] & 0x3F) << 6)
                | (data[i + 3] & 0x3F);
        out[n++] = Character.highSurrogate(codePoint);
        out[n++] = Character.lowSurrogate(codePoint);
        i += 4;
      }
    }
    return n;
  }

  private static DecodeException invalid(int offset, String what) {
    return new DecodeException(
        "the body is not valid UTF-8: found " + what + " at byte offset " + offset, "");
  }
}
