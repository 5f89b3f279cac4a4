package dev.machinery.core.codec;

import java.nio.charset.StandardCharsets;

/**
 * Finds the root object's {@code apiVersion} and {@code kind} in JSON bytes without tokenizing, for
 * documents that do not put them first: one quick pass over the bytes instead of buffering every
 * token before them.
 *
 * <p>It answers only when the answer is certain: both fields present once each, as plain strings,
 * and no root key with an escape in it (which could spell either name). Otherwise it returns null
 * and the decoder takes its buffering path, which reports whatever is wrong. Malformed input is
 * left to the parser too. Stateless.
 */
final class RootTypeScanner {
  private static final byte[] API_VERSION = "apiVersion".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] KIND = "kind".getBytes(StandardCharsets.US_ASCII);

  private RootTypeScanner() {}

  /** Returns {apiVersion, kind}, or null when the decoder must find them the slow way. */
  static String[] scan(byte[] d, int start, int end) {
    int i = skipWhitespace(d, start, end);
    if (i >= end || d[i] != '{') {
      return null;
    }
    i++;
    int depth = 1;
    boolean expectKey = true;
    String apiVersion = null;
    String kind = null;
    while (i < end) {
      byte b = d[i];
      if (b == '"') {
        int close = closingQuote(d, i + 1, end);
        if (close < 0) {
          return null;
        }
        if (depth == 1 && expectKey) {
          if (hasEscape(d, i + 1, close)) {
            return null;
          }
          boolean isApiVersion = equalsAt(d, i + 1, close, API_VERSION);
          boolean isKind = !isApiVersion && equalsAt(d, i + 1, close, KIND);
          i = skipWhitespace(d, close + 1, end);
          if (i >= end || d[i] != ':') {
            return null;
          }
          i = skipWhitespace(d, i + 1, end);
          expectKey = false;
          if (isApiVersion || isKind) {
            if (i >= end || d[i] != '"') {
              return null;
            }
            int valueEnd = closingQuote(d, i + 1, end);
            if (valueEnd < 0 || hasEscape(d, i + 1, valueEnd)) {
              return null;
            }
            String value = new String(d, i + 1, valueEnd - i - 1, StandardCharsets.UTF_8);
            if (isApiVersion) {
              if (apiVersion != null) {
                return null;
              }
              apiVersion = value;
            } else {
              if (kind != null) {
                return null;
              }
              kind = value;
            }
            i = valueEnd + 1;
          }
          continue;
        }
        i = close + 1;
        continue;
      }
      switch (b) {
        case '{':
        case '[':
          depth++;
          break;
        case '}':
        case ']':
          if (--depth == 0) {
            return apiVersion != null && kind != null ? new String[] {apiVersion, kind} : null;
          }
          break;
        case ',':
          if (depth == 1) {
            expectKey = true;
          }
          break;
        default:
          break;
      }
      i++;
    }
    return null;
  }

  /** The index of the quote closing a string whose text starts at {@code i}, or -1. */
  private static int closingQuote(byte[] d, int i, int end) {
    while (i < end) {
      byte b = d[i];
      if (b == '"') {
        return i;
      }
      i += b == '\\' ? 2 : 1;
    }
    return -1;
  }

  private static boolean hasEscape(byte[] d, int from, int to) {
    for (int i = from; i < to; i++) {
      if (d[i] == '\\') {
        return true;
      }
    }
    return false;
  }

  private static boolean equalsAt(byte[] d, int from, int to, byte[] name) {
    if (to - from != name.length) {
      return false;
    }
    for (int k = 0; k < name.length; k++) {
      if (d[from + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  private static int skipWhitespace(byte[] d, int i, int end) {
    while (i < end && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) {
      i++;
    }
    return i;
  }
}
