package dev.machinery.core.fieldpath;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code FieldsV1} form of one path element: {@code f:} and the field name as it is, {@code k:}
 * and the key as a JSON object, {@code v:} and the value as JSON, {@code i:} and the index in
 * decimal.
 */
final class PathElementText {
  private PathElementText() {}

  static String serialize(PathElement element) {
    StringBuilder out = new StringBuilder();
    if (element instanceof PathElement.Field f) {
      out.append("f:").append(f.name());
    } else if (element instanceof PathElement.Key k) {
      out.append("k:{");
      List<PathElement.KeyField> fields = k.fields();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        GoText.writeString(out, fields.get(i).name(), false);
        out.append(':');
        Values.writeJson(out, fields.get(i).value());
      }
      out.append('}');
    } else if (element instanceof PathElement.Value v) {
      out.append("v:");
      Values.writeJson(out, v.value());
    } else {
      out.append("i:").append(((PathElement.Index) element).index());
    }
    return out.toString();
  }

  /**
   * Reads an element; returns null for an element of an unknown kind if {@code unknownIsError} is
   * false (a field set drops those, as kube-apiserver does).
   *
   * <p>{@code offset} is where the element is in the input, for the exception (-1 if there is no
   * larger input); {@code where} begins the message.
   */
  static PathElement parse(
      String text, FieldsV1Limits limits, int offset, boolean unknownIsError, String where) {
    if (text.length() < 2) {
      throw malformed(offset, where, text, "expected a kind and a colon, like \"f:name\"");
    }
    if (text.charAt(1) != ':') {
      throw malformed(offset, where, text, "expected a colon after the kind, like \"f:name\"");
    }
    String body = text.substring(2);
    switch (text.charAt(0)) {
      case 'f':
        return PathElement.field(body);
      case 'i':
        return new PathElement.Index(index(body, offset, where, text));
      case 'v':
        return new PathElement.Value(json(body, limits, offset, where, text, null));
      case 'k':
        List<PathElement.KeyField> fields = new ArrayList<>();
        json(body, limits, offset, where, text, fields);
        return new PathElement.Key(fields);
      default:
        if (unknownIsError) {
          throw malformed(
              offset,
              where,
              text,
              "unknown kind \"" + text.charAt(0) + "\": expected f, k, v or i");
        }
        return null;
    }
  }

  // Go's strconv.Atoi: an optional sign and decimal digits, nothing else, within 64 bits.
  private static long index(String body, int offset, String where, String text) {
    int start = body.startsWith("+") || body.startsWith("-") ? 1 : 0;
    boolean digits = body.length() > start;
    for (int i = start; i < body.length(); i++) {
      digits &= body.charAt(i) >= '0' && body.charAt(i) <= '9';
    }
    if (!digits) {
      throw malformed(offset, where, text, "the index is not an integer");
    }
    try {
      return Long.parseLong(body);
    } catch (NumberFormatException e) {
      throw malformed(offset, where, text, "the index is out of the 64-bit range");
    }
  }

  // Reads the JSON of a value, or with fields, of a key (an object, or null for no fields).
  private static JsonNode json(
      String body,
      FieldsV1Limits limits,
      int offset,
      String where,
      String text,
      List<PathElement.KeyField> fields) {
    JsonText json = new JsonText(body, limits.maxDepth());
    try {
      JsonNode node = null;
      if (fields == null) {
        node = json.readValue(0);
      } else if (json.peek() == '{') {
        json.readObject(1, (name, value) -> fields.add(new PathElement.KeyField(name, value)));
      } else if (!json.consumeNull()) {
        json.readValue(0);
        throw malformed(offset, where, text, "a key must be a JSON object");
      }
      json.expectEnd("the JSON value");
      return node;
    } catch (JsonText.Problem p) {
      String detail = p.getMessage() + " at character " + (p.position + 2) + " of the element";
      if (p.tooLarge) {
        throw new FieldPathException(
            FieldPathException.Kind.TOO_LARGE, offset, message(where, text, detail));
      }
      throw malformed(offset, where, text, detail);
    }
  }

  private static FieldPathException malformed(
      int offset, String where, String text, String detail) {
    return new FieldPathException(
        FieldPathException.Kind.MALFORMED, offset, message(where, text, detail));
  }

  private static String message(String where, String text, String detail) {
    StringBuilder b = new StringBuilder(where).append("path element ");
    GoText.writeString(b, text.length() > 64 ? text.substring(0, 61) + "..." : text, false);
    return b.append(": ").append(detail).toString();
  }
}
