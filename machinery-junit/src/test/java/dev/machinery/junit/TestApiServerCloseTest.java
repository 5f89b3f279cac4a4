package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Servers started and closed one after another in one JVM leave nothing behind: every thread a
 * server started (the HTTP binding's, the CustomResourceDefinition controller, the watch caches,
 * and for one server in ten, started with its defaults, Kubernetes' controllers, their informers
 * and the simulated nodes) has ended, and the closed servers are garbage, however many there were.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TestApiServerCloseTest {
  private static final int SERVERS = 50;

  @Test
  void fiftyServersStartedAndClosedLeaveNoThreadAndAreCollected() throws Exception {
    Set<Thread> before = threads();
    List<WeakReference<Object>> closed = new ArrayList<>();
    for (int i = 0; i < SERVERS; i++) {
      TestApiServer server =
          i % 10 == 0
              ? TestApiServer.start()
              : TestApiServer.builder().controllers(List.of()).nodes(0).start();
      try (Socket watcher = new Socket(InetAddress.getLoopbackAddress(), server.url().getPort())) {
        use(server, watcher);
        if (i == 0) {
          List<String> started = names(newThreads(before));
          assertTrue(
              started.contains("customresourcedefinitions controller")
                  && started.stream().anyMatch(n -> n.startsWith("watch-cache "))
                  && started.stream().anyMatch(n -> n.startsWith("machinery-apiserver-")),
              "the threads a server runs: " + started);
        }
        closed.add(new WeakReference<>(server));
        closed.add(new WeakReference<>(server.apiServer()));
        server.close();
      }
    }

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Set<Thread> left = newThreads(before);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      left = newThreads(before);
    }
    assertEquals(List.of(), names(left), "threads left by " + SERVERS + " closed servers");

    // Each closed server is unreachable: its memory is freed by the next collections.
    for (int attempt = 0;
        attempt < 20 && closed.stream().anyMatch(r -> r.get() != null);
        attempt++) {
      System.gc();
      byte[][] pressure = new byte[16][];
      for (int j = 0; j < pressure.length; j++) {
        pressure[j] = new byte[1 << 20];
      }
      Thread.sleep(10);
    }
    List<String> reachable =
        closed.stream()
            .map(WeakReference::get)
            .filter(o -> o != null)
            .map(Object::toString)
            .collect(Collectors.toList());
    assertEquals(List.of(), reachable, "closed servers still reachable");
  }

  /**
   * Starts what a server runs: a CustomResourceDefinition and an object of its kind, lists served
   * from watch caches, and a watch over HTTP left open while the server closes.
   */
  private static void use(TestApiServer server, Socket watcher) throws Exception {
    server.createCustomResourceDefinitions("crds/foos.yaml");
    assertEquals(
        201,
        request(
                server.apiServer(),
                "POST",
                "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos",
                "{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                    + "\"metadata\":{\"name\":\"a\"},\"spec\":{\"replicas\":1}}")
            .status());
    assertEquals(
        200,
        request(
                server.apiServer(),
                "GET",
                "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos?resourceVersion=0",
                null)
            .status());
    assertEquals(
        200,
        request(server.apiServer(), "GET", "/api/v1/configmaps?resourceVersion=0", null).status());
    OutputStream out = watcher.getOutputStream();
    out.write(
        ("GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = watcher.getInputStream();
    byte[] status = in.readNBytes("HTTP/1.1 200".length());
    assertEquals("HTTP/1.1 200", new String(status, StandardCharsets.US_ASCII));
  }

  private static ApiResponse request(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path.contains("?") ? path.substring(0, path.indexOf('?')) : path,
            path.contains("?") ? query(path.substring(path.indexOf('?') + 1)) : Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static Map<String, List<String>> query(String query) {
    String[] pair = query.split("=", 2);
    return Map.of(pair[0], List.of(pair[1]));
  }

  private static Set<Thread> threads() {
    Set<Thread> all = Collections.newSetFromMap(new IdentityHashMap<>());
    all.addAll(Thread.getAllStackTraces().keySet());
    return all;
  }

  private static Set<Thread> newThreads(Set<Thread> before) {
    Set<Thread> now = threads();
    now.removeAll(before);
    now.removeIf(t -> !t.isAlive());
    return now;
  }

  private static List<String> names(Set<Thread> threads) {
    return threads.stream().map(Thread::getName).sorted().collect(Collectors.toList());
  }
}
