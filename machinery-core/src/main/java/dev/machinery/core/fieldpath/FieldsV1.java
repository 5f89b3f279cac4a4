package dev.machinery.core.fieldpath;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads and writes field sets in the {@code FieldsV1} JSON of {@code managedFields}, as
 * kube-apiserver does: {@code {"f:metadata":{"f:labels":{"f:app":{}}}}}.
 *
 * <p>Each key is a serialized {@link PathElement} ({@code f:}, {@code k:}, {@code v:}, {@code i:})
 * whose object holds the paths below it; an element that is a member and has paths below it also
 * has the key {@code "."}. Writing gives kube-apiserver's bytes exactly: no whitespace, entries in
 * the order of the elements, {@code "."} first, key and value JSON escaped and numbers formatted as
 * Go does. Reading accepts whitespace and any order, drops entries of unknown kinds, reads a {@code
 * null} entry as {@code {}}, and reads numbers in keys and values as doubles, as Go does; so
 * writing what was read gives kube-apiserver's normal form of the input.
 *
 * <p>Bad input is a {@link FieldPathException} naming the offset and the path being read, and input
 * beyond the {@link FieldsV1Limits} is refused. Stateless and safe to use from any thread.
 */
public final class FieldsV1 {
  private FieldsV1() {}

  /**
   * Reads a field set from UTF-8 JSON within the default limits.
   *
   * @param json the JSON
   * @return the set
   * @throws FieldPathException if the JSON is not a valid field set or is beyond the limits
   */
  public static FieldSet parse(byte[] json) {
    return parse(json, FieldsV1Limits.DEFAULTS);
  }

  /**
   * Reads a field set from UTF-8 JSON within limits.
   *
   * @param json the JSON
   * @param limits the limits
   * @return the set
   * @throws FieldPathException if the JSON is not a valid field set or is beyond the limits
   */
  public static FieldSet parse(byte[] json, FieldsV1Limits limits) {
    if (json.length > limits.maxLength()) {
      throw tooLong(json.length + " bytes", limits);
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(json);
    CharBuffer out = CharBuffer.allocate(json.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new FieldPathException(
          FieldPathException.Kind.MALFORMED,
          -1,
          "invalid FieldsV1 at byte " + in.position() + ": the input is not UTF-8");
    }
    decoder.flush(out);
    return FieldsV1Reader.read(out.flip().toString(), limits);
  }

  /**
   * Reads a field set from JSON text within the default limits.
   *
   * @param json the JSON
   * @return the set
   * @throws FieldPathException if the JSON is not a valid field set or is beyond the limits
   */
  public static FieldSet parse(String json) {
    return parse(json, FieldsV1Limits.DEFAULTS);
  }

  /**
   * Reads a field set from JSON text within limits.
   *
   * @param json the JSON
   * @param limits the limits
   * @return the set
   * @throws FieldPathException if the JSON is not a valid field set or is beyond the limits
   */
  public static FieldSet parse(String json, FieldsV1Limits limits) {
    if (json.length() > limits.maxLength()) {
      throw tooLong(json.length() + " characters", limits);
    }
    return FieldsV1Reader.read(json, limits);
  }

  private static FieldPathException tooLong(String length, FieldsV1Limits limits) {
    return new FieldPathException(
        FieldPathException.Kind.TOO_LARGE,
        -1,
        "FieldsV1 of " + length + " is longer than the limit of " + limits.maxLength());
  }

  /**
   * Writes a field set as kube-apiserver does.
   *
   * @param set the set
   * @return the JSON text
   */
  public static String toJson(FieldSet set) {
    StringBuilder out = new StringBuilder().append('{');
    emit(set, false, out);
    return out.append('}').toString();
  }

  /**
   * Writes a field set as kube-apiserver does, in UTF-8.
   *
   * @param set the set
   * @return the JSON bytes
   */
  public static byte[] toBytes(FieldSet set) {
    return toJson(set).getBytes(StandardCharsets.UTF_8);
  }

  // The entries of a level: members and children merged in order, a member with children as
  // an object that starts with ".".
  private static void emit(FieldSet set, boolean self, StringBuilder out) {
    boolean first = true;
    if (self && !set.isEmpty()) {
      out.append("\".\":{}");
      first = false;
    }
    PathElement[] members = set.members;
    PathElement[] elements = set.childElements;
    int m = 0;
    int c = 0;
    while (m < members.length || c < elements.length) {
      int order =
          m >= members.length ? 1 : c >= elements.length ? -1 : members[m].compareTo(elements[c]);
      if (!first) {
        out.append(',');
      }
      first = false;
      PathElement element = order <= 0 ? members[m] : elements[c];
      GoText.writeString(out, element.serialize(), false);
      out.append(":{");
      if (order >= 0) {
        emit(set.childSets[c], order == 0, out);
        c++;
      }
      if (order <= 0) {
        m++;
      }
      out.append('}');
    }
  }
}
