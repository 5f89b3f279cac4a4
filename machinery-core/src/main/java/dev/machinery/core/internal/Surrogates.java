package dev.machinery.core.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Replaces lone UTF-16 surrogates with U+FFFD, as Go's JSON decoder (and so Kubernetes) does, so
 * that a decoded string is always valid Unicode and re-encodes as valid UTF-8: an escaped {@code
 * "\ud800"} in JSON, or a YAML escape that produced one. Stateless.
 */
public final class Surrogates {
  private static final byte[] REPLACEMENT = {'F', 'F', 'F', 'D'};
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;

  private Surrogates() {}

  /**
   * Returns the JSON bytes with every escaped lone surrogate ({@code \ud800} not followed by an
   * escaped low surrogate, or a low one alone) replaced by {@code \uFFFD}: a copy when there was
   * one, else the same array. An escape keeps its length, so every position stays the same.
   *
   * @param data the JSON bytes
   * @param start where the text starts
   * @param end where it ends
   * @return the repaired bytes
   */
  public static byte[] repairJson(byte[] data, int start, int end) {
    byte[] out = data;
    int i = start;
    while (i < end) {
      // Eight bytes at a time while none of them is a backslash.
      while (i + 8 <= end && !hasBackslash((long) WORDS.get(data, i))) {
        i += 8;
      }
      if (i >= end) {
        break;
      }
      if (data[i] != '\\') {
        i++;
        continue;
      }
      if (i + 1 >= end || data[i + 1] != 'u') {
        i += 2; // any other escape, \\ included
        continue;
      }
      int unit = hex(data, i + 2, end);
      if (unit < 0xD800 || unit > 0xDFFF) {
        i += 6;
        continue;
      }
      if (unit <= 0xDBFF
          && i + 11 < end
          && data[i + 6] == '\\'
          && data[i + 7] == 'u'
          && hex(data, i + 8, end) >= 0xDC00
          && hex(data, i + 8, end) <= 0xDFFF) {
        i += 12; // a proper pair
        continue;
      }
      if (out == data) {
        out = data.clone();
      }
      System.arraycopy(REPLACEMENT, 0, out, i + 2, 4);
      i += 6;
    }
    return out;
  }

  /** Whether any byte of the word is a backslash (the zero-byte test on the word XOR '\\'s). */
  private static boolean hasBackslash(long word) {
    long x = word ^ BACKSLASHES;
    return ((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0;
  }

  /** The four hex digits at {@code at} as a code unit, or -1 when they are not four hex digits. */
  private static int hex(byte[] data, int at, int end) {
    if (at + 4 > end) {
      return -1;
    }
    int value = 0;
    for (int k = at; k < at + 4; k++) {
      int digit = Character.digit(data[k], 16);
      if (digit < 0) {
        return -1;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  /**
   * Returns the text with every lone surrogate replaced by U+FFFD; the same string if none.
   *
   * @param text the text
   * @return the repaired text
   */
  public static String repair(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isSurrogate(c)) {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        if (out != null) {
          out.append(c).append(text.charAt(i + 1));
        }
        i++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length()).append(text, 0, i);
      }
      out.append('\uFFFD');
    }
    return out == null ? text : out.toString();
  }
}
