package dev.machinery.core.fieldpath;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.function.BiConsumer;

/**
 * A strict JSON reader over a string with a position, for {@code FieldsV1} and the JSON inside its
 * path elements. Numbers read as doubles (as Go reads JSON into {@code interface{}}); an escaped
 * lone surrogate reads as U+FFFD; nesting is bounded. Problems are {@link Problem}s with the
 * position, for the caller to put in context.
 */
final class JsonText {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String text;
  private final int maxDepth;
  private int pos;

  JsonText(String text, int maxDepth) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  /** A problem at a position of the text; tooLarge if a limit was exceeded. */
  static final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int position;
    final boolean tooLarge;

    Problem(int position, String message, boolean tooLarge) {
      super(message, null, false, false);
      this.position = position;
      this.tooLarge = tooLarge;
    }
  }

  int position() {
    return pos;
  }

  Problem problem(String message) {
    return new Problem(pos, message, false);
  }

  void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  boolean atEnd() {
    return pos >= text.length();
  }

  /** The next character after whitespace, or -1 at the end. */
  int peek() {
    skipWhitespace();
    return pos < text.length() ? text.charAt(pos) : -1;
  }

  /** Consumes the next character after whitespace if it is {@code c}. */
  boolean consume(char c) {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  void expect(char c, String what) {
    if (!consume(c)) {
      throw problem("expected " + what + ", found " + found());
    }
  }

  /** Reads {@code null} if it comes next. */
  boolean consumeNull() {
    if (peek() == 'n' && text.startsWith("null", pos)) {
      pos += 4;
      return true;
    }
    return false;
  }

  /** Fails unless only whitespace is left. */
  void expectEnd(String what) {
    if (peek() != -1) {
      throw problem("unexpected " + found() + " after " + what);
    }
  }

  String found() {
    if (pos >= text.length()) {
      return "the end of the input";
    }
    int cp = text.codePointAt(pos);
    if (cp < 0x20 || cp == 0x7F) {
      return String.format(java.util.Locale.ROOT, "U+%04X", cp);
    }
    return "'" + new String(Character.toChars(cp)) + "'";
  }

  void enter(int depth) {
    if (depth > maxDepth) {
      throw new Problem(pos, "the JSON is nested deeper than " + maxDepth + " levels", true);
    }
  }

  /** Reads any JSON value; {@code depth} counts the objects and arrays around it. */
  JsonNode readValue(int depth) {
    int c = peek();
    switch (c) {
      case '{':
        return readObject(depth + 1);
      case '[':
        return readArray(depth + 1);
      case '"':
        return TextNode.valueOf(readString());
      case 't':
        return literal("true", BooleanNode.TRUE);
      case 'f':
        return literal("false", BooleanNode.FALSE);
      case 'n':
        return literal("null", NullNode.instance);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw problem("expected a JSON value, found " + found());
    }
  }

  private JsonNode literal(String word, JsonNode node) {
    if (!text.startsWith(word, pos)) {
      throw problem("expected a JSON value, found " + found());
    }
    pos += word.length();
    return node;
  }

  private ObjectNode readObject(int depth) {
    ObjectNode object = NODES.objectNode();
    readObject(depth, object::set);
    return object;
  }

  /**
   * Reads an object entry by entry, keeping entries of the same key; the next character must be its
   * opening brace. {@code depth} counts the object.
   */
  void readObject(int depth, BiConsumer<String, JsonNode> entries) {
    enter(depth);
    pos++;
    if (consume('}')) {
      return;
    }
    do {
      if (peek() != '"') {
        throw problem("expected a string key, found " + found());
      }
      String key = readString();
      expect(':', "':' after an object key");
      entries.accept(key, readValue(depth));
    } while (consume(','));
    expect('}', "',' or '}' after an object entry");
  }

  private ArrayNode readArray(int depth) {
    enter(depth);
    pos++;
    ArrayNode array = NODES.arrayNode();
    if (consume(']')) {
      return array;
    }
    do {
      array.add(readValue(depth));
    } while (consume(','));
    expect(']', "',' or ']' after an array element");
    return array;
  }

  private JsonNode readNumber() {
    int start = pos;
    if (text.charAt(pos) == '-') {
      pos++;
    }
    int integer = pos;
    int count = digits();
    if (count == 0) {
      throw problem("expected a digit in a number, found " + found());
    }
    if (count > 1 && text.charAt(integer) == '0') {
      pos = integer;
      throw problem("a number must not have a leading zero");
    }
    if (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      if (digits() == 0) {
        throw problem("expected a digit after the decimal point, found " + found());
      }
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      pos++;
      if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
        pos++;
      }
      if (digits() == 0) {
        throw problem("expected a digit in the exponent, found " + found());
      }
    }
    String number = text.substring(start, pos);
    double d = Double.parseDouble(number);
    if (Double.isInfinite(d)) {
      pos = start;
      throw problem("number " + number + " is out of the range of a double");
    }
    return DoubleNode.valueOf(d);
  }

  private int digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos - start;
  }

  /** Reads a string; the next character must be its opening quote. */
  String readString() {
    pos++;
    StringBuilder b = null;
    int run = pos;
    while (true) {
      if (pos >= text.length()) {
        throw problem("the string is not closed");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        String s = b == null ? text.substring(run, pos) : b.append(text, run, pos).toString();
        pos++;
        return s;
      }
      if (c < 0x20) {
        throw problem("control character " + found() + " in a string must be escaped");
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      if (b == null) {
        b = new StringBuilder();
      }
      b.append(text, run, pos);
      pos++;
      b.append(escape());
      run = pos;
    }
  }

  private String escape() {
    if (pos >= text.length()) {
      throw problem("the string is not closed");
    }
    char c = text.charAt(pos++);
    switch (c) {
      case '"':
      case '\\':
      case '/':
        return String.valueOf(c);
      case 'b':
        return "\b";
      case 'f':
        return "\f";
      case 'n':
        return "\n";
      case 'r':
        return "\r";
      case 't':
        return "\t";
      case 'u':
        char unit = hex4();
        if (Character.isHighSurrogate(unit)
            && text.startsWith("\\u", pos)
            && pos + 6 <= text.length()) {
          int save = pos;
          pos += 2;
          char low = hex4();
          if (Character.isLowSurrogate(low)) {
            return new String(new char[] {unit, low});
          }
          pos = save;
        }
        return Character.isSurrogate(unit) ? "\ufffd" : String.valueOf(unit);
      default:
        pos--;
        throw problem("invalid escape '\\" + c + "' in a string");
    }
  }

  private char hex4() {
    if (pos + 4 > text.length()) {
      throw problem("expected four hexadecimal digits after \\u");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos + i), 16);
      if (digit < 0 || text.charAt(pos + i) > 'f') {
        throw problem("expected four hexadecimal digits after \\u");
      }
      value = value * 16 + digit;
    }
    pos += 4;
    return (char) value;
  }
}
