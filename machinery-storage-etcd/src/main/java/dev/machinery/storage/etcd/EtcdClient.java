package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.core.codec.DecodeException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls of etcd v3, in the JSON gateway's form ({@code /v3/kv/range}, {@code /v3/kv/txn},
 * {@code /v3/kv/compaction}, {@code /v3/watch}; keys and values in base64, 64-bit numbers as JSON
 * strings, as the gateway writes them). Calls go either over etcd's gRPC API, one HTTP/2 connection
 * an endpoint carrying unary calls and watches alike ({@link GrpcConnection}, the messages
 * translated by {@link EtcdMessages}), or to the gateway: unary calls on HTTP/1.1 connections of
 * its own, kept alive ({@link GatewayConnection}, up to {@value #MAX_IDLE} idle an endpoint),
 * watches on the JDK's HTTP client. A request that cannot reach one endpoint is tried on the next;
 * an etcd error becomes a {@link StorageException} of the kind the {@code Storage} contract names.
 * Thread-safe.
 */
final class EtcdClient {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * kube-apiserver's keepalive time for etcd: how long nothing is heard before a probe. Here, not
   * in {@link GrpcKeepAlive}, so that a client of the gateway loads no Netty class.
   */
  static final Duration KEEP_ALIVE_TIME = Duration.ofSeconds(30);

  /** kube-apiserver's keepalive timeout for etcd: how long a probe may go unanswered. */
  static final Duration KEEP_ALIVE_TIMEOUT = Duration.ofSeconds(10);

  /** The most connections kept idle per endpoint: the most calls seen at once, up to this. */
  static final int MAX_IDLE = 64;

  private final List<URI> endpoints;
  private final HttpClient http;
  private final Duration timeout;
  private final Duration keepAliveTimeout;
  private final AtomicInteger preferred = new AtomicInteger();
  private final List<Deque<GatewayConnection>> idle;
  private final GrpcConnections grpc;

  /** Looks after the gateway's watches; null over gRPC, whose connections have their own. */
  private final GatewayKeepAlive keepAlive;

  private final EtcdTls tls;

  private volatile boolean closed;

  /** A client whose calls and watches go to the JSON gateway. */
  EtcdClient(List<URI> endpoints, Duration timeout) {
    this(endpoints, timeout, false);
  }

  /**
   * A client whose calls and watches go over gRPC, or to the JSON gateway.
   *
   * @param grpc true for etcd's gRPC API
   */
  EtcdClient(List<URI> endpoints, Duration timeout, boolean grpc) {
    this(endpoints, timeout, grpc, KEEP_ALIVE_TIME, KEEP_ALIVE_TIMEOUT);
  }

  /**
   * A client whose calls and watches go over gRPC, or to the JSON gateway, with a keepalive of its
   * own.
   *
   * @param grpc true for etcd's gRPC API
   * @param keepAliveTime how long nothing is heard before a connection (gRPC) or a watch's endpoint
   *     (the gateway) is probed
   * @param keepAliveTimeout how long the probe may go unanswered
   */
  EtcdClient(
      List<URI> endpoints,
      Duration timeout,
      boolean grpc,
      Duration keepAliveTime,
      Duration keepAliveTimeout) {
    this(endpoints, timeout, grpc, keepAliveTime, keepAliveTimeout, EtcdTls.DEFAULT);
  }

  /**
   * A client as above, speaking TLS to {@code https} endpoints as {@code tls} says.
   *
   * @param tls the context and checks of TLS connections
   */
  EtcdClient(
      List<URI> endpoints,
      Duration timeout,
      boolean grpc,
      Duration keepAliveTime,
      Duration keepAliveTimeout,
      EtcdTls tls) {
    this.endpoints = List.copyOf(endpoints);
    this.tls = tls;
    this.grpc =
        grpc
            ? new GrpcConnections(this.endpoints, timeout, keepAliveTime, keepAliveTimeout, tls)
            : null;
    this.keepAlive =
        grpc
            ? null
            : new GatewayKeepAlive(keepAliveTime, keepAliveTimeout, this::answers, this.endpoints);
    this.timeout = timeout;
    this.keepAliveTimeout = keepAliveTimeout;
    this.http =
        endpoints.stream().anyMatch(EtcdTls::secure)
            ? HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .sslContext(tls.context())
                .sslParameters(tls.clientParameters())
                .build()
            : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    List<Deque<GatewayConnection>> pools = new ArrayList<>();
    for (int i = 0; i < this.endpoints.size(); i++) {
      pools.add(new ConcurrentLinkedDeque<>());
    }
    this.idle = List.copyOf(pools);
  }

  /**
   * POSTs a request to a gateway path and returns the parsed answer, on a kept-alive connection of
   * the first endpoint that answers.
   */
  JsonNode call(String path, JsonNode body) {
    if (grpc != null) {
      return callGrpc(path, body);
    }
    byte[] bytes = write(body);
    GatewayConnection.Answer response = onFirstReachable(index -> exchange(index, path, bytes));
    JsonNode answer = read(response.body());
    if (response.status() != 200 || answer.has("error")) {
      throw failure(answer, response.status());
    }
    return answer;
  }

  /** What one endpoint's attempt returns, or the {@link IOException} of not reaching it. */
  @FunctionalInterface
  private interface Attempt<T> {
    T on(int endpoint) throws IOException;
  }

  /**
   * Tries an attempt on each endpoint in turn, from the one that last answered, until one is
   * reached; that one is preferred from then on.
   *
   * @throws StorageException of kind {@code UNAVAILABLE} naming the last failure when none is
   */
  private <T> T onFirstReachable(Attempt<T> attempt) {
    StorageException last = null;
    int first = preferred.get();
    for (int i = 0; i < endpoints.size(); i++) {
      int index = (first + i) % endpoints.size();
      T result;
      try {
        result = attempt.on(index);
      } catch (IOException e) {
        last = unavailable("etcd at " + endpoints.get(index) + " cannot be reached: " + e);
        continue;
      }
      preferred.set(index);
      return result;
    }
    throw last;
  }

  private JsonNode callGrpc(String path, JsonNode body) {
    EtcdMessages.Method method = EtcdMessages.method(path);
    byte[] request = method.request.encode(body);
    GrpcConnection.Reply reply = onFirstReachable(index -> grpc.call(index, method.path, request));
    if (reply.status() != 0) {
      throw failure(reply.message(), "gRPC status " + reply.status());
    }
    try {
      return method.response.decode(reply.body());
    } catch (DecodeException e) {
      throw unavailable(
          "etcd answered "
              + method.path
              + " with what is not a "
              + method.response.name
              + ": "
              + e.getMessage());
    }
  }

  /**
   * One exchange on an idle connection to an endpoint, or a new one. A kept connection the gateway
   * closed while it was idle fails before any byte of an answer; the call is then sent again on a
   * new connection (the gateway never read it).
   */
  private GatewayConnection.Answer exchange(int index, String path, byte[] body)
      throws IOException {
    Deque<GatewayConnection> pool = idle.get(index);
    GatewayConnection kept = pool.pollFirst();
    if (kept != null) {
      try {
        return keep(pool, kept, kept.post(path, body));
      } catch (IOException e) {
        kept.close();
        // Closed while idle: nothing of an answer came, and not for lack of time (a slow etcd may
        // still apply the call, which must then not be sent twice).
        if (kept.answered() || e instanceof SocketTimeoutException) {
          throw e;
        }
      }
    }
    GatewayConnection fresh = GatewayConnection.open(endpoints.get(index), timeout, tls);
    try {
      return keep(pool, fresh, fresh.post(path, body));
    } catch (IOException e) {
      fresh.close();
      throw e;
    }
  }

  private GatewayConnection.Answer keep(
      Deque<GatewayConnection> pool,
      GatewayConnection connection,
      GatewayConnection.Answer answer) {
    if (answer.keepAlive() && !closed && pool.size() < MAX_IDLE) {
      pool.offerFirst(connection);
      if (closed && pool.remove(connection)) {
        connection.close();
      }
    } else {
      connection.close();
    }
    return answer;
  }

  /**
   * The gateway's keepalive, which watches on the gateway register with, or null over gRPC (whose
   * connections have their own).
   */
  GatewayKeepAlive keepAlive() {
    return keepAlive;
  }

  /**
   * Whether an endpoint answers a count of one key (etcd's own health check reads the key {@code
   * health}) on a new connection, within the keepalive's timeout to connect and as much again to
   * answer: the gateway keepalive's probe.
   */
  private boolean answers(int index) {
    ObjectNode range = object();
    range.put("key", base64("health"));
    range.put("count_only", true);
    byte[] body = write(range);
    try (GatewayConnection connection =
        GatewayConnection.open(endpoints.get(index), keepAliveTimeout, tls)) {
      return connection.post("/v3/kv/range", body).status() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  /** Closes the idle connections; calls made after this one open and close their own. */
  void close() {
    closed = true;
    if (keepAlive != null) {
      keepAlive.close();
    }
    if (grpc != null) {
      grpc.close();
    }
    for (Deque<GatewayConnection> pool : idle) {
      for (GatewayConnection connection = pool.pollFirst();
          connection != null;
          connection = pool.pollFirst()) {
        connection.close();
      }
    }
  }

  /**
   * Opens a watch: its messages, read one by one (a streamed POST to the gateway, or etcd's gRPC
   * {@code Watch} stream).
   *
   * @throws StorageException of kind {@code UNAVAILABLE} when no endpoint answers
   */
  WatchMessages stream(String path, JsonNode body) {
    if (grpc != null) {
      return streamGrpc(path, body);
    }
    byte[] bytes = write(body);
    StorageException last = null;
    int first = preferred.get();
    for (int i = 0; i < endpoints.size(); i++) {
      int index = (first + i) % endpoints.size();
      // The timeout holds until the answer's headers: a member that hangs fails the opening.
      HttpRequest request =
          HttpRequest.newBuilder(endpoints.get(index).resolve(path))
              .header("Content-Type", "application/json")
              .timeout(timeout)
              .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
              .build();
      try {
        HttpResponse<InputStream> response =
            http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
          try (InputStream in = response.body()) {
            throw failure(read(in.readAllBytes()), response.statusCode());
          }
        }
        preferred.set(index);
        return WatchMessages.ofGateway(response.body(), index);
      } catch (IOException e) {
        last = unavailable("etcd at " + endpoints.get(index) + " cannot be reached: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw unavailable("interrupted while calling etcd");
      }
    }
    throw last;
  }

  /** A watch over gRPC: each message of its stream decoded as it is read. */
  private WatchMessages streamGrpc(String path, JsonNode body) {
    EtcdMessages.Method method = EtcdMessages.method(path);
    byte[] request = method.request.encode(body);
    return onFirstReachable(
        index ->
            WatchMessages.ofGrpc(grpc.stream(index, method.path, request), method.response, index));
  }

  static byte[] write(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }

  static JsonNode read(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw unavailable(
          "etcd answered what is not JSON: "
              + new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8));
    }
  }

  /** An etcd error answer, as the storage contract names it. */
  private static StorageException failure(JsonNode answer, int httpStatus) {
    return failure(answer.path("error").asText(answer.path("message").asText("")), "" + httpStatus);
  }

  /** An etcd error, by its message (the same on the gateway and over gRPC). */
  private static StorageException failure(String message, String status) {
    if (message.contains("required revision has been compacted")) {
      return new StorageException(StorageException.Kind.COMPACTED, null, 0, message);
    }
    return unavailable("etcd answered " + status + ": " + message);
  }

  static StorageException unavailable(String message) {
    return new StorageException(StorageException.Kind.UNAVAILABLE, null, 0, message);
  }

  // ---- the gateway's encoding

  static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  static String text(JsonNode base64) {
    return new String(bytes(base64), StandardCharsets.UTF_8);
  }

  static byte[] bytes(JsonNode base64) {
    if (base64 == null || base64.isNull() || base64.isMissingNode()) {
      return new byte[0];
    }
    if (base64.isBinary()) {
      // Read over gRPC: the bytes themselves.
      try {
        return base64.binaryValue();
      } catch (IOException e) {
        throw new IllegalStateException("a binary node without bytes", e);
      }
    }
    return Base64.getDecoder().decode(base64.asText());
  }

  /** A 64-bit number the gateway writes as a string (absent when zero). */
  static long number(JsonNode node) {
    return node == null || node.isMissingNode() || node.isNull()
        ? 0
        : Long.parseLong(node.asText());
  }

  /** The revision in an answer's header. */
  static long revision(JsonNode answer) {
    return number(answer.path("header").path("revision"));
  }

  /** A gateway {@code mvccpb.KeyValue}, its key without the store's prefix. */
  static KeyValue keyValue(JsonNode kv, String prefix) {
    String key = text(kv.path("key"));
    return new KeyValue(
        key.substring(prefix.length()),
        bytes(kv.get("value")),
        number(kv.path("create_revision")),
        number(kv.path("mod_revision")),
        number(kv.path("version")));
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  /**
   * The end of the range of keys that start with a prefix: the prefix with its last byte that is
   * not 0xff incremented, as etcd's clients compute it ({@code "\0"} for every key).
   */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if ((end[i] & 0xff) < 0xff) {
        end[i]++;
        return java.util.Arrays.copyOf(end, i + 1);
      }
    }
    return new byte[] {0};
  }
}
