package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A streamed gRPC answer read message by message, its HTTP/2 frames fed by hand: messages whole or
 * cut across frames, several in one frame, each read whole and in order; the trailers' status ends
 * the stream cleanly or with etcd's words; a connection that closes ends it with an error, and so
 * do an HTTP status other than 200 and a compressed message; too many bytes unread stop the frames
 * being read until the reader catches up.
 */
class GrpcMessageStreamTest {
  private static GrpcMessageStream stream() {
    return new GrpcMessageStream();
  }

  /** The next message as text, or null at the stream's end. */
  private static String next(GrpcMessageStream stream) throws IOException {
    byte[] message = stream.next();
    return message == null ? null : new String(message, UTF_8);
  }

  private static byte[] framed(String text) {
    byte[] message = text.getBytes(UTF_8);
    byte[] out = new byte[5 + message.length];
    out[1] = (byte) (message.length >>> 24);
    out[2] = (byte) (message.length >>> 16);
    out[3] = (byte) (message.length >>> 8);
    out[4] = (byte) message.length;
    System.arraycopy(message, 0, out, 5, message.length);
    return out;
  }

  private static DefaultHttp2DataFrame data(byte[] bytes, int from, int to) {
    return new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, from, to)));
  }

  private static DefaultHttp2HeadersFrame trailers(String status, String message) {
    DefaultHttp2Headers headers = new DefaultHttp2Headers();
    headers.add("grpc-status", status);
    if (message != null) {
      headers.add("grpc-message", message);
    }
    return new DefaultHttp2HeadersFrame(headers, true);
  }

  @Test
  void messagesCutAcrossFramesOrSharingOneAreReadWholeAndInOrder() throws Exception {
    GrpcMessageStream stream = stream();
    EmbeddedChannel channel = new EmbeddedChannel(stream.handler());
    channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
    stream.answered().get(1, TimeUnit.SECONDS);
    byte[] first = framed("one");
    byte[] two = framed("two");
    byte[] three = framed("three");
    byte[] rest = new byte[two.length + three.length];
    System.arraycopy(two, 0, rest, 0, two.length);
    System.arraycopy(three, 0, rest, two.length, three.length);
    // The first message in three frames, its length prefix itself cut; then two in one frame.
    channel.writeInbound(data(first, 0, 2), data(first, 2, 6), data(first, 6, first.length));
    channel.writeInbound(data(rest, 0, rest.length));
    channel.writeInbound(trailers("0", null));
    assertEquals("one", next(stream));
    assertEquals("two", next(stream));
    assertEquals("three", next(stream));
    assertNull(next(stream));
    assertNull(next(stream), "still ended when asked again");
  }

  @Test
  void aStatusOtherThanZeroEndsTheStreamWithEtcdsWords() throws Exception {
    GrpcMessageStream stream = stream();
    EmbeddedChannel channel = new EmbeddedChannel(stream.handler());
    channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
    channel.writeInbound(data(framed("kept"), 0, framed("kept").length));
    channel.writeInbound(trailers("14", "etcdserver: no leader 100%25"));
    assertEquals("kept", next(stream));
    IOException e = assertThrows(IOException.class, stream::next);
    assertEquals(
        "etcd ended the stream with gRPC status 14: etcdserver: no leader 100%", e.getMessage());
  }

  @Test
  void aTrailersOnlyRefusalFailsTheOpeningAndAClosedConnectionEndsTheReading() throws Exception {
    GrpcMessageStream refused = stream();
    new EmbeddedChannel(refused.handler()).writeInbound(trailers("3", "bad%20request"));
    IOException why = assertThrows(IOException.class, refused::next);
    assertTrue(why.getMessage().endsWith("gRPC status 3: bad request"), why.getMessage());
    assertTrue(refused.answered().isCompletedExceptionally());

    GrpcMessageStream cut = stream();
    EmbeddedChannel channel = new EmbeddedChannel(cut.handler());
    channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
    channel.close();
    assertEquals(
        "the connection to etcd closed", assertThrows(IOException.class, cut::next).getMessage());
  }

  @Test
  void anHttpStatusOtherThan200OrACompressedMessageEndsTheStreamSayingSo() throws Exception {
    GrpcMessageStream refused = stream();
    new EmbeddedChannel(refused.handler())
        .writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("503")));
    assertEquals(
        "etcd answered HTTP status 503",
        assertThrows(IOException.class, refused::next).getMessage());
    assertTrue(refused.answered().isCompletedExceptionally());

    GrpcMessageStream compressed = stream();
    EmbeddedChannel channel = new EmbeddedChannel(compressed.handler());
    channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
    byte[] message = framed("zipped");
    message[0] = 1;
    channel.writeInbound(data(message, 0, message.length));
    assertEquals(
        "etcd's stream holds a compressed message, which was not asked for",
        assertThrows(IOException.class, compressed::next).getMessage());
  }

  @Test
  void tooManyBytesUnreadStopTheFramesBeingReadUntilTheReaderIsBelowHalfOfThem() throws Exception {
    // 5-byte messages, reading stopped above 12 bytes unread and resumed below 6.
    GrpcMessageStream stream = new GrpcMessageStream(12);
    EmbeddedChannel channel = new EmbeddedChannel(stream.handler());
    stream.attach(channel);
    channel.writeInbound(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
    for (String text : new String[] {"aaaaa", "bbbbb"}) {
      channel.writeInbound(data(framed(text), 0, framed(text).length));
    }
    assertTrue(stream.reading(), "10 bytes unread: still reading");
    channel.writeInbound(data(framed("ccccc"), 0, framed("ccccc").length));
    assertFalse(stream.reading(), "15 bytes unread: the frames wait in etcd's window");
    assertFalse(channel.config().isAutoRead());
    assertEquals("aaaaa", next(stream));
    assertFalse(stream.reading(), "10 bytes unread: not yet below half");
    assertEquals("bbbbb", next(stream));
    assertTrue(stream.reading(), "5 bytes unread: reading again");
    assertTrue(channel.config().isAutoRead());
    channel.writeInbound(trailers("0", null));
    assertEquals("ccccc", next(stream));
    assertNull(next(stream));
  }
}
