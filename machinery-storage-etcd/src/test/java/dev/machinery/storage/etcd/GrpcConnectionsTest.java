package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The gRPC connections against an HTTP/2 server written for each case: a call never answered fails
 * after the timeout, naming it, and its stream is reset rather than left open on the server; a
 * refusal in the trailers comes back as its status and decoded message; an HTTP status other than
 * 200 and a message whose length prefix lies are errors that say so; a connection that answers
 * nothing, not even a PING, is closed (after a call times out, or while a watch waits), and one
 * that answers PINGs is kept, and not pinged without a stream open.
 */
class GrpcConnectionsTest {
  /**
   * An HTTP/2 server on a free loopback port: each connection accepted is given to {@code accepted}
   * first, then its streams' frames go to a handler from {@code streams} and its own frames (PINGs,
   * SETTINGS) to one from {@code connection}; PINGs are answered when {@code answerPings}.
   */
  private static Channel serve(
      EventLoopGroup group,
      boolean answerPings,
      Supplier<ChannelHandler> streams,
      Supplier<ChannelHandler> connection,
      Consumer<SocketChannel> accepted)
      throws InterruptedException {
    return new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel channel) {
                accepted.accept(channel);
                channel
                    .pipeline()
                    .addLast(
                        Http2FrameCodecBuilder.forServer().autoAckPingFrame(answerPings).build(),
                        new Http2MultiplexHandler(streams.get()),
                        connection.get());
              }
            })
        .bind(new InetSocketAddress("127.0.0.1", 0))
        .sync()
        .channel();
  }

  @Test
  void aCallNotAnsweredInTimeFailsAndItsStreamIsReset() throws Exception {
    CountDownLatch opened = new CountDownLatch(1);
    CountDownLatch reset = new CountDownLatch(1);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      Channel server =
          serve(
              group,
              true,
              () ->
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext context) {
                      opened.countDown();
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext context, Object frame) {
                      // Read and never answered.
                      ReferenceCountUtil.release(frame);
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext context) {
                      reset.countDown();
                    }
                  },
              ChannelInboundHandlerAdapter::new,
              channel -> {});
      int port = ((InetSocketAddress) server.localAddress()).getPort();
      GrpcConnections connections =
          new GrpcConnections(
              List.of(URI.create("http://127.0.0.1:" + port)), Duration.ofMillis(300));
      try {
        IOException e =
            assertThrows(
                IOException.class,
                () -> connections.call(0, "/etcdserverpb.KV/Range", new byte[] {0x48, 0x01}));
        assertEquals("no answer within 300 ms", e.getMessage());
        assertTrue(opened.await(5, TimeUnit.SECONDS), "the call reached the server");
        assertTrue(reset.await(5, TimeUnit.SECONDS), "the abandoned call's stream was reset");
      } finally {
        connections.close();
        server.close().sync();
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  /** Answers every call's request with the frames given, on the call's stream. */
  private static String[] answerWith(Object... frames) throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      Channel server =
          serve(
              group,
              true,
              () ->
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext context, Object frame) {
                      boolean last = frame instanceof Http2DataFrame data && data.isEndStream();
                      ReferenceCountUtil.release(frame);
                      if (last) {
                        for (Object answer : frames) {
                          context.write(ReferenceCountUtil.retain(answer));
                        }
                        context.flush();
                      }
                    }
                  },
              ChannelInboundHandlerAdapter::new,
              channel -> {});
      int port = ((InetSocketAddress) server.localAddress()).getPort();
      GrpcConnections connections =
          new GrpcConnections(
              List.of(URI.create("http://127.0.0.1:" + port)), Duration.ofSeconds(5));
      try {
        GrpcConnection.Reply reply = connections.call(0, "/etcdserverpb.KV/Range", new byte[0]);
        return new String[] {Integer.toString(reply.status()), reply.message()};
      } catch (IOException e) {
        return new String[] {"error", e.getMessage()};
      } finally {
        connections.close();
        server.close().sync();
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  @Test
  void aRefusalInTheTrailersIsItsStatusAndDecodedMessage() throws Exception {
    Http2Headers trailers =
        new DefaultHttp2Headers()
            .status("200")
            .add("grpc-status", "11")
            .add("grpc-message", "etcdserver: mvcc: required revision has been compacted 100%25");
    assertArrayEquals(
        new String[] {"11", "etcdserver: mvcc: required revision has been compacted 100%"},
        answerWith(new DefaultHttp2HeadersFrame(trailers, true)));
  }

  @Test
  void anHttpStatusOtherThan200OrALyingLengthIsAnErrorThatSaysSo() throws Exception {
    assertArrayEquals(
        new String[] {"error", "etcd answered HTTP status 503"},
        answerWith(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("503"), true)));
    assertArrayEquals(
        new String[] {"error", "etcd's answer says 10 bytes and holds 2"},
        answerWith(
            new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")),
            new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 10, 1, 2})),
            new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().add("grpc-status", "0"), true)));
    assertArrayEquals(
        new String[] {"error", "etcd's answer holds a compressed message, which was not asked for"},
        answerWith(
            new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")),
            new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[] {1, 0, 0, 0, 1, 7})),
            new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().add("grpc-status", "0"), true)));
  }

  /**
   * An HTTP/2 server that answers each stream's HEADERS with its own (a watch begun) and then
   * nothing; it answers PINGs only when asked to, and counts them and its closed connections.
   */
  private static final class Silent implements AutoCloseable {
    final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final AtomicInteger pings = new AtomicInteger();
    final AtomicInteger accepted = new AtomicInteger();
    final CountDownLatch closed = new CountDownLatch(1);
    final Channel server;

    Silent(boolean answerPings) throws InterruptedException {
      server =
          serve(
              group,
              answerPings,
              () ->
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext context, Object frame) {
                      boolean headers = frame instanceof DefaultHttp2HeadersFrame;
                      ReferenceCountUtil.release(frame);
                      if (headers) {
                        context.writeAndFlush(
                            new DefaultHttp2HeadersFrame(
                                new DefaultHttp2Headers()
                                    .status("200")
                                    .add("content-type", "application/grpc")));
                      }
                    }
                  },
              () ->
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext context, Object frame) {
                      if (frame instanceof Http2PingFrame ping && !ping.ack()) {
                        pings.incrementAndGet();
                      }
                      ReferenceCountUtil.release(frame);
                    }
                  },
              channel -> {
                accepted.incrementAndGet();
                channel.closeFuture().addListener(f -> closed.countDown());
              });
    }

    URI uri() {
      return URI.create(
          "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort());
    }

    @Override
    public void close() {
      server.close().syncUninterruptibly();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private static void awaitAtLeast(AtomicInteger counter, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (counter.get() < count) {
      assertTrue(System.nanoTime() < deadline, "never reached " + count + ": " + counter.get());
      Thread.sleep(10);
    }
  }

  @Test
  void aCallNotAnsweredInTimeProbesItsConnectionWhichIsClosedWhenThePingGoesUnanswered()
      throws Exception {
    try (Silent silent = new Silent(false)) {
      // No PING of the keepalive's own within the test: only the timed-out call's.
      GrpcConnections connections =
          new GrpcConnections(
              List.of(silent.uri()),
              Duration.ofMillis(300),
              Duration.ofHours(1),
              Duration.ofMillis(300));
      try {
        IOException e =
            assertThrows(
                IOException.class,
                () -> connections.call(0, "/etcdserverpb.KV/Range", new byte[] {0x48, 0x01}));
        assertEquals("no answer within 300 ms", e.getMessage());
        awaitAtLeast(silent.pings, 1);
        assertTrue(silent.closed.await(10, TimeUnit.SECONDS), "the dead connection was closed");
        // The next call goes out on a new connection.
        assertThrows(
            IOException.class,
            () -> connections.call(0, "/etcdserverpb.KV/Range", new byte[] {0x48, 0x01}));
        assertEquals(2, silent.accepted.get());
      } finally {
        connections.close();
      }
    }
  }

  @Test
  void aConnectionWhoseWatchHearsNothingAndWhosePingIsUnansweredIsClosedFailingTheWatch()
      throws Exception {
    try (Silent silent = new Silent(false)) {
      GrpcConnections connections =
          new GrpcConnections(
              List.of(silent.uri()),
              Duration.ofSeconds(5),
              Duration.ofMillis(200),
              Duration.ofMillis(200));
      try {
        GrpcMessageStream watch = connections.stream(0, "/etcdserverpb.Watch/Watch", new byte[0]);
        IOException e =
            assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> assertThrows(IOException.class, watch::next));
        assertEquals("the connection to etcd closed", e.getMessage());
        assertEquals(1, silent.pings.get());
        assertTrue(silent.closed.await(10, TimeUnit.SECONDS));
      } finally {
        connections.close();
      }
    }
  }

  @Test
  void aConnectionThatAnswersPingsIsKeptAndIsNotPingedWithoutAStreamOpen() throws Exception {
    try (Silent silent = new Silent(true)) {
      GrpcConnections connections =
          new GrpcConnections(
              List.of(silent.uri()),
              Duration.ofSeconds(5),
              Duration.ofMillis(100),
              Duration.ofMillis(500));
      try {
        GrpcMessageStream watch = connections.stream(0, "/etcdserverpb.Watch/Watch", new byte[0]);
        awaitAtLeast(silent.pings, 4);
        assertEquals(1, silent.closed.getCount(), "kept while its PINGs are answered");
        watch.close();
        // Give the stream's close time to reach the counter, then no PING comes.
        Thread.sleep(300);
        int after = silent.pings.get();
        Thread.sleep(600);
        assertEquals(after, silent.pings.get(), "no PING without a stream open");
        assertEquals(1, silent.closed.getCount());
        assertEquals(1, silent.accepted.get());
      } finally {
        connections.close();
      }
    }
  }
}
