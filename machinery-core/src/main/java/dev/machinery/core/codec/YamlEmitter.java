package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Writes the tokens an object serializes to as block-style YAML, in the layout Jackson's YAML
 * generator gives with the codec's settings (two-space indentation, sequences in a mapping not
 * indented, {@code {}} and {@code []} for empty collections, no document marker, no line
 * splitting), without its per-scalar analysis. Strings are written plain when {@link YamlQuoting}
 * allows it; as a literal block ({@code |} or {@code |-}) when they hold line breaks and nothing a
 * literal block cannot carry; otherwise double-quoted, with every character outside printable
 * Unicode escaped. What it cannot write in that layout (a root that is not a mapping, embedded
 * binary values, nesting deeper than {@link #MAX_DEPTH}) it declines, and the caller falls back to
 * Jackson's generator. Thread-safe: one instance writes one object; the shared cache of key quoting
 * is concurrent.
 */
final class YamlEmitter {
  /** Deeper documents are left to Jackson's generator, which does not recurse on the stack. */
  static final int MAX_DEPTH = 200;

  /** Longer keys are left to Jackson's generator, which writes them as explicit "? " keys. */
  private static final int MAX_IMPLICIT_KEY = 128;

  private static final String INDENT = "                                                  ";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final YamlQuoting QUOTING = new YamlQuoting();
  private static final int CACHED_NAMES = 4096;
  private static final ConcurrentMap<String, Boolean> NAME_QUOTING = new ConcurrentHashMap<>();

  /** Thrown inside the emitter when the tokens hold something it leaves to Jackson. */
  private static final class Declined extends Exception {
    private static final long serialVersionUID = 1L;

    Declined() {
      super(null, null, false, false);
    }
  }

  private static final Declined DECLINED = new Declined();

  private final JsonParser tokens;
  private final StringBuilder out;

  private YamlEmitter(JsonParser tokens, int sizeHint) {
    this.tokens = tokens;
    this.out = new StringBuilder(sizeHint);
  }

  /**
   * Returns the YAML of a buffered object as UTF-8, or null when the emitter declines it.
   *
   * @param buffer the tokens of one object
   * @return the YAML, or null
   * @throws IOException never in practice (the tokens are in memory)
   */
  static byte[] emit(TokenBuffer buffer) throws IOException {
    try (JsonParser parser = buffer.asParserOnFirstToken()) {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        return null;
      }
      YamlEmitter emitter = new YamlEmitter(parser, 1024);
      try {
        emitter.rootMapping();
      } catch (Declined declined) {
        return null;
      }
      return emitter.out.toString().getBytes(StandardCharsets.UTF_8);
    }
  }

  private void rootMapping() throws IOException, Declined {
    if (tokens.nextToken() == JsonToken.END_OBJECT) {
      out.append("{}\n");
      return;
    }
    mappingEntries(0, 0, false);
  }

  /**
   * Writes the entries of a mapping whose first field name is the current token, each key at {@code
   * indent}; the first key continues the current line when {@code inline} (after "- ").
   */
  private void mappingEntries(int indent, int depth, boolean inline) throws IOException, Declined {
    boolean first = true;
    for (JsonToken token = tokens.currentToken();
        token != JsonToken.END_OBJECT;
        token = tokens.nextToken()) {
      if (!(first && inline)) {
        indent(indent);
      }
      first = false;
      key(tokens.currentName());
      JsonToken value = tokens.nextToken();
      switch (value) {
        case START_OBJECT:
          if (tokens.nextToken() == JsonToken.END_OBJECT) {
            out.append(": {}\n");
          } else {
            out.append(":\n");
            mappingEntries(indent + 2, deeper(depth), false);
          }
          break;
        case START_ARRAY:
          if (tokens.nextToken() == JsonToken.END_ARRAY) {
            out.append(": []\n");
          } else {
            out.append(":\n");
            sequenceItems(indent, deeper(depth));
          }
          break;
        default:
          out.append(": ");
          scalar(value, indent + 2);
          break;
      }
    }
  }

  /** Writes the items of a sequence whose first item is the current token, each "- " at indent. */
  private void sequenceItems(int indent, int depth) throws IOException, Declined {
    boolean inline = false;
    for (JsonToken token = tokens.currentToken();
        token != JsonToken.END_ARRAY;
        token = tokens.nextToken()) {
      if (!inline) {
        indent(indent);
      }
      inline = false;
      out.append("- ");
      switch (token) {
        case START_OBJECT:
          if (tokens.nextToken() == JsonToken.END_OBJECT) {
            out.append("{}\n");
          } else {
            mappingEntries(indent + 2, deeper(depth), true);
          }
          break;
        case START_ARRAY:
          if (tokens.nextToken() == JsonToken.END_ARRAY) {
            out.append("[]\n");
          } else {
            // A sequence in a sequence starts on the same line: "- - a".
            nestedSequence(indent + 2, deeper(depth));
          }
          break;
        default:
          scalar(token, indent + 2);
          break;
      }
    }
  }

  private void nestedSequence(int indent, int depth) throws IOException, Declined {
    boolean first = true;
    for (JsonToken token = tokens.currentToken();
        token != JsonToken.END_ARRAY;
        token = tokens.nextToken()) {
      if (!first) {
        indent(indent);
      }
      first = false;
      out.append("- ");
      switch (token) {
        case START_OBJECT:
          if (tokens.nextToken() == JsonToken.END_OBJECT) {
            out.append("{}\n");
          } else {
            mappingEntries(indent + 2, deeper(depth), true);
          }
          break;
        case START_ARRAY:
          if (tokens.nextToken() == JsonToken.END_ARRAY) {
            out.append("[]\n");
          } else {
            nestedSequence(indent + 2, deeper(depth));
          }
          break;
        default:
          scalar(token, indent + 2);
          break;
      }
    }
  }

  private static int deeper(int depth) throws Declined {
    if (depth + 1 > MAX_DEPTH) {
      throw DECLINED;
    }
    return depth + 1;
  }

  private void indent(int indent) {
    int left = indent;
    while (left > INDENT.length()) {
      out.append(INDENT);
      left -= INDENT.length();
    }
    out.append(INDENT, 0, left);
  }

  private void key(String name) throws Declined {
    if (name.length() > MAX_IMPLICIT_KEY) {
      // YAML readers refuse implicit keys past 1,024 characters; Jackson writes explicit ones.
      throw DECLINED;
    }
    if (quoteName(name)) {
      doubleQuoted(name);
    } else {
      out.append(name);
    }
  }

  /**
   * Whether a key is quoted. Keys are mostly the same few property names, so the answers for up to
   * {@link #CACHED_NAMES} of them are kept.
   */
  private static boolean quoteName(String name) {
    Boolean known = NAME_QUOTING.get(name);
    if (known != null) {
      return known;
    }
    boolean quote = QUOTING.needToQuoteName(name);
    if (NAME_QUOTING.size() < CACHED_NAMES) {
      NAME_QUOTING.put(name, quote);
    }
    return quote;
  }

  /** Writes a scalar value and ends its line; block content is indented to {@code indent}. */
  private void scalar(JsonToken token, int indent) throws IOException, Declined {
    switch (token) {
      case VALUE_STRING:
        string(tokens.getText(), indent);
        break;
      case VALUE_NUMBER_INT:
        out.append(tokens.getNumberValue().toString());
        break;
      case VALUE_NUMBER_FLOAT:
        floating();
        break;
      case VALUE_TRUE:
        out.append("true");
        break;
      case VALUE_FALSE:
        out.append("false");
        break;
      case VALUE_NULL:
        out.append("null");
        break;
      default:
        // Embedded binary or POJO values: Jackson's generator has its own forms for them.
        throw DECLINED;
    }
    out.append('\n');
  }

  private void floating() throws IOException {
    if (tokens.getNumberType() == JsonParser.NumberType.BIG_DECIMAL) {
      out.append(tokens.getDecimalValue().toString());
      return;
    }
    double value = tokens.getDoubleValue();
    if (Double.isNaN(value)) {
      out.append(".nan");
    } else if (Double.isInfinite(value)) {
      out.append(value > 0 ? ".inf" : "-.inf");
    } else if (tokens.getNumberType() == JsonParser.NumberType.FLOAT) {
      out.append(tokens.getFloatValue());
    } else {
      out.append(value);
    }
  }

  private void string(String text, int indent) {
    if (!QUOTING.needToQuoteValue(text)) {
      out.append(text);
    } else if (literalAllowed(text)) {
      literal(text, indent);
    } else {
      doubleQuoted(text);
    }
  }

  /**
   * A literal block carries a string exactly when it has a line break, does not start with a space
   * or a break, ends with at most one break, has no line ending in a space, and holds only
   * printable characters other than tab and YAML 1.1's extra line breaks.
   */
  private static boolean literalAllowed(String text) {
    int length = text.length();
    if (text.indexOf('\n') < 0 || text.charAt(0) == ' ' || text.charAt(0) == '\n') {
      return false;
    }
    if (length >= 2 && text.charAt(length - 1) == '\n' && text.charAt(length - 2) == '\n') {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        if (i > 0 && text.charAt(i - 1) == ' ') {
          return false;
        }
      } else if (!printable(text, i)) {
        return false;
      } else if (Character.isHighSurrogate(c)) {
        i++;
      }
    }
    return text.charAt(length - 1) != ' ';
  }

  private void literal(String text, int indent) {
    boolean trailingBreak = text.charAt(text.length() - 1) == '\n';
    out.append(trailingBreak ? "|" : "|-");
    int end = trailingBreak ? text.length() - 1 : text.length();
    int start = 0;
    while (start <= end) {
      int next = text.indexOf('\n', start);
      if (next < 0 || next > end) {
        next = end;
      }
      out.append('\n');
      if (next > start) {
        indent(indent);
        out.append(text, start, next);
      }
      start = next + 1;
    }
  }

  private void doubleQuoted(String text) {
    out.append('"');
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          continue;
        case '\\':
          out.append("\\\\");
          continue;
        case '\n':
          out.append("\\n");
          continue;
        case '\t':
          out.append("\\t");
          continue;
        case '\r':
          out.append("\\r");
          continue;
        default:
          break;
      }
      if (printable(text, i)) {
        out.append(c);
        if (Character.isHighSurrogate(c)) {
          out.append(text.charAt(++i));
        }
      } else {
        out.append("\\u")
            .append(HEX[(c >> 12) & 0xF])
            .append(HEX[(c >> 8) & 0xF])
            .append(HEX[(c >> 4) & 0xF])
            .append(HEX[c & 0xF]);
      }
    }
    out.append('"');
  }

  /**
   * Whether the character at {@code i} may appear as it is in a YAML 1.1 or 1.2 stream (a high
   * surrogate counts when a low one follows it); line breaks other than LF count as not printable.
   */
  private static boolean printable(String text, int i) {
    char c = text.charAt(i);
    if (c >= 0x20 && c <= 0x7E) {
      return true;
    }
    if (c < 0xA0) {
      return false;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return false;
    }
    return c != 0x2028 && c != 0x2029 && c != 0xFEFF && c != 0xFFFE && c != 0xFFFF;
  }
}
