package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Successive JSON values read one at a time from a stream that may never end: the frames of a watch
 * ({@code application/json;stream=watch}, one event per line), or concatenated objects. Each value
 * is bounded by the codec limits (its bytes by {@code maxJsonBytes}, checked as it is read), not
 * the stream. A stream that ends inside a value, or holds something that is not JSON, fails with a
 * {@link DecodeException} naming the value's number.
 *
 * <p>Not thread-safe: one thread reads. Close it to close the stream.
 */
public final class JsonValueStream implements AutoCloseable {
  private static final ObjectMapper TREES = JsonMapper.builder().build();

  private final ValueBoundedParser parser;
  private int count;

  private JsonValueStream(ValueBoundedParser parser) {
    this.parser = parser;
  }

  /**
   * Reads values from a stream under limits.
   *
   * @param in the stream, closed by {@link #close()}
   * @param limits the limits of each value
   * @return the value stream
   */
  public static JsonValueStream of(InputStream in, CodecLimits limits) {
    try {
      return new JsonValueStream(ValueBoundedParser.over(in, limits));
    } catch (IOException e) {
      throw new UncheckedIOException("opening the stream failed", e);
    }
  }

  /**
   * Reads the next value; blocks until it has arrived whole.
   *
   * @return the value, or null at the end of the stream
   * @throws DecodeException when the stream ends inside a value or is not JSON
   * @throws LimitExceededException when a value is beyond the limits
   */
  public JsonNode next() {
    String where = "value " + (count + 1) + " of the stream";
    try {
      JsonToken token = parser.nextToken();
      if (token == null) {
        return null;
      }
      parser.startValue();
      JsonNode value = TREES.readTree(parser);
      parser.endValue();
      count++;
      return value;
    } catch (StreamReadException e) {
      String message = e.getOriginalMessage();
      boolean ended = message != null && message.startsWith("Unexpected end-of-input");
      throw new DecodeException(
          where + (ended ? ": the stream ended in the middle of it" : ": " + message),
          "",
          e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
          e.getLocation() == null ? 0 : e.getLocation().getColumnNr(),
          e);
    } catch (LimitExceededException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + where + " failed", e);
    }
  }

  /**
   * Returns how many values were read.
   *
   * @return the count
   */
  public int count() {
    return count;
  }

  /** Closes the stream. */
  @Override
  public void close() {
    try {
      parser.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing the stream failed", e);
    }
  }
}
