package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a body that holds several objects: the byte spans of concatenated JSON objects or of
 * a {@code v1 List}'s items, found by skipping over each object once without binding it, and the
 * place of a failing object for messages ("document 2 of 3, item 4 of 7 of the List"). Stateless.
 */
final class DocumentStreams {
  private DocumentStreams() {}

  /** Where a failing object stands in a stream, for messages: empty for a lone object. */
  static String where(int document, int documents, int item, int items) {
    String inStream = documents > 1 ? "document " + (document + 1) + " of " + documents : "";
    if (items < 0) {
      return inStream;
    }
    String inList = "item " + (item + 1) + " of " + items + " of the List";
    return inStream.isEmpty() ? inList : inStream + ", " + inList;
  }

  static DecodeException located(
      DecodeException e, String where, int document, List<Decoded<Object>> before) {
    return where.isEmpty() ? e : e.in(where, document + 1).withDecodedBefore(before);
  }

  /**
   * The byte spans of the objects in {@code [from, to)}: the concatenated root objects of a body,
   * or (with {@code items}) the elements of the root object's {@code items} array.
   */
  static List<int[]> jsonObjects(
      JsonFactory json, CodecLimits limits, byte[] data, int from, int to, boolean items) {
    List<int[]> spans = new ArrayList<>();
    JsonParser p = null;
    try {
      p = json.createParser(data, from, to - from);
      JsonToken token = p.nextToken();
      if (items) {
        token = p.nextToken(); // into the List object
        while (token == JsonToken.FIELD_NAME && !p.currentName().equals("items")) {
          p.nextToken();
          p.skipChildren();
          token = p.nextToken();
        }
        if (token != JsonToken.FIELD_NAME || p.nextToken() != JsonToken.START_ARRAY) {
          return spans;
        }
        token = p.nextToken();
      }
      while (token != null && token != JsonToken.END_ARRAY) {
        if (token != JsonToken.START_OBJECT) {
          JsonLocation at = p.currentTokenLocation();
          throw new DecodeException(
              (items ? "an item of the List" : "the body")
                  + " must be a JSON object, found "
                  + JacksonErrors.describe(p)
                  + " (line "
                  + at.getLineNr()
                  + ", column "
                  + at.getColumnNr()
                  + ")",
              items ? "items[" + spans.size() + "]" : "",
              at.getLineNr(),
              at.getColumnNr(),
              null);
        }
        int begin = from + (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        spans.add(new int[] {begin, from + (int) p.currentLocation().getByteOffset()});
        token = p.nextToken();
      }
      if (spans.isEmpty() && !items) {
        throw new DecodeException("the body is empty; expected a JSON object", "");
      }
      return spans;
    } catch (IOException e) {
      throw JacksonErrors.translate(e, p, limits);
    } finally {
      JacksonErrors.closeQuietly(p);
    }
  }
}
