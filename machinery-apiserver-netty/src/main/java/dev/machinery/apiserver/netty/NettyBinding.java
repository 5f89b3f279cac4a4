package dev.machinery.apiserver.netty;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Serves an {@link ApiHandler} over HTTP/1.1, and HTTP/2 over TLS, with Netty: a few event loops
 * read and write every connection, and the handler runs on a bounded pool of worker threads, not on
 * an event loop, unless it says it answers a request without waiting ({@link
 * ApiHandler#answersWithoutWaiting}): such a request, once its empty body has been read, is
 * answered on the connection's event loop with no hand-off (a streamed answer is still written from
 * a worker).
 *
 * <p>A connection is read one request at a time. A request's body reaches the handler as a stream
 * while it arrives, the connection's reading paused while 256 KiB wait unread, and what the handler
 * leaves unread is read and dropped (up to 64 MiB) before the answer is sent, so a client still
 * sending a large body reads its {@code 413}. A streamed response (a watch) is written as chunks,
 * flushed after each event; its writer waits while the connection holds more than 64 KiB unsent,
 * and the connection is closed when the client has taken nothing for the idle timeout. A request
 * line longer than {@link NettyOptions#maxInitialLineBytes()} is answered {@code 414}, header
 * fields longer than {@link NettyOptions#maxHeaderBytes()} {@code 431}, each with a Status; a
 * connection that does not send a request's header fields within {@link
 * NettyOptions#requestHeaderTimeout()} is closed, as is one that sends nothing for {@link
 * NettyOptions#idleTimeout()} while its body is read. {@code Expect: 100-continue} is answered
 * {@code 100 Continue}; connections are kept alive as HTTP/1.1 and 1.0 ask.
 *
 * <p>The request log, when the options give a sink, has the lines of {@code JdkHttpBinding}'s: one
 * line a request when its response has ended (see {@link
 * dev.machinery.apiserver.http.HttpBindings#requestLogLine}).
 *
 * <p>With a {@link TlsConfig} it serves HTTPS through the JDK's {@code SSLEngine} (TLS 1.3 and 1.2
 * only), and hands the certificates a client presented to the handler in {@link
 * ApiRequest#peerCertificates()}. Over TLS it offers HTTP/2 by ALPN, as kube-apiserver does
 * (kubectl and Go's clients ask for it): each stream is one exchange with the handler, as a request
 * on an HTTP/1.1 connection is, with the same limits, request log and streamed responses; a
 * stream's request body is paced by its 256 KiB flow-control window, a connection holds at most
 * {@link NettyOptions#http2MaxStreams()} streams open, and one with no stream open is closed after
 * the idle timeout. Plain HTTP is HTTP/1.1 only.
 *
 * <p>Thread-safe; {@link #close()} stops accepting, closes the open connections and stops the
 * threads.
 */
public final class NettyBinding implements HttpBinding {
  private final EventLoopGroup loops;
  private final ThreadPoolExecutor workers;
  private final Channel channel;

  private NettyBinding(EventLoopGroup loops, ThreadPoolExecutor workers, Channel channel) {
    this.loops = loops;
    this.workers = workers;
    this.channel = channel;
  }

  /**
   * Starts serving on an address with the {@linkplain NettyOptions#defaults() default options}.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @return the running binding
   * @throws IOException when the address cannot be bound
   */
  public static NettyBinding start(ApiHandler handler, InetSocketAddress address)
      throws IOException {
    return start(handler, address, NettyOptions.defaults());
  }

  /**
   * Starts serving on an address.
   *
   * @param handler the handler
   * @param address where to listen; port 0 picks a free one
   * @param options threads, limits, deadlines, request log and TLS
   * @return the running binding
   * @throws IOException when the address cannot be bound
   * @throws IllegalStateException when the TLS configuration cannot make a TLS context
   */
  public static NettyBinding start(
      ApiHandler handler, InetSocketAddress address, NettyOptions options) throws IOException {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(options, "options");
    TlsConfig tls = options.tls();
    SSLContext context = tls == null ? null : tls.sslContext();
    AtomicInteger count = new AtomicInteger();
    ThreadFactory threads =
        runnable -> {
          Thread thread =
              new Thread(runnable, "machinery-apiserver-netty-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            0,
            options.maxThreads(),
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            threads,
            new ThreadPoolExecutor.AbortPolicy());
    EventLoopGroup loops =
        new MultiThreadIoEventLoopGroup(
            options.eventLoopThreads(),
            new DefaultThreadFactory("machinery-netty-io", true),
            NioIoHandler.newFactory());
    Pipelines pipelines = new Pipelines(handler, options, workers);
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(loops)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.AUTO_READ, false)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(32 * 1024, 64 * 1024))
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ChannelPipeline pipeline = ch.pipeline();
                    if (context == null) {
                      pipelines.http1(pipeline);
                      return;
                    }
                    SSLEngine engine = context.createSSLEngine();
                    engine.setUseClientMode(false);
                    SSLParameters parameters = tls.sslParameters(context);
                    parameters.setApplicationProtocols(
                        options.http2MaxStreams() > 0
                            ? new String[] {ProtocolNegotiation.H2, ProtocolNegotiation.HTTP_1_1}
                            : new String[] {ProtocolNegotiation.HTTP_1_1});
                    engine.setSSLParameters(parameters);
                    pipeline.addLast(new SslHandler(engine));
                    pipeline.addLast(new ProtocolNegotiation(pipelines));
                  }
                });
    ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownNow();
      Throwable cause = bound.cause();
      if (cause instanceof IOException e) {
        throw e;
      }
      throw new IOException("cannot listen on " + address + ": " + cause.getMessage(), cause);
    }
    return new NettyBinding(loops, workers, bound.channel());
  }

  /**
   * Returns a starter for {@code ApiServer.serve(address, starter)}: the binding runs with these
   * options, and with the server's request log and TLS configuration where the server has them.
   *
   * @param options threads, limits and deadlines, and the request log and TLS configuration to use
   *     where the server has none
   * @return the starter
   */
  public static HttpBinding.Starter starter(NettyOptions options) {
    Objects.requireNonNull(options, "options");
    return (handler, address, requestLog, tls) ->
        start(
            handler,
            address,
            options
                .withRequestLog(requestLog != null ? requestLog : options.requestLog())
                .withTls(tls != null ? tls : options.tls()));
  }

  @Override
  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownNow();
  }
}
