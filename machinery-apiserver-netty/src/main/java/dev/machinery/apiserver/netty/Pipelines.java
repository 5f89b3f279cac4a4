package dev.machinery.apiserver.netty;

import dev.machinery.apiserver.http.ApiHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handlers a connection's pipeline gets once its protocol is known: HTTP/1.1's codec and one
 * {@link HttpConnection}, or HTTP/2's frame codec and multiplexer with an {@link HttpConnection} on
 * each stream, so that both protocols reach the handler through the same exchange.
 *
 * <p>Holds no state of its own beyond what it is built with; thread-safe.
 */
final class Pipelines {
  private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);

  /**
   * The flow-control window of a stream, and the largest frame read: kube-apiserver's 256 KiB (its
   * 99th percentile of resource bodies).
   */
  static final int STREAM_WINDOW_BYTES = 256 * 1024;

  private final ApiHandler handler;
  private final NettyOptions options;
  private final Executor workers;

  Pipelines(ApiHandler handler, NettyOptions options, Executor workers) {
    this.handler = handler;
    this.options = options;
    this.workers = workers;
  }

  /** Adds HTTP/1.1's handlers at the end of a pipeline. */
  void http1(ChannelPipeline pipeline) {
    pipeline
        .addLast(new IdleStateHandler(options.idleTimeout().toNanos(), 0, 0, TimeUnit.NANOSECONDS))
        .addLast(
            new HttpServerCodec(
                new HttpDecoderConfig()
                    .setMaxInitialLineLength(options.maxInitialLineBytes())
                    .setMaxHeaderSize(options.maxHeaderBytes())
                    .setMaxChunkSize(16 * 1024)))
        .addLast(new HttpServerExpectContinueHandler())
        .addLast(new HttpConnection(handler, options, workers, false));
  }

  /**
   * Adds HTTP/2's handlers at the end of a pipeline. The connection reads on its own (each stream
   * is paced by its flow-control window instead); a connection with no open stream is closed after
   * the idle timeout.
   */
  void http2(Channel channel) {
    channel.config().setAutoRead(true);
    Http2FrameCodec codec =
        Http2FrameCodecBuilder.forServer()
            .initialSettings(
                Http2Settings.defaultSettings()
                    .maxConcurrentStreams(options.http2MaxStreams())
                    .initialWindowSize(STREAM_WINDOW_BYTES)
                    .maxFrameSize(STREAM_WINDOW_BYTES)
                    .maxHeaderListSize(options.maxHeaderBytes()))
            .build();
    channel
        .pipeline()
        .addLast(new IdleStateHandler(0, 0, options.idleTimeout().toNanos(), TimeUnit.NANOSECONDS))
        .addLast(codec)
        .addLast(new IdleWithoutStreams(codec))
        .addLast(
            new Http2MultiplexHandler(
                new ChannelInitializer<Http2StreamChannel>() {
                  @Override
                  protected void initChannel(Http2StreamChannel stream) {
                    stream.config().setAutoRead(false);
                    stream
                        .pipeline()
                        .addLast(
                            new IdleStateHandler(
                                options.idleTimeout().toNanos(), 0, 0, TimeUnit.NANOSECONDS))
                        .addLast(new Http2StreamFrameToHttpObjectCodec(true))
                        .addLast(new HttpServerExpectContinueHandler())
                        .addLast(new HttpConnection(handler, options, workers, true));
                  }
                }));
  }

  /** Closes an HTTP/2 connection that has been idle with no stream open. */
  private static final class IdleWithoutStreams extends ChannelInboundHandlerAdapter {
    private final Http2FrameCodec codec;

    IdleWithoutStreams(Http2FrameCodec codec) {
      this.codec = codec;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof IdleStateEvent) {
        if (codec.connection().numActiveStreams() == 0) {
          LOG.debug("closing idle HTTP/2 connection {}", ctx.channel());
          ctx.close();
        }
        return;
      }
      ctx.fireUserEventTriggered(event);
    }
  }
}
