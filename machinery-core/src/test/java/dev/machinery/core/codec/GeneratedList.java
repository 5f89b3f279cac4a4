package dev.machinery.core.codec;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A JSON list of widgets made on the fly as it is read, never held: {@code count} items of about
 * 200 bytes each, so a test can stream gigabytes with a small heap.
 */
final class GeneratedList extends InputStream {
  private static final byte[] HEAD =
      "{\"apiVersion\":\"example.com/v1\",\"kind\":\"WidgetList\",\"metadata\":{\"resourceVersion\":\"7\"},\"items\":["
          .getBytes(StandardCharsets.UTF_8);
  private static final byte[] TAIL = "]}".getBytes(StandardCharsets.UTF_8);

  private final long count;
  private long made;
  private byte[] chunk = HEAD;
  private int at;
  private boolean tailDone;

  GeneratedList(long count) {
    this.count = count;
  }

  static byte[] item(long i) {
    return ((i == 0 ? "" : ",")
            + "{\"name\":\"widget-"
            + i
            + "\",\"replicas\":"
            + (i % 7)
            + ",\"tags\":[\"generated\",\"stream\",\"item-"
            + (i % 1000)
            + "\"],\"note\":\"a widget made on the fly to fill a very large list without a heap\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private boolean refill() {
    if (made < count) {
      chunk = item(made++);
    } else if (!tailDone) {
      chunk = TAIL;
      tailDone = true;
    } else {
      return false;
    }
    at = 0;
    return true;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) {
    int written = 0;
    while (written < length) {
      if (at == chunk.length && !refill()) {
        break;
      }
      int n = Math.min(length - written, chunk.length - at);
      System.arraycopy(chunk, at, buffer, offset + written, n);
      at += n;
      written += n;
    }
    return written == 0 ? -1 : written;
  }
}
