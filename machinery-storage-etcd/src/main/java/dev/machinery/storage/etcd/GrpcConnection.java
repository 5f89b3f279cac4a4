package dev.machinery.storage.etcd;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One HTTP/2 connection to an etcd member's gRPC API, in cleartext with prior knowledge (as etcd
 * serves gRPC and its gateway on one port), on which every call is a stream of its own: HEADERS and
 * one length-prefixed message out, then for a unary call the answer's message and its trailers
 * ({@code grpc-status}, {@code grpc-message}) back, for a watch the answer's messages as they come
 * ({@link GrpcMessageStream}). A connection that died without a word is found and closed by {@link
 * GrpcKeepAlive}. Written and read on a Netty event loop; callers wait on the call's future.
 * Thread-safe.
 */
final class GrpcConnection {
  /** The largest answer read: a page of etcd values is bounded by the page's limit. */
  static final int MAX_MESSAGE = 1 << 30;

  /** The receive window of each stream and of the connection: a page arrives without waiting. */
  private static final int WINDOW = 16 << 20;

  private final Channel channel;
  private final String authority;
  private final String scheme;
  private final GrpcKeepAlive keepAlive;

  /** How many calls and watches have a stream open. */
  private final AtomicInteger streams;

  private GrpcConnection(
      Channel channel,
      String authority,
      String scheme,
      GrpcKeepAlive keepAlive,
      AtomicInteger streams) {
    this.channel = channel;
    this.authority = authority;
    this.scheme = scheme;
    this.keepAlive = keepAlive;
    this.streams = streams;
  }

  /** What a call got: its gRPC status, the status's message, and the answer's message. */
  record Reply(int status, String message, byte[] body) {}

  /**
   * Connects to an endpoint ({@code http://host:port}, or {@code https://host:port} over TLS with
   * {@code h2} chosen by ALPN, as etcd's gRPC clients connect).
   *
   * @param tls how to speak TLS to an {@code https} endpoint
   * @param keepAliveTime how long nothing is read, with streams open, before a PING
   * @param keepAliveTimeout how long nothing is read after a PING before the connection is closed
   * @throws IOException when it cannot be reached within the timeout
   */
  static GrpcConnection open(
      EventLoopGroup group,
      URI endpoint,
      Duration timeout,
      Duration keepAliveTime,
      Duration keepAliveTimeout,
      EtcdTls tls)
      throws IOException {
    int port = EtcdTls.port(endpoint);
    boolean secure = EtcdTls.secure(endpoint);
    AtomicInteger streams = new AtomicInteger();
    GrpcKeepAlive keepAlive =
        new GrpcKeepAlive(
            keepAliveTime, keepAliveTimeout, streams::get, endpoint.getHost() + ":" + port);
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    if (secure) {
                      channel.pipeline().addLast(new SslHandler(tls.engine(endpoint, "h2")));
                    }
                    channel
                        .pipeline()
                        .addLast(
                            keepAlive,
                            Http2FrameCodecBuilder.forClient()
                                .initialSettings(
                                    Http2Settings.defaultSettings()
                                        .initialWindowSize(WINDOW)
                                        .pushEnabled(false))
                                .build(),
                            new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
                  }
                });
    ChannelFuture connected = bootstrap.connect(endpoint.getHost(), port);
    if (!connected.awaitUninterruptibly(timeout.toMillis() + 1_000)) {
      connected.channel().close();
      throw new IOException("no connection within " + timeout.toMillis() + " ms");
    }
    if (!connected.isSuccess()) {
      Throwable cause = connected.cause();
      throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
    }
    Channel channel = connected.channel();
    if (secure) {
      var handshake = channel.pipeline().get(SslHandler.class).handshakeFuture();
      if (!handshake.awaitUninterruptibly(timeout.toMillis() + 1_000)) {
        channel.close();
        throw new IOException(
            "TLS with " + endpoint + ": no handshake within " + timeout.toMillis() + " ms");
      }
      if (!handshake.isSuccess()) {
        channel.close();
        Throwable cause = handshake.cause();
        throw new IOException("TLS with " + endpoint + " failed: " + cause.getMessage(), cause);
      }
    }
    // The connection's own window starts at 65,535 bytes whatever the settings say: widen it.
    channel.writeAndFlush(new DefaultHttp2WindowUpdateFrame(WINDOW - 65_535));
    return new GrpcConnection(
        channel, endpoint.getHost() + ":" + port, secure ? "https" : "http", keepAlive, streams);
  }

  /** Tells whether the connection can still carry calls. */
  boolean isOpen() {
    return channel.isActive();
  }

  /** Sends a PING unless one is unanswered: a call on this connection went unanswered. */
  void probe() {
    keepAlive.probe();
  }

  /** Counts a call's or watch's stream as open until it closes. */
  private void counted(Channel stream) {
    streams.incrementAndGet();
    stream.closeFuture().addListener(closed -> streams.decrementAndGet());
  }

  /**
   * Sends one unary call. The future fails with an {@link IOException} when the call could not be
   * sent or its answer did not arrive whole ({@link NotSent} when no byte of it left); cancelling
   * it resets the call's stream.
   *
   * @param method the gRPC method's path, such as {@code /etcdserverpb.KV/Range}
   * @param message the request message
   */
  CompletableFuture<Reply> call(String method, byte[] message) {
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    if (!channel.isActive()) {
      reply.completeExceptionally(new NotSent("the connection is closed"));
      return reply;
    }
    new Http2StreamChannelBootstrap(channel)
        .handler(new Answer(reply))
        .open()
        .addListener(
            opened -> {
              if (!opened.isSuccess()) {
                reply.completeExceptionally(
                    new NotSent("no stream could be opened: " + opened.cause()));
                return;
              }
              Http2StreamChannel stream = (Http2StreamChannel) opened.getNow();
              counted(stream);
              // A caller that gave up (its timeout) cancels the call: the stream is reset.
              reply.whenComplete(
                  (answer, failure) -> {
                    if (failure instanceof CancellationException) {
                      stream.close();
                    }
                  });
              stream.write(new DefaultHttp2HeadersFrame(headers(method)));
              stream
                  .writeAndFlush(new DefaultHttp2DataFrame(framed(stream, message), true))
                  .addListener(
                      written -> {
                        if (!written.isSuccess()) {
                          reply.completeExceptionally(
                              new IOException("the call could not be sent: " + written.cause()));
                          stream.close();
                        }
                      });
            });
    return reply;
  }

  /**
   * Opens a call whose answer is a stream of messages (a watch): one request message is sent, the
   * stream stays open, and each message of the answer is read from the returned stream, which
   * {@link GrpcMessageStream#answered()} tells has begun.
   *
   * @param method the gRPC method's path, such as {@code /etcdserverpb.Watch/Watch}
   * @param message the request message
   */
  GrpcMessageStream stream(String method, byte[] message) {
    GrpcMessageStream stream = new GrpcMessageStream();
    if (!channel.isActive()) {
      stream.answered().completeExceptionally(new NotSent("the connection is closed"));
      return stream;
    }
    new Http2StreamChannelBootstrap(channel)
        .handler(stream.handler())
        .open()
        .addListener(
            opened -> {
              if (!opened.isSuccess()) {
                stream
                    .answered()
                    .completeExceptionally(
                        new NotSent("no stream could be opened: " + opened.cause()));
                return;
              }
              Http2StreamChannel child = (Http2StreamChannel) opened.getNow();
              counted(child);
              stream.attach(child);
              child.write(new DefaultHttp2HeadersFrame(headers(method)));
              child
                  .writeAndFlush(new DefaultHttp2DataFrame(framed(child, message), false))
                  .addListener(
                      written -> {
                        if (!written.isSuccess()) {
                          stream
                              .answered()
                              .completeExceptionally(
                                  new IOException(
                                      "the call could not be sent: " + written.cause()));
                          child.close();
                        }
                      });
            });
    return stream;
  }

  private Http2Headers headers(String method) {
    return new DefaultHttp2Headers()
        .method("POST")
        .scheme(scheme)
        .path(method)
        .authority(authority)
        .add("content-type", "application/grpc")
        .add("te", "trailers");
  }

  /** One gRPC message: not compressed, its length, its bytes. */
  private static ByteBuf framed(Channel stream, byte[] message) {
    ByteBuf body = stream.alloc().buffer(5 + message.length);
    body.writeByte(0).writeInt(message.length).writeBytes(message);
    return body;
  }

  /**
   * Refuses an answer's first headers unless their HTTP status is 200 (or absent, as in a refusal
   * sent as trailers alone): a unary answer's and a watch stream's alike.
   *
   * @throws IOException naming the status
   */
  static void requireHttpOk(Http2Headers headers) throws IOException {
    CharSequence status = headers.status();
    if (status != null && !"200".contentEquals(status)) {
      throw new IOException("etcd answered HTTP status " + status);
    }
  }

  /**
   * The length a gRPC message's five-byte prefix at {@code at} gives; a compressed message, which
   * is never asked for, is refused.
   *
   * @param holder what holds the message, for the error: "etcd's answer", "etcd's stream"
   * @throws IOException when the message is compressed
   */
  static long messageLength(byte[] bytes, int at, String holder) throws IOException {
    if (bytes[at] != 0) {
      throw new IOException(holder + " holds a compressed message, which was not asked for");
    }
    return (bytes[at + 1] & 0xFFL) << 24
        | (bytes[at + 2] & 0xFF) << 16
        | (bytes[at + 3] & 0xFF) << 8
        | bytes[at + 4] & 0xFF;
  }

  /** A {@code grpc-message} trailer's text: percent-encoded UTF-8. */
  static String decodeMessage(CharSequence text) {
    return URLDecoder.decode(text.toString().replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** Closes the connection; calls under way fail. */
  void close() {
    channel.close();
  }

  /** A call that failed before any of it was sent: it may be sent again elsewhere. */
  static final class NotSent extends IOException {
    private static final long serialVersionUID = 1L;

    NotSent(String message) {
      super(message);
    }
  }

  /** Gathers one stream's answer: the headers, the message's bytes, the trailers. */
  private static final class Answer extends ChannelInboundHandlerAdapter {
    private final CompletableFuture<Reply> reply;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean headersSeen;

    Answer(CompletableFuture<Reply> reply) {
      this.reply = reply;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object frame) {
      try {
        if (frame instanceof Http2HeadersFrame headers) {
          onHeaders(context, headers);
        } else if (frame instanceof Http2DataFrame data) {
          ByteBuf content = data.content();
          if (body.size() + (long) content.readableBytes() > MAX_MESSAGE + 5L) {
            fail(
                context, new IOException("etcd's answer is larger than " + MAX_MESSAGE + " bytes"));
            return;
          }
          content.readBytes(body, content.readableBytes());
          if (data.isEndStream()) {
            fail(context, new IOException("etcd's answer ended without a gRPC status"));
          }
        }
      } catch (IOException e) {
        fail(context, e);
      } finally {
        ReferenceCountUtil.release(frame);
      }
    }

    private void onHeaders(ChannelHandlerContext context, Http2HeadersFrame frame)
        throws IOException {
      Http2Headers headers = frame.headers();
      if (!headersSeen) {
        headersSeen = true;
        requireHttpOk(headers);
      }
      CharSequence grpcStatus = headers.get("grpc-status");
      if (grpcStatus == null) {
        if (frame.isEndStream()) {
          fail(context, new IOException("etcd's answer ended without a gRPC status"));
        }
        return;
      }
      int code;
      try {
        code = Integer.parseInt(grpcStatus.toString());
      } catch (NumberFormatException e) {
        fail(context, new IOException("etcd answered the gRPC status \"" + grpcStatus + "\""));
        return;
      }
      CharSequence text = headers.get("grpc-message");
      String message = text == null ? "" : decodeMessage(text);
      if (code != 0) {
        reply.complete(new Reply(code, message, new byte[0]));
        context.close();
        return;
      }
      byte[] bytes = body.toByteArray();
      if (bytes.length < 5) {
        fail(
            context,
            new IOException("etcd's answer holds no message (" + bytes.length + " bytes)"));
        return;
      }
      long length = messageLength(bytes, 0, "etcd's answer");
      if (length != bytes.length - 5) {
        fail(
            context,
            new IOException(
                "etcd's answer says " + length + " bytes and holds " + (bytes.length - 5)));
        return;
      }
      byte[] out = new byte[(int) length];
      System.arraycopy(bytes, 5, out, 0, out.length);
      reply.complete(new Reply(0, message, out));
      context.close();
    }

    private void fail(ChannelHandlerContext context, IOException e) {
      reply.completeExceptionally(e);
      context.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      reply.completeExceptionally(new IOException("the connection to etcd closed"));
      context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      fail(
          context, cause instanceof IOException io ? io : new IOException(cause.toString(), cause));
    }
  }
}
