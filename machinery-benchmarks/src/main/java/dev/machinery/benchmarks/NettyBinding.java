package dev.machinery.benchmarks;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API server's handler on Netty 4.2, for measurement only: {@link HttpLoad} runs the same
 * requests against it, the shipped JDK binding and Jetty. Two event loops read and write; the
 * handler, which blocks (storage, watches), runs on a group of 64 executor threads. Not part of the
 * library.
 */
final class NettyBinding implements AutoCloseable {
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final EventExecutorGroup handlers;
  private final Channel channel;

  private NettyBinding(
      EventLoopGroup boss, EventLoopGroup workers, EventExecutorGroup handlers, Channel channel) {
    this.boss = boss;
    this.workers = workers;
    this.handlers = handlers;
    this.channel = channel;
  }

  static NettyBinding start(ApiHandler handler) throws InterruptedException {
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    EventExecutorGroup handlers = new DefaultEventExecutorGroup(64);
    Channel channel =
        new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(3 * 1024 * 1024))
                        .addLast(handlers, new Api(handler));
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .sync()
            .channel();
    return new NettyBinding(boss, workers, handlers, channel);
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    handlers.shutdownGracefully();
    workers.shutdownGracefully();
    boss.shutdownGracefully();
  }

  /** One request at a time per connection, on an executor thread. */
  private static final class Api extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final ApiHandler handler;

    Api(ApiHandler handler) {
      this.handler = handler;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request)
        throws IOException {
      QueryStringDecoder uri = new QueryStringDecoder(request.uri());
      Map<String, List<String>> headers = new LinkedHashMap<>();
      request
          .headers()
          .forEach(
              e -> headers.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
      ApiResponse answer =
          handler.handle(
              new ApiRequest(
                  request.method().name(),
                  uri.path(),
                  uri.parameters(),
                  headers,
                  new ByteBufInputStream(request.content().retainedDuplicate(), true)));
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      HttpResponseStatus status = HttpResponseStatus.valueOf(answer.status());
      if (!answer.isStreaming()) {
        byte[] body = answer.body();
        FullHttpResponse response =
            new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        answer.headers().forEach((name, values) -> response.headers().add(name, values));
        HttpUtil.setContentLength(response, body.length);
        finish(ctx, response, keepAlive);
        return;
      }
      HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
      answer.headers().forEach((name, values) -> head.headers().add(name, values));
      head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
      ctx.writeAndFlush(head);
      try (OutputStream out =
          new OutputStream() {
            @Override
            public void write(int b) {
              write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
              ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(b, off, len)));
            }

            @Override
            public void flush() {
              ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).syncUninterruptibly();
            }
          }) {
        answer.writeBody(out);
      }
      ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
          .addListener(
              keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    private static void finish(
        ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
      if (keepAlive) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        ctx.writeAndFlush(response);
      } else {
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
      }
    }
  }
}
