package dev.machinery.apiserver.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for a TLS connection's handshake, then gives the pipeline the handlers of the protocol the
 * client and server agreed on by ALPN: {@code h2} gets HTTP/2's, anything else (no ALPN, or {@code
 * http/1.1}) HTTP/1.1's. What was decrypted before the protocol was known is handed on after.
 *
 * <p>One instance a connection, confined to its event loop.
 */
final class ProtocolNegotiation extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ProtocolNegotiation.class);

  /** The ALPN name of HTTP/2 over TLS. */
  static final String H2 = "h2";

  /** The ALPN name of HTTP/1.1. */
  static final String HTTP_1_1 = "http/1.1";

  private final Pipelines pipelines;
  private final ArrayDeque<Object> early = new ArrayDeque<>();
  private boolean chosen;

  ProtocolNegotiation(Pipelines pipelines) {
    this.pipelines = pipelines;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.read();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (chosen) {
      ctx.fireChannelRead(msg);
    } else {
      early.add(msg);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (!chosen) {
      ctx.read();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof SslHandshakeCompletionEvent done && !chosen) {
      if (!done.isSuccess()) {
        LOG.debug("TLS handshake with {} failed", ctx.channel(), done.cause());
        ctx.close();
        return;
      }
      chosen = true;
      SslHandler ssl = ctx.pipeline().get(SslHandler.class);
      String protocol = ssl.engine().getApplicationProtocol();
      if (H2.equals(protocol)) {
        pipelines.http2(ctx.channel());
      } else {
        pipelines.http1(ctx.pipeline());
      }
      ctx.fireChannelActive();
      Object msg;
      while ((msg = early.poll()) != null) {
        ctx.fireChannelRead(msg);
      }
      ctx.fireChannelReadComplete();
      ctx.pipeline().remove(this);
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    Object msg;
    while ((msg = early.poll()) != null) {
      ReferenceCountUtil.release(msg);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (chosen) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    LOG.debug("connection {} failed before its protocol was chosen", ctx.channel(), cause);
    ctx.close();
  }
}
