package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.machinery.core.internal.FieldPaths;
import dev.machinery.core.internal.Messages;
import java.io.IOException;
import java.util.Collection;

/**
 * Turns what Jackson throws while reading a document into the library's {@link DecodeException}s:
 * the field path (from the parser, which knows positions inside untyped values), line and column,
 * the offending value and what was expected, Jackson's generic wording replaced and a
 * deserializer's own message kept; a broken stream constraint becomes a {@link
 * LimitExceededException} naming the library's limit. Stateless.
 */
final class JacksonErrors {
  private JacksonErrors() {}

  private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return null;
  }

  static DecodeException translate(IOException thrown, JsonParser p, CodecLimits limits) {
    DecodeException ours = findCause(thrown, DecodeException.class);
    if (ours != null) {
      return ours;
    }
    // Jackson wraps parser failures met inside a deserializer; classify by the innermost one.
    IOException e = thrown;
    StreamConstraintsException limit = findCause(thrown, StreamConstraintsException.class);
    JsonParseException syntax = findCause(thrown, JsonParseException.class);
    if (limit != null) {
      e = limit;
    } else if (syntax != null) {
      e = syntax;
    }
    JsonLocation location =
        e instanceof JsonProcessingException ? ((JsonProcessingException) e).getLocation() : null;
    int line = location == null ? 0 : Math.max(location.getLineNr(), 0);
    int column = location == null ? 0 : Math.max(location.getColumnNr(), 0);
    String where = line > 0 ? " (line " + line + ", column " + column + ")" : "";
    if (e instanceof StreamConstraintsException) {
      return limitExceeded((StreamConstraintsException) e, p, line, column, where, limits);
    }
    if (e instanceof JsonMappingException) {
      JsonMappingException mapping = (JsonMappingException) e;
      String path = FieldPaths.of(mapping.getPath());
      if (p != null) {
        // The parser knows positions inside untyped values, which Jackson's path omits.
        String parserPath = FieldPaths.of(p.getParsingContext());
        if (parserPath.startsWith(path)) {
          path = parserPath;
        }
      }
      String detail;
      String original = String.valueOf(mapping.getOriginalMessage());
      if (e instanceof InvalidFormatException && original.startsWith("expected a finite")) {
        detail = mapping.getOriginalMessage();
      } else if (e instanceof InvalidFormatException
          && (original.startsWith("Cannot deserialize value of type") || !isJacksonsOwn(original))
          && p != null
          && p.currentToken() != null) {
        detail = "invalid value " + describe(p) + ": " + Messages.sanitize(reason(original));
      } else if (e instanceof MismatchedInputException && !isJacksonsOwn(original)) {
        // A deserializer's own words (a third party's, or the library's value types) say more.
        detail = Messages.sanitize(original);
      } else if (e instanceof MismatchedInputException
          && ((MismatchedInputException) e).getTargetType() != null
          && p != null
          && p.currentToken() != null) {
        detail =
            "expected "
                + expectedName(((MismatchedInputException) e).getTargetType())
                + ", found "
                + describe(p);
      } else {
        detail = Messages.sanitize(mapping.getOriginalMessage());
      }
      return new DecodeException(
          (path.isEmpty() ? "the document" : "field " + quote(path)) + ": " + detail + where,
          path,
          line,
          column,
          e);
    }
    String path = p == null ? "" : FieldPaths.of(p.getParsingContext());
    if (e instanceof InputCoercionException) {
      return new DecodeException(
          "field "
              + quote(path)
              + ": "
              + Messages.sanitize(((InputCoercionException) e).getOriginalMessage())
              + where,
          path,
          line,
          column,
          e);
    }
    if (e instanceof JsonProcessingException) {
      return new DecodeException(
          "malformed JSON"
              + where
              + ": "
              + Messages.sanitize(((JsonProcessingException) e).getOriginalMessage()),
          path,
          line,
          column,
          e);
    }
    return new DecodeException(
        "could not read the body: " + Messages.sanitize(e.getMessage()), path, line, column, e);
  }

  /** Whether a mapping message is one of Jackson's generic ones, which the codec rewords. */
  private static boolean isJacksonsOwn(String message) {
    return message.startsWith("Cannot deserialize")
        || message.startsWith("Cannot coerce")
        || message.startsWith("Cannot construct")
        || message.startsWith("Unexpected token");
  }

  /**
   * The reason in an invalid-value message: Jackson writes {@code Cannot deserialize value of type
   * X from String "v": reason}; a deserializer's own message is the reason itself.
   */
  private static String reason(String message) {
    if (message.startsWith("Cannot deserialize value of type")) {
      int from = message.indexOf(" from ");
      int colon = from < 0 ? -1 : message.indexOf("\": ", from);
      if (colon > 0) {
        return message.substring(colon + 3);
      }
    }
    return message;
  }

  private static LimitExceededException limitExceeded(
      StreamConstraintsException e,
      JsonParser p,
      int line,
      int column,
      String where,
      CodecLimits limits) {
    String message = String.valueOf(e.getOriginalMessage());
    String path = p == null ? "" : FieldPaths.of(p.getParsingContext());
    // Jackson names the constraint it enforced by its accessor; the value is our own setting.
    Object[][] known = {
      {
        "getMaxNestingDepth",
        "maxNestingDepth",
        "the document nests deeper than the limit",
        (long) limits.maxNestingDepth()
      },
      {
        "getMaxStringLength",
        "maxStringLength",
        "a string is longer than the limit",
        (long) limits.maxStringLength()
      },
      {
        "getMaxNumberLength",
        "maxNumberLength",
        "a number is longer than the limit",
        (long) limits.maxNumberLength()
      },
      {
        "getMaxNameLength",
        "maxNameLength",
        "a field name is longer than the limit",
        (long) limits.maxNameLength()
      },
      {
        "getMaxTokenCount",
        "maxTokenCount",
        "the document has more tokens than the limit",
        limits.maxTokenCount()
      },
      {
        "getMaxDocumentLength",
        "maxJsonBytes",
        "the body is larger than the limit",
        (long) limits.maxJsonBytes()
      },
    };
    for (Object[] limit : known) {
      if (message.contains((String) limit[0])) {
        long maximum = (Long) limit[3];
        return new LimitExceededException(
            (String) limit[1],
            maximum,
            limit[2] + " " + limit[1] + " (" + maximum + ")" + where,
            path,
            line,
            column);
      }
    }
    return new LimitExceededException(
        "unknown",
        -1,
        "the document breaks a limit: " + Messages.sanitize(message) + where,
        path,
        line,
        column);
  }

  private static String expectedName(Class<?> type) {
    if (type == int.class
        || type == Integer.class
        || type == short.class
        || type == Short.class
        || type == byte.class
        || type == Byte.class) {
      return "an integer (" + type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + ")";
    }
    if (type == long.class || type == Long.class || type == java.math.BigInteger.class) {
      return "an integer (" + type.getSimpleName().toLowerCase(java.util.Locale.ROOT) + ")";
    }
    if (type == double.class
        || type == Double.class
        || type == float.class
        || type == Float.class
        || type == java.math.BigDecimal.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "a boolean";
    }
    if (type == String.class || type.isEnum()) {
      return "a string";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "an array";
    }
    return "an object";
  }

  static String describe(JsonParser p) {
    try {
      return describeToken(p);
    } catch (IOException e) {
      return "an unreadable value";
    }
  }

  private static String describeToken(JsonParser p) throws IOException {
    JsonToken token = p.currentToken();
    if (token == null) {
      return "the end of the input";
    }
    switch (token) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "string " + quote(p.getText());
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "number " + quote(p.getText());
      case VALUE_TRUE:
        return "boolean true";
      case VALUE_FALSE:
        return "boolean false";
      case VALUE_NULL:
        return "null";
      case FIELD_NAME:
        return "field " + quote(p.currentName());
      default:
        return token.asString() == null ? token.name() : quote(token.asString());
    }
  }

  static void closeQuietly(JsonParser p) {
    if (p != null) {
      try {
        p.close();
      } catch (IOException ignored) {
        // Closing an in-memory parser cannot fail in a way the caller could act on.
      }
    }
  }
}
