package dev.machinery.apiserver.netty;

import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.HttpBindings;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection: reads one request at a time (the channel does not read on its own; this handler
 * asks for each message), hands it to the handler on the worker executor, and writes the response,
 * a streamed one part by part as the client takes it.
 *
 * <p>Its state is confined to the channel's event loop; the worker thread reaches it only through
 * {@link RequestBody}, the channel's thread-safe write methods and tasks run on the event loop.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);

  /** The most bytes of a refused request's body read (and dropped) before its answer is sent. */
  static final long MAX_DRAIN_BYTES = 64L * 1024 * 1024;

  private final ApiHandler handler;
  private final NettyOptions options;
  private final Executor workers;
  private final boolean multiplexed;
  private final Object writability = new Object();
  private ChannelHandlerContext ctx;
  private Exchange current;
  private ScheduledFuture<?> headerDeadline;
  private final ArrayDeque<Object> inbox = new ArrayDeque<>();
  private boolean wanted;
  private boolean draining;

  /**
   * A connection's handler.
   *
   * @param multiplexed whether the channel is one HTTP/2 stream (one exchange, then closed) rather
   *     than an HTTP/1.x connection
   */
  HttpConnection(ApiHandler handler, NettyOptions options, Executor workers, boolean multiplexed) {
    this.handler = handler;
    this.options = options;
    this.workers = workers;
    this.multiplexed = multiplexed;
  }

  /** One request and its response. Fields written by the worker are volatile. */
  private static final class Exchange {
    final String method;
    final String rawPath;
    final String rawQuery;
    final HttpVersion version;
    final long start;
    RequestBody body;
    boolean keepAlive;
    volatile boolean requestComplete;
    boolean drainExceeded;
    long discarded;
    FullHttpResponse pending;

    /** A request answered on the event loop once its (empty) body has ended; else null. */
    ApiRequest inline;

    volatile int status;
    volatile long bytes;

    Exchange(
        String method,
        String rawPath,
        String rawQuery,
        HttpVersion version,
        boolean keepAlive,
        long start) {
      this.method = method;
      this.rawPath = rawPath;
      this.rawQuery = rawQuery;
      this.version = version;
      this.keepAlive = keepAlive;
      this.start = start;
    }
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    armHeaderDeadline();
    want();
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    cancelHeaderDeadline();
    Exchange exchange = current;
    if (exchange != null && exchange.body != null) {
      exchange.body.fail();
    }
    if (exchange != null && exchange.pending != null) {
      exchange.pending.release();
      exchange.pending = null;
    }
    Object waiting;
    while ((waiting = inbox.poll()) != null) {
      ReferenceCountUtil.release(waiting);
    }
    wakeWriters();
    ctx.fireChannelInactive();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    wakeWriters();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent) {
      Exchange exchange = current;
      if (exchange == null || !exchange.requestComplete) {
        LOG.debug("closing {}: nothing received for {}", ctx.channel(), options.idleTimeout());
        ctx.close();
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("connection {} failed", ctx.channel(), cause);
    ctx.close();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    inbox.add(msg);
    if (!draining) {
      drain();
    }
  }

  /** Asks for the next message: a waiting one, or one read from the connection. */
  private void want() {
    wanted = true;
    if (!draining) {
      drain();
    }
  }

  private void drain() {
    draining = true;
    try {
      while (wanted && !inbox.isEmpty()) {
        wanted = false;
        process(inbox.poll());
      }
    } finally {
      draining = false;
    }
    if (wanted && ctx.channel().isActive()) {
      ctx.read();
    }
  }

  private void process(Object msg) {
    if (msg instanceof HttpRequest request) {
      cancelHeaderDeadline();
      if (current != null) {
        ReferenceCountUtil.release(msg);
        ctx.close();
        return;
      }
      if (request.decoderResult().isFailure()) {
        ReferenceCountUtil.release(msg);
        refuse(request, request.decoderResult().cause());
        return;
      }
      if (!start(request)) {
        ReferenceCountUtil.release(msg);
        return;
      }
    }
    if (msg instanceof HttpContent content) {
      receive(content);
    } else if (!(msg instanceof HttpRequest)) {
      ReferenceCountUtil.release(msg);
    }
  }

  /** Starts an exchange; false when the request was refused at once. */
  private boolean start(HttpRequest request) {
    long start = System.nanoTime();
    URI target;
    try {
      target = new URI(request.uri());
    } catch (URISyntaxException e) {
      refuse(request, e);
      return false;
    }
    String rawPath = target.getRawPath() == null ? "" : target.getRawPath();
    String path = target.getPath() == null ? "" : target.getPath();
    Exchange exchange =
        new Exchange(
            request.method().name(),
            rawPath,
            target.getRawQuery(),
            request.protocolVersion(),
            !multiplexed && HttpUtil.isKeepAlive(request),
            start);
    exchange.body = new RequestBody(() -> onEventLoop(this::resumeBody));
    Map<String, List<String>> headers = new LinkedHashMap<>();
    request
        .headers()
        .forEach(
            e -> {
              if (!multiplexed || !isHttp2Extension(e.getKey())) {
                headers.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
              }
            });
    ApiRequest apiRequest =
        new ApiRequest(
            exchange.method,
            path,
            HttpBindings.query(exchange.rawQuery),
            headers,
            exchange.body,
            peerCertificates());
    current = exchange;
    boolean noBody =
        HttpUtil.getContentLength(request, 0L) == 0 && !HttpUtil.isTransferEncodingChunked(request);
    if (noBody && handler.answersWithoutWaiting(apiRequest)) {
      // Answered here once the body's end (nothing) has been read: no worker thread, no hand-off.
      exchange.inline = apiRequest;
      want();
      return true;
    }
    CompletionStage<ApiResponse> later =
        noBody ? handler.handleAsync(apiRequest, ctx.executor(), workers) : null;
    if (later != null) {
      // No thread waits: the answer is written when it comes.
      later.whenComplete(
          (response, failure) -> {
            if (ctx.executor().inEventLoop()) {
              answered(exchange, response, failure);
            } else {
              onEventLoop(() -> answered(exchange, response, failure));
            }
          });
      want();
      return true;
    }
    try {
      workers.execute(() -> handle(exchange, apiRequest));
    } catch (RejectedExecutionException e) {
      exchange.body.close();
      respond(
          exchange,
          ApiResponse.of(
                  429,
                  "application/json",
                  status(
                      429,
                      "TooManyRequests",
                      "the server is handling "
                          + options.maxThreads()
                          + " requests, its most; try again later"))
              .withHeader("Retry-After", "1"));
    }
    want();
    return true;
  }

  private void receive(HttpContent content) {
    Exchange exchange = current;
    if (exchange == null || exchange.requestComplete) {
      content.release();
      return;
    }
    boolean more;
    if (exchange.body.isClosed()) {
      exchange.discarded += content.content().readableBytes();
      content.release();
      more = exchange.discarded <= MAX_DRAIN_BYTES;
      if (!more) {
        exchange.drainExceeded = true;
        if (exchange.pending != null) {
          FullHttpResponse pending = exchange.pending;
          exchange.pending = null;
          exchange.keepAlive = false;
          write(exchange, pending);
        }
        return;
      }
    } else {
      more = exchange.body.offer(content.content());
    }
    if (content instanceof LastHttpContent) {
      exchange.requestComplete = true;
      exchange.body.end();
      if (exchange.inline != null) {
        ApiRequest request = exchange.inline;
        exchange.inline = null;
        handle(exchange, request);
        return;
      }
      if (exchange.pending != null) {
        FullHttpResponse pending = exchange.pending;
        exchange.pending = null;
        write(exchange, pending);
      }
      return;
    }
    if (more) {
      want();
    }
  }

  /** The handler took enough of a paused body: read on. */
  private void resumeBody() {
    Exchange exchange = current;
    if (exchange != null && !exchange.requestComplete && !exchange.drainExceeded) {
      want();
    }
  }

  /**
   * Runs on a worker thread, or on the event loop for a request the handler answers without
   * waiting.
   */
  private void handle(Exchange exchange, ApiRequest request) {
    ApiResponse response;
    try {
      response = handler.handle(request);
    } catch (RuntimeException e) {
      LOG.warn("handler failed on {} {}", exchange.method, exchange.rawPath, e);
      exchange.body.close();
      if (ctx.executor().inEventLoop()) {
        abort(exchange);
      } else {
        onEventLoop(() -> abort(exchange));
      }
      return;
    }
    exchange.body.close();
    boolean onLoop = ctx.executor().inEventLoop();
    if (response.isStreaming()) {
      if (!onLoop) {
        stream(exchange, response);
        return;
      }
      // A streamed answer waits on the client: never on the event loop.
      try {
        workers.execute(() -> stream(exchange, response));
      } catch (RejectedExecutionException e) {
        abort(exchange);
      }
    } else if (onLoop) {
      respond(exchange, response);
    } else {
      onEventLoop(() -> respond(exchange, response));
    }
  }

  /** On the event loop: writes an answer that came later ({@link ApiHandler#handleAsync}). */
  private void answered(Exchange exchange, ApiResponse response, Throwable failure) {
    exchange.body.close();
    if (failure != null) {
      LOG.warn("handler failed on {} {}", exchange.method, exchange.rawPath, failure);
      abort(exchange);
    } else if (response.isStreaming()) {
      try {
        workers.execute(() -> stream(exchange, response));
      } catch (RejectedExecutionException e) {
        abort(exchange);
      }
    } else {
      respond(exchange, response);
    }
  }

  /** Runs a task on the channel's event loop, unless the binding is closing. */
  private void onEventLoop(Runnable task) {
    try {
      ctx.executor().execute(task);
    } catch (RejectedExecutionException e) {
      LOG.debug("the binding closed before an answer was written");
    }
  }

  private void respond(Exchange exchange, ApiResponse response) {
    if (!ctx.channel().isActive()) {
      finish(exchange, false);
      return;
    }
    boolean head = exchange.method.equals("HEAD");
    byte[] body = response.body();
    FullHttpResponse full =
        new DefaultFullHttpResponse(
            exchange.version,
            HttpResponseStatus.valueOf(response.status()),
            head || body.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
    response.headers().forEach((name, values) -> full.headers().add(name, values));
    if (body.length > 0 || response.status() != 204 && response.status() != 304) {
      HttpUtil.setContentLength(full, body.length);
    }
    exchange.status = response.status();
    exchange.bytes = head ? 0 : body.length;
    if (!exchange.requestComplete && !exchange.drainExceeded) {
      exchange.pending = full;
      return;
    }
    if (!exchange.requestComplete) {
      exchange.keepAlive = false;
    }
    write(exchange, full);
  }

  private void write(Exchange exchange, FullHttpResponse response) {
    connectionHeader(exchange, response);
    ctx.writeAndFlush(response).addListener(f -> finish(exchange, f.isSuccess()));
  }

  /** Whether a header field is one Netty adds when it turns an HTTP/2 stream into a request. */
  private static boolean isHttp2Extension(String name) {
    return name.regionMatches(true, 0, "x-http2-", 0, "x-http2-".length());
  }

  private void connectionHeader(Exchange exchange, HttpResponse response) {
    if (multiplexed) {
      return;
    }
    if (!exchange.keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    } else if (exchange.version.equals(HttpVersion.HTTP_1_0)) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    }
  }

  /** Runs on a worker thread: writes a streamed body, waiting while the client is behind. */
  private void stream(Exchange exchange, ApiResponse response) {
    boolean chunked = exchange.version.equals(HttpVersion.HTTP_1_1);
    HttpResponse head =
        new DefaultHttpResponse(exchange.version, HttpResponseStatus.valueOf(response.status()));
    response.headers().forEach((name, values) -> head.headers().add(name, values));
    if (!multiplexed) {
      if (chunked) {
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
      } else {
        head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      }
    }
    exchange.status = response.status();
    ChannelOutput out = new ChannelOutput();
    ctx.writeAndFlush(head);
    try {
      response.writeBody(out);
      out.flush();
    } catch (IOException e) {
      LOG.debug("connection ended while streaming {} {}", exchange.method, exchange.rawPath, e);
    } catch (RuntimeException e) {
      LOG.warn("streaming {} {} failed", exchange.method, exchange.rawPath, e);
      ctx.close();
    }
    exchange.bytes = out.count;
    if (ctx.executor().isShuttingDown()) {
      return;
    }
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
        .addListener(
            f -> {
              if (!chunked || !exchange.requestComplete) {
                exchange.keepAlive = false;
              }
              finish(exchange, f.isSuccess());
            });
  }

  private void abort(Exchange exchange) {
    finish(exchange, false);
  }

  /** Runs on the event loop once a response has been written (or has failed). */
  private void finish(Exchange exchange, boolean written) {
    if (options.requestLog() != null) {
      HttpBindings.log(
          options.requestLog(),
          HttpBindings.requestLogLine(
              exchange.method,
              exchange.rawPath,
              exchange.rawQuery,
              exchange.status,
              exchange.bytes,
              exchange.start));
    }
    if (current == exchange) {
      current = null;
    }
    if (!written || !exchange.keepAlive || !ctx.channel().isActive()) {
      ctx.close();
      return;
    }
    armHeaderDeadline();
    want();
  }

  /** Answers a request the codec could not read, or whose target is not a URI, and closes. */
  private void refuse(HttpRequest request, Throwable cause) {
    int code;
    String reason;
    String message;
    if (cause instanceof TooLongHttpLineException) {
      code = 414;
      reason = "";
      message = "the request line is longer than " + options.maxInitialLineBytes() + " bytes";
    } else if (cause instanceof TooLongHttpHeaderException) {
      code = 431;
      reason = "";
      message =
          "the request's header fields are longer than " + options.maxHeaderBytes() + " bytes";
    } else if (cause instanceof TooLongFrameException) {
      code = 400;
      reason = "BadRequest";
      message = "malformed HTTP request: a part is too long";
    } else {
      code = 400;
      reason = "BadRequest";
      message = "malformed HTTP request: " + cause.getMessage();
    }
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(code),
            Unpooled.wrappedBuffer(status(code, reason, message)));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    HttpUtil.setContentLength(response, response.content().readableBytes());
    LOG.debug("refused a request on {}: {}", ctx.channel(), message);
    String method = request.method() == null ? "-" : request.method().name();
    long start = System.nanoTime();
    int length = response.content().readableBytes();
    ctx.writeAndFlush(response)
        .addListener(
            f -> {
              if (options.requestLog() != null) {
                HttpBindings.log(
                    options.requestLog(),
                    HttpBindings.requestLogLine(method, "-", null, code, length, start));
              }
              ctx.close();
            });
  }

  /** A Status body in JSON, as the API server writes its failures. */
  static byte[] status(int code, String reason, String message) {
    StringBuilder json = new StringBuilder();
    json.append(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\"");
    json.append(",\"message\":");
    quote(json, message);
    if (!reason.isEmpty()) {
      json.append(",\"reason\":");
      quote(json, reason);
    }
    json.append(",\"code\":").append(code).append('}');
    return json.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void quote(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    json.append('"');
  }

  private List<X509Certificate> peerCertificates() {
    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
    if (ssl == null && ctx.channel().parent() != null) {
      ssl = ctx.channel().parent().pipeline().get(SslHandler.class);
    }
    if (ssl == null) {
      return List.of();
    }
    try {
      List<X509Certificate> chain = new ArrayList<>();
      for (Certificate certificate : ssl.engine().getSession().getPeerCertificates()) {
        if (certificate instanceof X509Certificate x509) {
          chain.add(x509);
        }
      }
      return chain;
    } catch (SSLPeerUnverifiedException e) {
      return List.of();
    }
  }

  private void armHeaderDeadline() {
    cancelHeaderDeadline();
    headerDeadline =
        ctx.executor()
            .schedule(
                () -> {
                  if (current == null) {
                    LOG.debug(
                        "closing {}: no request within {}",
                        ctx.channel(),
                        options.requestHeaderTimeout());
                    ctx.close();
                  }
                },
                options.requestHeaderTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
  }

  private void cancelHeaderDeadline() {
    if (headerDeadline != null) {
      headerDeadline.cancel(false);
      headerDeadline = null;
    }
  }

  private void wakeWriters() {
    synchronized (writability) {
      writability.notifyAll();
    }
  }

  /**
   * A streamed body's output: writes are gathered into chunks of up to {@value #CHUNK} bytes; a
   * flush sends what was written. A writer waits while the channel holds more than its high water
   * mark unsent, and gives up (closing the connection) when the client has taken nothing for the
   * idle timeout.
   */
  private final class ChannelOutput extends OutputStream {
    private static final int CHUNK = 16 * 1024;
    private final byte[] buffer = new byte[CHUNK];
    private int buffered;
    private long count;

    @Override
    public void write(int b) throws IOException {
      if (buffered == CHUNK) {
        emit();
      }
      buffer[buffered++] = (byte) b;
      count++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      open();
      if (length >= CHUNK) {
        emit();
        send(Unpooled.copiedBuffer(bytes, offset, length));
      } else {
        if (length > CHUNK - buffered) {
          emit();
        }
        System.arraycopy(bytes, offset, buffer, buffered, length);
        buffered += length;
      }
      count += length;
    }

    @Override
    public void flush() throws IOException {
      open();
      if (buffered > 0) {
        ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(buffer, 0, buffered)));
        buffered = 0;
      }
      ctx.flush();
      awaitWritable();
    }

    /** Sends the gathered bytes as a chunk. */
    private void emit() throws IOException {
      if (buffered > 0) {
        send(Unpooled.copiedBuffer(buffer, 0, buffered));
        buffered = 0;
      }
    }

    private void send(ByteBuf chunk) throws IOException {
      open();
      ctx.write(new DefaultHttpContent(chunk));
      if (!ctx.channel().isWritable()) {
        ctx.flush();
        awaitWritable();
      }
    }

    private void open() throws IOException {
      if (!ctx.channel().isActive()) {
        throw new IOException("the client closed the connection");
      }
    }

    private void awaitWritable() throws IOException {
      long deadline = System.nanoTime() + options.idleTimeout().toNanos();
      synchronized (writability) {
        while (ctx.channel().isActive() && !ctx.channel().isWritable()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            ctx.close();
            throw new IOException(
                "the client took nothing for " + options.idleTimeout() + "; closed");
          }
          try {
            writability.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the client was behind", e);
          }
        }
      }
      open();
    }
  }
}
