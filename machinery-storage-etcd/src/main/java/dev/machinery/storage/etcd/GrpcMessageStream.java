package dev.machinery.storage.etcd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server-streamed gRPC call read message by message: each message of the stream, as it arrives
 * whole, is queued, as it came, for the one thread that reads ({@link #next()}), which decodes it.
 * While more than the high-water mark of bytes ({@value #HIGH_WATER} unless told) wait unread, the
 * stream's frames are no longer read, so that etcd's flow control holds the rest back; reading
 * resumes below half of that. The stream's end, its gRPC status, a reset or the connection's close
 * end the reading: after what was queued, {@code next} returns null after a status of 0 and throws
 * an {@link IOException} naming the cause otherwise. Closing it resets the stream. One reading
 * thread; the Netty side is the connection's event loop.
 */
final class GrpcMessageStream implements Closeable {
  /** Bytes queued unread above which the stream's frames stop being read. */
  static final int HIGH_WATER = 8 << 20;

  private static final byte[] END = new byte[0];

  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queued = new AtomicLong();
  private final long highWater;
  private final CompletableFuture<Void> answered = new CompletableFuture<>();
  private volatile Channel channel;
  private volatile IOException failure;
  private boolean ended;
  private volatile boolean closed;

  /** A stream that stops reading above {@value #HIGH_WATER} bytes unread. */
  GrpcMessageStream() {
    this(HIGH_WATER);
  }

  /**
   * A stream that stops reading above the given bytes unread.
   *
   * @param highWater bytes queued unread above which the stream's frames stop being read
   */
  GrpcMessageStream(long highWater) {
    this.highWater = highWater;
  }

  /** Completes when the answer's headers arrive, or fails when the call fails before them. */
  CompletableFuture<Void> answered() {
    return answered;
  }

  /** The handler that feeds this stream from its HTTP/2 stream's frames. */
  ChannelInboundHandlerAdapter handler() {
    return new Feed();
  }

  void attach(Channel stream) {
    this.channel = stream;
    if (closed) {
      stream.close();
    }
  }

  /**
   * The next message of the stream, whole, waiting for it.
   *
   * @return the message's bytes (without gRPC's prefix), or null once the stream ended with a
   *     status of 0
   * @throws IOException naming why the stream ended otherwise, or when interrupted
   */
  byte[] next() throws IOException {
    if (ended) {
      return endOfStream();
    }
    byte[] next;
    try {
      next = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading etcd's stream");
    }
    if (next == END) {
      ended = true;
      return endOfStream();
    }
    long left = queued.addAndGet(-next.length);
    Channel stream = channel;
    if (left < highWater / 2 && stream != null && !stream.config().isAutoRead()) {
      stream.config().setAutoRead(true);
    }
    return next;
  }

  /** Whether the stream's frames are read now: false while too many bytes wait unread. */
  boolean reading() {
    Channel stream = channel;
    return stream == null || stream.config().isAutoRead();
  }

  private byte[] endOfStream() throws IOException {
    IOException e = failure;
    if (e != null) {
      throw new IOException(e.getMessage(), e);
    }
    return null;
  }

  @Override
  public void close() {
    closed = true;
    Channel stream = channel;
    if (stream != null) {
      stream.close();
    }
    end(new IOException("the stream was closed"));
  }

  private void end(IOException e) {
    if (e != null && failure == null) {
      failure = e;
    }
    answered.completeExceptionally(e != null ? e : new IOException("the stream ended"));
    queue.offer(END);
  }

  /** Reads the stream's frames on the event loop: headers, messages, trailers. */
  private final class Feed extends ChannelInboundHandlerAdapter {
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    /** How many bytes pending must hold before the next message can be whole. */
    private int needed = 5;

    private boolean headersSeen;
    private boolean done;

    @Override
    public void channelRead(ChannelHandlerContext context, Object frame) {
      try {
        if (done) {
          return;
        }
        if (frame instanceof Http2HeadersFrame headers) {
          onHeaders(context, headers.headers(), headers.isEndStream());
        } else if (frame instanceof Http2DataFrame data) {
          ByteBuf content = data.content();
          content.readBytes(pending, content.readableBytes());
          deliver();
          if (!done && data.isEndStream()) {
            finish(context, new IOException("etcd's stream ended without a gRPC status"));
          }
        }
      } catch (IOException | RuntimeException e) {
        finish(context, e instanceof IOException io ? io : new IOException(e.toString(), e));
      } finally {
        ReferenceCountUtil.release(frame);
      }
    }

    private void onHeaders(ChannelHandlerContext context, Http2Headers headers, boolean endStream)
        throws IOException {
      if (!headersSeen) {
        headersSeen = true;
        GrpcConnection.requireHttpOk(headers);
      }
      CharSequence grpcStatus = headers.get("grpc-status");
      if (grpcStatus == null) {
        answered.complete(null);
        if (endStream) {
          throw new IOException("etcd's stream ended without a gRPC status");
        }
        return;
      }
      if ("0".contentEquals(grpcStatus)) {
        finish(context, null);
      } else {
        CharSequence message = headers.get("grpc-message");
        finish(
            context,
            new IOException(
                "etcd ended the stream with gRPC status "
                    + grpcStatus
                    + (message == null ? "" : ": " + GrpcConnection.decodeMessage(message))));
      }
    }

    /**
     * Queues every whole message buffered so far; a message still arriving is not looked at again
     * until its bytes are all there.
     */
    private void deliver() throws IOException {
      if (pending.size() < needed) {
        // The next message is not whole yet: nothing to copy out.
        return;
      }
      byte[] bytes = pending.toByteArray();
      int at = 0;
      needed = 5;
      while (bytes.length - at >= 5) {
        long length = GrpcConnection.messageLength(bytes, at, "etcd's stream");
        if (length > GrpcConnection.MAX_MESSAGE) {
          throw new IOException("a message of etcd's stream is " + length + " bytes long");
        }
        if (bytes.length - at - 5 < length) {
          needed = 5 + (int) length;
          break;
        }
        byte[] message = new byte[(int) length];
        System.arraycopy(bytes, at + 5, message, 0, message.length);
        at += 5 + message.length;
        queue.offer(message);
        if (queued.addAndGet(message.length) > highWater) {
          Channel stream = channel;
          if (stream != null) {
            stream.config().setAutoRead(false);
          }
        }
      }
      pending.reset();
      pending.write(bytes, at, bytes.length - at);
    }

    private void finish(ChannelHandlerContext context, IOException e) {
      if (done) {
        return;
      }
      done = true;
      end(e);
      context.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      if (!done) {
        done = true;
        end(new IOException("the connection to etcd closed"));
      }
      context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      finish(
          context, cause instanceof IOException io ? io : new IOException(cause.toString(), cause));
    }
  }
}
