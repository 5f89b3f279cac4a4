package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.io.InputStream;

/**
 * A parser over an unbounded stream of JSON values (a watch, the items of a huge list) that bounds
 * each value instead of the stream: nesting, strings, numbers and names as the codec limits say,
 * and the bytes of one value by {@code maxJsonBytes}, checked at every token so that a value is
 * refused before it is held whole. One thread at a time.
 */
final class ValueBoundedParser extends JsonParserDelegate {
  private final long maxValueBytes;
  private long valueStart = -1;

  private ValueBoundedParser(JsonParser parser, long maxValueBytes) {
    super(parser);
    this.maxValueBytes = maxValueBytes;
  }

  static ValueBoundedParser over(InputStream in, CodecLimits limits) throws IOException {
    JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(
                limits
                    .jsonReadConstraints()
                    .rebuild()
                    .maxDocumentLength(-1)
                    .maxTokenCount(-1)
                    .build())
            .build();
    return new ValueBoundedParser(factory.createParser(in), limits.maxJsonBytes());
  }

  /** Starts counting the bytes of a value at the current token. */
  void startValue() {
    valueStart = delegate.currentTokenLocation().getByteOffset();
  }

  /** Stops counting. */
  void endValue() {
    valueStart = -1;
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken token = delegate.nextToken();
    if (valueStart >= 0) {
      long size = delegate.currentLocation().getByteOffset() - valueStart;
      if (size > maxValueBytes) {
        throw new LimitExceededException(
            "maxJsonBytes",
            maxValueBytes,
            "a value of the stream is larger than " + maxValueBytes + " bytes (maxJsonBytes)",
            "",
            delegate.currentLocation().getLineNr(),
            delegate.currentLocation().getColumnNr());
      }
    }
    return token;
  }
}
