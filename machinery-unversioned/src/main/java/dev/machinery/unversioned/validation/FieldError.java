package dev.machinery.unversioned.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One validation failure, as Kubernetes reports it ({@code field.Error}): the field's path, the
 * type of failure, the bad value and a detail. {@link #toString()} is Kubernetes' text, such as
 * {@code metadata.name: Invalid value: "My_Name": a lowercase RFC 1123 subdomain must consist of
 * ...}, and {@link #body()} the same without the path, which is what a Status cause carries.
 *
 * <p>Immutable (the bad value is held as given) and safe for concurrent use.
 */
public final class FieldError {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .build();

  /** The kinds of failure, with the wire names Kubernetes puts in {@code StatusCause.reason}. */
  public enum Type {
    /** A value that should exist does not: {@code FieldValueNotFound}. */
    NOT_FOUND("FieldValueNotFound", "Not found"),
    /** A required value is missing: {@code FieldValueRequired}. */
    REQUIRED("FieldValueRequired", "Required value"),
    /** A value that must be unique is repeated: {@code FieldValueDuplicate}. */
    DUPLICATE("FieldValueDuplicate", "Duplicate value"),
    /** A value is malformed or out of range: {@code FieldValueInvalid}. */
    INVALID("FieldValueInvalid", "Invalid value"),
    /** A value is not one of the supported ones: {@code FieldValueNotSupported}. */
    NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
    /** A value may not be set here: {@code FieldValueForbidden}. */
    FORBIDDEN("FieldValueForbidden", "Forbidden"),
    /** A value is too long: {@code FieldValueTooLong}. */
    TOO_LONG("FieldValueTooLong", "Too long"),
    /** A value is too short: {@code FieldValueTooShort}. */
    TOO_SHORT("FieldValueTooShort", "Too short"),
    /** A list has too many items: {@code FieldValueTooMany}. */
    TOO_MANY("FieldValueTooMany", "Too many"),
    /** A list has too few items: {@code FieldValueTooFew}. */
    TOO_FEW("FieldValueTooFew", "Too few"),
    /** Validation itself failed: {@code InternalError}. */
    INTERNAL("InternalError", "Internal error"),
    /** A value has the wrong type: {@code FieldValueTypeInvalid}. */
    TYPE_INVALID("FieldValueTypeInvalid", "Invalid value");

    private final String wireName;
    private final String text;

    Type(String wireName, String text) {
      this.wireName = wireName;
      this.text = text;
    }

    /**
     * Returns the name Kubernetes puts in {@code StatusCause.reason}.
     *
     * @return the wire name, such as {@code FieldValueInvalid}
     */
    public String wireName() {
      return wireName;
    }

    /**
     * Returns the words Kubernetes writes in messages.
     *
     * @return the text, such as {@code Invalid value}
     */
    public String text() {
      return text;
    }

    private boolean showsValue() {
      return switch (this) {
        case REQUIRED, FORBIDDEN, TOO_LONG, TOO_SHORT, INTERNAL -> false;
        default -> true;
      };
    }
  }

  private final Type type;
  private final String field;
  private final Object badValue;
  private final boolean valueOmitted;
  private final String detail;

  private FieldError(Type type, FieldPath field, Object badValue, boolean omitted, String detail) {
    this.type = Objects.requireNonNull(type, "type");
    this.field = Objects.requireNonNull(field, "field").toString();
    this.badValue = badValue;
    this.valueOmitted = omitted;
    this.detail = detail == null ? "" : detail;
  }

  /**
   * A malformed or out-of-range value ({@code field.Invalid}).
   *
   * @param field the field
   * @param value the bad value
   * @param detail why it is bad
   * @return the error
   */
  public static FieldError invalid(FieldPath field, Object value, String detail) {
    return new FieldError(Type.INVALID, field, value, false, detail);
  }

  /**
   * A missing required value ({@code field.Required}).
   *
   * @param field the field
   * @param detail more about what is required, or ""
   * @return the error
   */
  public static FieldError required(FieldPath field, String detail) {
    return new FieldError(Type.REQUIRED, field, "", false, detail);
  }

  /**
   * A value that was looked for and not found ({@code field.NotFound}).
   *
   * @param field the field
   * @param value the value not found
   * @return the error
   */
  public static FieldError notFound(FieldPath field, Object value) {
    return new FieldError(Type.NOT_FOUND, field, value, false, "");
  }

  /**
   * A repeated value that must be unique ({@code field.Duplicate}).
   *
   * @param field the field
   * @param value the repeated value
   * @return the error
   */
  public static FieldError duplicate(FieldPath field, Object value) {
    return new FieldError(Type.DUPLICATE, field, value, false, "");
  }

  /**
   * A value that is not one of those supported ({@code field.NotSupported}).
   *
   * @param field the field
   * @param value the bad value
   * @param supported the supported values, quoted in the detail
   * @return the error
   */
  public static FieldError notSupported(FieldPath field, Object value, List<String> supported) {
    String detail =
        supported.isEmpty()
            ? ""
            : "supported values: "
                + supported.stream().map(FieldError::quote).collect(Collectors.joining(", "));
    return new FieldError(Type.NOT_SUPPORTED, field, value, false, detail);
  }

  /**
   * A value that may not be set ({@code field.Forbidden}).
   *
   * @param field the field
   * @param detail why
   * @return the error
   */
  public static FieldError forbidden(FieldPath field, String detail) {
    return new FieldError(Type.FORBIDDEN, field, "", false, detail);
  }

  /**
   * A value longer than allowed, in bytes ({@code field.TooLong}); the value is not repeated.
   *
   * @param field the field
   * @param maxBytes the limit, or negative when there is no single limit
   * @return the error
   */
  public static FieldError tooLong(FieldPath field, int maxBytes) {
    String detail =
        maxBytes >= 0
            ? "may not be more than " + maxBytes + (maxBytes == 1 ? " byte" : " bytes")
            : "value is too long";
    return new FieldError(Type.TOO_LONG, field, "<value omitted>", false, detail);
  }

  /**
   * A list with more items than allowed ({@code field.TooMany}).
   *
   * @param field the field
   * @param actual how many there are, or negative to leave it out
   * @param max the limit, or negative when there is no single limit
   * @return the error
   */
  public static FieldError tooMany(FieldPath field, int actual, int max) {
    String detail =
        max >= 0
            ? "must have at most " + max + (max == 1 ? " item" : " items")
            : "has too many items";
    return new FieldError(Type.TOO_MANY, field, actual >= 0 ? actual : null, actual < 0, detail);
  }

  /**
   * A value of the wrong type ({@code field.TypeInvalid}).
   *
   * @param field the field
   * @param value the bad value
   * @param detail what was expected
   * @return the error
   */
  public static FieldError typeInvalid(FieldPath field, Object value, String detail) {
    return new FieldError(Type.TYPE_INVALID, field, value, false, detail);
  }

  /**
   * Validation itself failed ({@code field.InternalError}).
   *
   * @param field the field
   * @param cause what failed
   * @return the error
   */
  public static FieldError internal(FieldPath field, Throwable cause) {
    return new FieldError(Type.INTERNAL, field, cause, false, String.valueOf(cause.getMessage()));
  }

  /**
   * Returns the type of failure.
   *
   * @return the type
   */
  public Type type() {
    return type;
  }

  /**
   * Returns the field's path as Kubernetes writes it.
   *
   * @return the path, such as {@code metadata.labels}
   */
  public String field() {
    return field;
  }

  /**
   * Returns the bad value as given.
   *
   * @return the value, or null
   */
  public Object badValue() {
    return badValue;
  }

  /**
   * Returns why the value is bad.
   *
   * @return the detail, or ""
   */
  public String detail() {
    return detail;
  }

  /**
   * Returns the message without the path ({@code ErrorBody()}), as a Status cause carries it:
   * {@code Invalid value: "x": detail}.
   *
   * @return the body
   */
  public String body() {
    StringBuilder text = new StringBuilder(type.text());
    if (type.showsValue() && !valueOmitted) {
      text.append(": ").append(show(badValue));
    }
    if (!detail.isEmpty()) {
      text.append(": ").append(detail);
    }
    return text.toString();
  }

  /**
   * Returns Kubernetes' text: the path and the body.
   *
   * @return the text
   */
  @Override
  public String toString() {
    return field + ": " + body();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FieldError error && toString().equals(error.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /**
   * A value as Kubernetes prints it: numbers and booleans bare, strings quoted, the rest as JSON.
   */
  static String show(Object value) {
    if (value instanceof String text) {
      return quote(text);
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      return number == Math.rint(number) && Math.abs(number) < 1e21
          ? Long.toString((long) number)
          : Double.toString(number);
    }
    if (value instanceof Throwable failure) {
      return String.valueOf(failure.getMessage());
    }
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  /**
   * Quotes a string as Kubernetes' messages do (Go's {@code %q}): in double quotes, with quotes,
   * backslashes and control characters escaped.
   *
   * @param text the string
   * @return the quoted string
   */
  public static String quote(String text) {
    StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\t' -> quoted.append("\\t");
        case '\r' -> quoted.append("\\r");
        case 0x07 -> quoted.append("\\a");
        case '\b' -> quoted.append("\\b");
        case '\f' -> quoted.append("\\f");
        case 0x0b -> quoted.append("\\v");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            quoted.append(String.format("\\x%02x", c));
          } else if (Character.isSurrogate((char) c)) {
            quoted.append("\\ufffd");
          } else if (Character.isISOControl(c)
              || Character.getType(c) == Character.FORMAT
              || Character.getType(c) == Character.UNASSIGNED) {
            quoted.append(c > 0xffff ? String.format("\\U%08x", c) : String.format("\\u%04x", c));
          } else {
            quoted.appendCodePoint(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }

  /**
   * Kubernetes' text of a list of errors ({@code ToAggregate().Error()}): one error as it is,
   * several in brackets joined by ", ", repeats left out.
   *
   * @param errors the errors
   * @return the text, or "" for none
   */
  public static String aggregate(List<FieldError> errors) {
    List<String> messages = errors.stream().map(FieldError::toString).distinct().toList();
    if (messages.size() == 1) {
      return messages.get(0);
    }
    return messages.isEmpty() ? "" : "[" + String.join(", ", messages) + "]";
  }
}
