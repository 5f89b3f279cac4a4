package dev.machinery.apiserver.endpoints;

import java.util.Optional;

/**
 * The error Go's {@code encoding/json} (and {@code sigs.k8s.io/json}, its fork that kube-apiserver
 * decodes patches with) gives for a document read into a {@code map[string]interface{}}: its
 * scanner's syntax errors, word for word ({@code invalid character 'b' looking for beginning of
 * object key string}, {@code unexpected end of JSON input}, ...), found by the same state machine,
 * and the type error of a document that is valid JSON but not an object ({@code json: cannot
 * unmarshal array into Go value of type map[string]interface {}}). A {@code null} document is no
 * error: Go reads it into no map.
 *
 * <p>Stateless; safe to use from any thread.
 */
final class GoJsonErrors {
  /** How deep Go's scanner lets values nest. */
  private static final int MAX_NESTING_DEPTH = 10_000;

  private GoJsonErrors() {}

  /**
   * The error reading a document into a map gives, if any.
   *
   * @param json the document
   * @return Go's message, or empty when Go reads the document
   */
  static Optional<String> unmarshalIntoMap(byte[] json) {
    Optional<String> syntax = new Scanner(json).check();
    if (syntax.isPresent()) {
      return syntax;
    }
    int first = 0;
    while (isSpace(json[first])) {
      first++;
    }
    String type =
        switch (json[first]) {
          case '{', 'n' -> null;
          case '[' -> "array";
          case '"' -> "string";
          case 't', 'f' -> "bool";
          default -> "number";
        };
    return type == null
        ? Optional.empty()
        : Optional.of(
            "json: cannot unmarshal " + type + " into Go value of type map[string]interface {}");
  }

  private static boolean isSpace(int c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  /** Go's scanner: one state a byte, a stack of the objects and arrays the value is in. */
  private static final class Scanner {
    private enum State {
      BEGIN_VALUE,
      BEGIN_VALUE_OR_EMPTY,
      BEGIN_STRING_OR_EMPTY,
      BEGIN_STRING,
      END_VALUE,
      END_TOP,
      IN_STRING,
      IN_STRING_ESC,
      IN_STRING_ESC_U,
      IN_STRING_ESC_U1,
      IN_STRING_ESC_U12,
      IN_STRING_ESC_U123,
      NEG,
      ONE,
      ZERO,
      DOT,
      DOT0,
      E,
      E_SIGN,
      E0,
      T,
      TR,
      TRU,
      F,
      FA,
      FAL,
      FALS,
      N,
      NU,
      NUL
    }

    private static final byte OBJECT_KEY = 0;
    private static final byte OBJECT_VALUE = 1;
    private static final byte ARRAY_VALUE = 2;

    private final byte[] json;
    private final byte[] stack = new byte[MAX_NESTING_DEPTH + 1];
    private int depth;
    private State state = State.BEGIN_VALUE;
    private String error;

    Scanner(byte[] json) {
      this.json = json;
    }

    Optional<String> check() {
      for (byte b : json) {
        step(b & 0xff);
        if (error != null) {
          return Optional.of(error);
        }
      }
      // Go's eof: a number at the end is complete once a space follows it.
      if (state != State.END_TOP) {
        step(' ');
        if (state != State.END_TOP && error == null) {
          return Optional.of("unexpected end of JSON input");
        }
      }
      return Optional.ofNullable(error);
    }

    private void fail(int c, String context) {
      state = State.END_TOP;
      error = "invalid character " + quoteChar(c) + " " + context;
    }

    private void push(int c, byte kind) {
      if (depth == MAX_NESTING_DEPTH) {
        fail(c, "exceeded max depth");
        return;
      }
      stack[depth++] = kind;
    }

    private void step(int c) {
      switch (state) {
        case BEGIN_VALUE_OR_EMPTY -> {
          if (isSpace(c)) {
            return;
          }
          if (c == ']') {
            endValue(c);
            return;
          }
          beginValue(c);
        }
        case BEGIN_VALUE -> beginValue(c);
        case BEGIN_STRING_OR_EMPTY -> {
          if (isSpace(c)) {
            return;
          }
          if (c == '}') {
            stack[depth - 1] = OBJECT_VALUE;
            endValue(c);
            return;
          }
          beginString(c);
        }
        case BEGIN_STRING -> beginString(c);
        case END_VALUE -> endValue(c);
        case END_TOP -> {
          if (!isSpace(c)) {
            fail(c, "after top-level value");
          }
        }
        case IN_STRING -> {
          if (c == '"') {
            state = State.END_VALUE;
          } else if (c == '\\') {
            state = State.IN_STRING_ESC;
          } else if (c < 0x20) {
            fail(c, "in string literal");
          }
        }
        case IN_STRING_ESC -> {
          switch (c) {
            case 'b', 'f', 'n', 'r', 't', '\\', '/', '"' -> state = State.IN_STRING;
            case 'u' -> state = State.IN_STRING_ESC_U;
            default -> fail(c, "in string escape code");
          }
        }
        case IN_STRING_ESC_U -> hex(c, State.IN_STRING_ESC_U1);
        case IN_STRING_ESC_U1 -> hex(c, State.IN_STRING_ESC_U12);
        case IN_STRING_ESC_U12 -> hex(c, State.IN_STRING_ESC_U123);
        case IN_STRING_ESC_U123 -> hex(c, State.IN_STRING);
        case NEG -> {
          if (c == '0') {
            state = State.ZERO;
          } else if (c >= '1' && c <= '9') {
            state = State.ONE;
          } else {
            fail(c, "in numeric literal");
          }
        }
        case ONE -> {
          if (c < '0' || c > '9') {
            zero(c);
          }
        }
        case ZERO -> zero(c);
        case DOT -> {
          if (c >= '0' && c <= '9') {
            state = State.DOT0;
          } else {
            fail(c, "after decimal point in numeric literal");
          }
        }
        case DOT0 -> {
          if (c == 'e' || c == 'E') {
            state = State.E;
          } else if (c < '0' || c > '9') {
            endValue(c);
          }
        }
        case E -> {
          if (c == '+' || c == '-') {
            state = State.E_SIGN;
          } else {
            eSign(c);
          }
        }
        case E_SIGN -> eSign(c);
        case E0 -> {
          if (c < '0' || c > '9') {
            endValue(c);
          }
        }
        case T -> literal(c, 'r', State.TR, "in literal true (expecting 'r')");
        case TR -> literal(c, 'u', State.TRU, "in literal true (expecting 'u')");
        case TRU -> literal(c, 'e', State.END_VALUE, "in literal true (expecting 'e')");
        case F -> literal(c, 'a', State.FA, "in literal false (expecting 'a')");
        case FA -> literal(c, 'l', State.FAL, "in literal false (expecting 'l')");
        case FAL -> literal(c, 's', State.FALS, "in literal false (expecting 's')");
        case FALS -> literal(c, 'e', State.END_VALUE, "in literal false (expecting 'e')");
        case N -> literal(c, 'u', State.NU, "in literal null (expecting 'u')");
        case NU -> literal(c, 'l', State.NUL, "in literal null (expecting 'l')");
        case NUL -> literal(c, 'l', State.END_VALUE, "in literal null (expecting 'l')");
      }
    }

    private void beginValue(int c) {
      if (isSpace(c)) {
        return;
      }
      switch (c) {
        case '{' -> {
          state = State.BEGIN_STRING_OR_EMPTY;
          push(c, OBJECT_KEY);
        }
        case '[' -> {
          state = State.BEGIN_VALUE_OR_EMPTY;
          push(c, ARRAY_VALUE);
        }
        case '"' -> state = State.IN_STRING;
        case '-' -> state = State.NEG;
        case '0' -> state = State.ZERO;
        case 't' -> state = State.T;
        case 'f' -> state = State.F;
        case 'n' -> state = State.N;
        default -> {
          if (c >= '1' && c <= '9') {
            state = State.ONE;
          } else {
            fail(c, "looking for beginning of value");
          }
        }
      }
    }

    private void beginString(int c) {
      if (isSpace(c)) {
        return;
      }
      if (c == '"') {
        state = State.IN_STRING;
      } else {
        fail(c, "looking for beginning of object key string");
      }
    }

    private void endValue(int c) {
      if (depth == 0) {
        state = State.END_TOP;
        step(c);
        return;
      }
      if (isSpace(c)) {
        state = State.END_VALUE;
        return;
      }
      switch (stack[depth - 1]) {
        case OBJECT_KEY -> {
          if (c == ':') {
            stack[depth - 1] = OBJECT_VALUE;
            state = State.BEGIN_VALUE;
          } else {
            fail(c, "after object key");
          }
        }
        case OBJECT_VALUE -> {
          if (c == ',') {
            stack[depth - 1] = OBJECT_KEY;
            state = State.BEGIN_STRING;
          } else if (c == '}') {
            depth--;
            state = depth == 0 ? State.END_TOP : State.END_VALUE;
          } else {
            fail(c, "after object key:value pair");
          }
        }
        default -> {
          if (c == ',') {
            state = State.BEGIN_VALUE;
          } else if (c == ']') {
            depth--;
            state = depth == 0 ? State.END_TOP : State.END_VALUE;
          } else {
            fail(c, "after array element");
          }
        }
      }
    }

    private void zero(int c) {
      if (c == '.') {
        state = State.DOT;
      } else if (c == 'e' || c == 'E') {
        state = State.E;
      } else {
        endValue(c);
      }
    }

    private void eSign(int c) {
      if (c >= '0' && c <= '9') {
        state = State.E0;
      } else {
        fail(c, "in exponent of numeric literal");
      }
    }

    private void hex(int c, State next) {
      if (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
        state = next;
      } else {
        fail(c, "in \\u hexadecimal character escape");
      }
    }

    private void literal(int c, int expected, State next, String context) {
      if (c == expected) {
        state = next;
      } else {
        fail(c, context);
      }
    }
  }

  /**
   * A byte as Go's scanner quotes it: {@code '\''} and {@code '"'}, else the byte read as a code
   * point and quoted as {@code strconv.Quote} quotes it, between single quotes.
   */
  static String quoteChar(int c) {
    if (c == '\'') {
      return "'\\''";
    }
    if (c == '"') {
      return "'\"'";
    }
    String quoted =
        switch (c) {
          case 0x07 -> "\\a";
          case '\b' -> "\\b";
          case '\f' -> "\\f";
          case '\n' -> "\\n";
          case '\r' -> "\\r";
          case '\t' -> "\\t";
          case 0x0b -> "\\v";
          case '\\' -> "\\\\";
          default -> {
            if (c < 0x20 || c == 0x7f) {
              yield String.format("\\x%02x", c);
            }
            yield printable(c) ? String.valueOf((char) c) : String.format("\\u%04x", c);
          }
        };
    return "'" + quoted + "'";
  }

  /**
   * Go's strconv.IsPrint for the code points a byte can be: letters, marks, numbers, punctuation,
   * symbols and the ASCII space.
   */
  private static boolean printable(int c) {
    if (c < 0x80) {
      return true;
    }
    return switch (Character.getType(c)) {
      case Character.SPACE_SEPARATOR,
          Character.CONTROL,
          Character.FORMAT,
          Character.UNASSIGNED,
          Character.PRIVATE_USE,
          Character.SURROGATE,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR ->
          false;
      default -> true;
    };
  }
}
