package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.storage.StorageException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The etcd client's own HTTP/1.1 connections, against a scripted server on loopback: answers sized
 * and chunked (with the trailers etcd's gateway sends), connections kept and reused, a kept
 * connection the server closed while idle, and answers that are not HTTP as expected, which fail
 * the call with a typed error naming what was wrong.
 */
class GatewayConnectionTest {
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
  }

  private static String sized(String json) {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        + json.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + json;
  }

  @Test
  void aSizedAnswerIsReadAndTheConnectionKept() throws Exception {
    Script server = script(request -> sized("{\"header\":{\"revision\":\"7\"}}"));
    EtcdClient client = client(server);
    for (int i = 0; i < 3; i++) {
      JsonNode answer = client.call("/v3/kv/range", EtcdClient.object().put("count_only", true));
      assertEquals(7, EtcdClient.revision(answer));
    }
    assertEquals(1, server.connections.get(), "three calls on one kept connection");
    String first = server.requests.take();
    assertTrue(first.startsWith("POST /v3/kv/range HTTP/1.1\r\n"), first);
    assertTrue(first.endsWith("\r\n\r\n{\"count_only\":true}"), first);
  }

  @Test
  void aChunkedAnswerWithTrailersIsReadWhole() throws Exception {
    String json =
        "{\"error\":\"etcdserver: mvcc: required revision has been compacted\",\"code\":11}";
    String half = json.substring(0, 20);
    String rest = json.substring(20);
    Script server =
        script(
            request ->
                "HTTP/1.1 400 Bad Request\r\nTrailer: Grpc-Trailer-Content-Type\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(half.length())
                    + "\r\n"
                    + half
                    + "\r\n"
                    + Integer.toHexString(rest.length())
                    + ";ext=1\r\n"
                    + rest
                    + "\r\n0\r\nGrpc-Trailer-Content-Type: application/grpc\r\n\r\n");
    EtcdClient client = client(server);
    for (int i = 0; i < 2; i++) {
      StorageException e =
          assertThrows(
              StorageException.class, () -> client.call("/v3/kv/range", EtcdClient.object()));
      assertEquals(StorageException.Kind.COMPACTED, e.kind());
    }
    assertEquals(1, server.connections.get(), "the chunked answer was read to its end");
  }

  @Test
  void aConnectionCloseAnswerIsNotKept() throws Exception {
    Script server =
        script(request -> "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
    EtcdClient client = client(server);
    client.call("/v3/kv/range", EtcdClient.object());
    client.call("/v3/kv/range", EtcdClient.object());
    assertEquals(2, server.connections.get());
  }

  @Test
  void aKeptConnectionClosedWhileIdleIsReplacedAndTheCallSentOnce() throws Exception {
    AtomicInteger answered = new AtomicInteger();
    Script server = script(request -> sized("{\"n\":" + answered.incrementAndGet() + "}"));
    server.closeAfterEachAnswer = true;
    EtcdClient client = client(server);
    assertEquals(1, client.call("/v3/kv/put", EtcdClient.object()).path("n").asInt());
    // the server closed the kept connection after its answer, as an idle timeout would
    assertEquals(2, client.call("/v3/kv/put", EtcdClient.object()).path("n").asInt());
    assertEquals(2, server.connections.get());
    assertEquals(2, answered.get(), "each call reached the server once");
  }

  @Test
  void aCallEtcdIsSlowToAnswerOnAKeptConnectionIsNotSentAgain() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Script server =
        script(
            request -> {
              if (seen.incrementAndGet() == 2) {
                try {
                  release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return sized("{}");
            });
    EtcdClient client =
        new EtcdClient(
            List.of(URI.create("http://127.0.0.1:" + server.socket.getLocalPort())),
            Duration.ofMillis(300));
    open.add(client::close);
    client.call("/v3/kv/txn", EtcdClient.object());
    try {
      StorageException e =
          assertThrows(
              StorageException.class, () -> client.call("/v3/kv/txn", EtcdClient.object()));
      assertEquals(StorageException.Kind.UNAVAILABLE, e.kind());
      assertTrue(e.getMessage().contains("Read timed out"), e.getMessage());
    } finally {
      release.countDown();
    }
    assertEquals(2, seen.get(), "a write etcd may still apply is not sent twice");
    assertEquals(1, server.connections.get());
  }

  @Test
  void anAnswerCutInsideItsBodyFailsTheCallAndIsNotRetried() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    Script server =
        script(
            request -> {
              seen.incrementAndGet();
              return "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"partial\":";
            });
    server.closeAfterEachAnswer = true;
    EtcdClient client = client(server);
    StorageException e =
        assertThrows(StorageException.class, () -> client.call("/v3/kv/txn", EtcdClient.object()));
    assertEquals(StorageException.Kind.UNAVAILABLE, e.kind());
    assertTrue(e.getMessage().contains("after 11 of 100 bytes"), e.getMessage());
    assertEquals(1, seen.get(), "a write the server may have applied is not sent twice");
  }

  @Test
  void answersThatAreNotHttpAsExpectedAreTypedErrors() throws Exception {
    record Case(String answer, String expected) {}
    List<Case> cases =
        List.of(
            new Case("SSH-2.0-OpenSSH\r\n\r\n", "status line that is not HTTP/1.x: SSH-2.0"),
            new Case("HTTP/1.1 2x0 OK\r\n\r\n", "status line without a status code"),
            new Case("HTTP/1.1 200 OK\r\n\r\n{}", "neither Content-Length nor chunked"),
            new Case("HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n", "not a size: -4"),
            new Case(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "chunk size that is not hex: zz"),
            new Case(
                "HTTP/1.1 200 OK\r\nX-Long: " + "a".repeat(GatewayConnection.MAX_LINE) + "\r\n\r\n",
                "a line longer than 16384 bytes"),
            new Case(
                "HTTP/1.1 200 OK\r\n" + "X-Many: 1\r\n".repeat(101) + "\r\n",
                "more than 100 headers"),
            new Case(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
                    + "X-Trailer: 1\r\n".repeat(101)
                    + "\r\n",
                "more than 100 trailers"));
    for (Case c : cases) {
      Script server = script(request -> c.answer());
      server.closeAfterEachAnswer = true;
      EtcdClient client = client(server);
      StorageException e =
          assertThrows(
              StorageException.class, () -> client.call("/v3/kv/range", EtcdClient.object()));
      assertEquals(StorageException.Kind.UNAVAILABLE, e.kind(), c.answer());
      assertTrue(e.getMessage().contains(c.expected()), e.getMessage());
    }
  }

  @Test
  void callsFromManyThreadsAtOnceEachGetTheirOwnAnswer() throws Exception {
    Script server =
        script(
            request -> {
              String body = request.substring(request.indexOf("\r\n\r\n") + 4);
              return sized("{\"echo\":" + body + "}");
            });
    EtcdClient client = client(server);
    int threads = 8;
    int calls = 50;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < calls; i++) {
                    JsonNode answer =
                        client.call(
                            "/v3/kv/range", EtcdClient.object().put("t", thread).put("i", i));
                    assertEquals(thread, answer.path("echo").path("t").asInt());
                    assertEquals(i, answer.path("echo").path("i").asInt());
                  }
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(threads * calls, server.requests.size());
    assertTrue(
        server.connections.get() <= threads,
        "connections kept and reused: " + server.connections.get());
  }

  @Test
  void aCallAfterCloseStillWorksOnAConnectionOfItsOwn() throws Exception {
    Script server = script(request -> sized("{}"));
    EtcdClient client = client(server);
    client.call("/v3/kv/range", EtcdClient.object());
    client.close();
    client.call("/v3/kv/range", EtcdClient.object());
    client.call("/v3/kv/range", EtcdClient.object());
    assertEquals(3, server.connections.get(), "no connection kept after close");
  }

  private EtcdClient client(Script server) {
    EtcdClient client =
        new EtcdClient(
            List.of(URI.create("http://127.0.0.1:" + server.socket.getLocalPort())),
            Duration.ofSeconds(5));
    open.add(client::close);
    return client;
  }

  private Script script(Function<String, String> answer) throws IOException {
    Script script = new Script(answer);
    open.add(script);
    script.start();
    return script;
  }

  /** A loopback server answering each request as its function says. */
  private static final class Script implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final Function<String, String> answer;
    final AtomicInteger connections = new AtomicInteger();
    final BlockingQueue<String> requests = new LinkedBlockingQueue<>();
    volatile boolean closeAfterEachAnswer;

    Script(Function<String, String> answer) throws IOException {
      this.answer = answer;
    }

    void start() {
      Thread thread =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection));
                    serving.setDaemon(true);
                    serving.start();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    private void serve(Socket connection) {
      try (connection) {
        InputStream in = new BufferedInputStream(connection.getInputStream());
        OutputStream out = connection.getOutputStream();
        while (true) {
          String request = readRequest(in);
          if (request == null) {
            return;
          }
          requests.add(request);
          out.write(answer.apply(request).getBytes(StandardCharsets.UTF_8));
          out.flush();
          if (closeAfterEachAnswer) {
            return;
          }
        }
      } catch (IOException e) {
        // the client went away
      }
    }

    private static String readRequest(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      while (matched < 4) {
        int b = in.read();
        if (b < 0) {
          return null;
        }
        head.write(b);
        matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      String text = head.toString(StandardCharsets.US_ASCII);
      int length = 0;
      for (String line : text.split("\r\n")) {
        if (line.toLowerCase().startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
      }
      return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
