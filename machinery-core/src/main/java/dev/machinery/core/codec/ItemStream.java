package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The items of a JSON list read one at a time from a stream, so that a list of any size is decoded
 * in the memory of one item: {@code {"apiVersion":"v1","kind":"PodList","metadata":{...},
 * "items":[...]}} or a generic {@code v1 List}. Each item is decoded by the codec as the kind it
 * names, as the item class the caller names, or (for {@code Object.class}, as typed lists write
 * their items without a type) as the list's kind less {@code List} in the list's version ({@code
 * apiVersion} and {@code kind} must then come before {@code items}, as servers write them). Each
 * item is bounded by the codec limits; a stream that ends or breaks in the middle fails with a
 * {@link DecodeException} that says which item, after the items before it were handed out.
 *
 * <p>A YAML codec reads the body whole under {@code maxYamlBytes} (as {@code decodeAll} does) and
 * hands out its objects the same way.
 *
 * <p>Not thread-safe: one thread iterates. Close it to close the stream.
 *
 * @param <T> the items' class
 */
public final class ItemStream<T> implements Iterator<Decoded<T>>, AutoCloseable {
  private static final ObjectMapper TREES = JsonMapper.builder().build();

  private final Codec codec;
  private final Class<T> type;
  private final ValueBoundedParser parser;
  private final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
  private final Iterator<Decoded<Object>> decoded;
  private String apiVersion;
  private String kind;
  private int index;
  private Decoded<T> next;
  private boolean done;

  ItemStream(Codec codec, InputStream in, Class<T> type, CodecLimits limits) {
    this.codec = codec;
    this.type = type;
    this.decoded = null;
    try {
      this.parser = ValueBoundedParser.over(in, limits);
      openItems();
    } catch (IOException e) {
      throw failure(e, "the list");
    }
  }

  /** The items of a YAML body, read whole under {@code maxYamlBytes} by {@code decodeAll}. */
  ItemStream(Codec codec, java.util.List<Decoded<Object>> items, Class<T> type) {
    this.codec = codec;
    this.type = type;
    this.parser = null;
    this.decoded = items.iterator();
  }

  /** Reads up to the first item, keeping the list's apiVersion and kind on the way. */
  private void openItems() throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw new DecodeException("a list is a JSON object with an \"items\" array", "");
    }
    while (true) {
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_OBJECT || token == null) {
        done = true;
        return;
      }
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (name.equals("items")) {
        if (value == JsonToken.VALUE_NULL) {
          continue;
        }
        if (value != JsonToken.START_ARRAY) {
          throw new DecodeException("\"items\" of a list must be an array", "items");
        }
        return;
      }
      if (name.equals("apiVersion") && value == JsonToken.VALUE_STRING) {
        apiVersion = parser.getText();
      } else if (name.equals("kind") && value == JsonToken.VALUE_STRING) {
        kind = parser.getText();
      } else {
        parser.skipChildren();
      }
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      next = read();
    }
    return next != null;
  }

  @Override
  public Decoded<T> next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no more items");
    }
    Decoded<T> item = next;
    next = null;
    return item;
  }

  private Decoded<T> read() {
    if (decoded != null) {
      return readDecoded();
    }
    String where = "item " + (index + 1) + " of the list";
    try {
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_ARRAY || token == null) {
        done = true;
        return null;
      }
      if (token != JsonToken.START_OBJECT) {
        throw new DecodeException(where + ": an item must be a JSON object", "items");
      }
      parser.startValue();
      if (type != Object.class) {
        // The item's class is known, so it needs no type fields: its bytes are copied as they
        // are, without a tree.
        buffer.reset();
        try (JsonGenerator copy = TREES.getFactory().createGenerator(buffer)) {
          copy.copyCurrentStructure(parser);
        }
        parser.endValue();
        index++;
        return codec.decode(buffer.toByteArray(), type);
      }
      JsonNode item = TREES.readTree(parser);
      parser.endValue();
      if (item instanceof ObjectNode object && !object.has("kind") && kind != null) {
        ObjectNode typed = object.objectNode();
        if (apiVersion != null) {
          typed.put("apiVersion", apiVersion);
        }
        typed.put(
            "kind",
            kind.endsWith("List") && kind.length() > 4
                ? kind.substring(0, kind.length() - 4)
                : kind);
        typed.setAll(object);
        item = typed;
      }
      index++;
      return codec.decode(TREES.writeValueAsBytes(item), type);
    } catch (DecodeException e) {
      done = true;
      throw e.in(where, index + 1);
    } catch (IOException e) {
      done = true;
      throw failure(e, where);
    }
  }

  @SuppressWarnings("unchecked")
  private Decoded<T> readDecoded() {
    if (!decoded.hasNext()) {
      done = true;
      return null;
    }
    Decoded<Object> item = decoded.next();
    index++;
    if (!type.isInstance(item.object())) {
      done = true;
      throw new DecodeException(
          "item " + index + " of the list is a " + item.kind() + ", not a " + type.getName(), "");
    }
    return (Decoded<T>) item;
  }

  private static DecodeException failure(IOException e, String where) {
    if (e instanceof StreamReadException read) {
      String message = read.getOriginalMessage();
      boolean ended = message != null && message.startsWith("Unexpected end-of-input");
      return new DecodeException(
          where + (ended ? ": the stream ended in the middle of it" : ": " + message),
          "",
          read.getLocation() == null ? 0 : read.getLocation().getLineNr(),
          read.getLocation() == null ? 0 : read.getLocation().getColumnNr(),
          e);
    }
    throw new UncheckedIOException("reading " + where + " failed", e);
  }

  /**
   * Returns how many items were read so far.
   *
   * @return the count
   */
  public int count() {
    return index;
  }

  /** Closes the stream. */
  @Override
  public void close() {
    try {
      if (parser != null) {
        parser.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("closing the stream failed", e);
    }
  }
}
