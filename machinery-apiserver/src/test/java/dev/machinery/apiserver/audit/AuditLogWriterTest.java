package dev.machinery.apiserver.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log backend: valid JSON lines under concurrent requests over HTTP, and a full queue that
 * drops and counts instead of holding requests up.
 */
class AuditLogWriterTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void concurrentRequestsWriteOneValidLineEachStage() throws Exception {
    Path log = dir.resolve("audit/audit.log");
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    AuditLogWriter writer = AuditLogWriter.open(log);
    ApiServer server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n"),
                writer)
            .build();
    int threads = 8;
    int each = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    Set<String> ids = new HashSet<>();
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      String base = "http://127.0.0.1:" + binding.port();
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  if (!start.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the threads were not started in 60 s");
                  }
                  List<String> seen = new ArrayList<>();
                  for (int i = 0; i < each; i++) {
                    String name = "r-" + thread + "-" + i;
                    HttpURLConnection connection =
                        (HttpURLConnection)
                            URI.create(
                                    base + "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles")
                                .toURL()
                                .openConnection();
                    connection.setRequestMethod("POST");
                    connection.setDoOutput(true);
                    connection.setRequestProperty("Content-Type", "application/json");
                    try (OutputStream out = connection.getOutputStream()) {
                      out.write(
                          ("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\","
                                  + "\"kind\":\"Role\",\"metadata\":{\"name\":\""
                                  + name
                                  + "\"},\"rules\":[{\"verbs\":[\"get\"],"
                                  + "\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]}")
                              .getBytes(StandardCharsets.UTF_8));
                    }
                    assertEquals(201, connection.getResponseCode());
                    connection.getInputStream().readAllBytes();
                    String id = connection.getHeaderField("Audit-ID");
                    connection.disconnect();
                    seen.add(id);
                  }
                  return seen;
                }));
      }
      start.countDown();
      for (Future<List<String>> f : done) {
        ids.addAll(f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdown();
      writer.close();
    }
    assertEquals(threads * each, ids.size());
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    assertEquals(2 * threads * each, lines.size());
    assertEquals(0, writer.dropped());
    assertEquals(lines.size(), writer.written());
    Map<String, List<String>> stages = new HashMap<>();
    for (String line : lines) {
      JsonNode event = JSON.readTree(line);
      assertEquals("Event", event.get("kind").asText());
      assertEquals("127.0.0.1", event.at("/sourceIPs/0").asText());
      stages
          .computeIfAbsent(event.get("auditID").asText(), k -> new ArrayList<>())
          .add(event.get("stage").asText());
      if (event.get("stage").asText().equals("ResponseComplete")) {
        assertEquals(
            event.at("/objectRef/name").asText(),
            event.at("/requestObject/metadata/name").asText());
        assertEquals(201, event.at("/responseStatus/code").asInt());
      }
    }
    assertEquals(ids, stages.keySet());
    for (List<String> each2 : stages.values()) {
      assertEquals(List.of("RequestReceived", "ResponseComplete"), each2);
    }
  }

  @Test
  void fullQueueDropsAndCountsWithoutBlocking() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    StringBuilder written = new StringBuilder();
    OutputStream slowDisk =
        new OutputStream() {
          @Override
          public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public synchronized void write(byte[] bytes, int offset, int length) {
            writing.countDown();
            try {
              release.await(60, TimeUnit.SECONDS); // bounded, so the writer's thread ends
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            written.append(new String(bytes, offset, length, StandardCharsets.UTF_8));
          }
        };
    AuditLogWriter writer = AuditLogWriter.to(slowDisk, 1);
    writer.process(event("first"));
    writer.process(event("padding-to-flush-the-writer-buffer".repeat(300)));
    assertTrue(writing.await(30, TimeUnit.SECONDS));
    long before = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      writer.process(event("more-" + i));
    }
    assertTrue(System.nanoTime() - before < TimeUnit.SECONDS.toNanos(5));
    release.countDown();
    writer.close();
    long lines = written.toString().lines().count();
    assertEquals(7, lines + writer.dropped());
    assertTrue(writer.dropped() >= 4, "dropped " + writer.dropped());
    assertEquals(lines, writer.written());
    writer.process(event("after close"));
    assertEquals(8, lines + writer.dropped());
  }

  private static AuditEvent event(String uri) {
    return new AuditEvent(
        Level.METADATA,
        "id",
        Stage.RESPONSE_COMPLETE,
        "/" + uri,
        "get",
        UserInfo.of("u", List.of()),
        null,
        List.of(),
        "",
        null,
        AuditEvent.ResponseStatus.of(200),
        null,
        null,
        Instant.EPOCH,
        Instant.EPOCH,
        Map.of());
  }

  @Test
  void stdoutPathIsNotClosed() throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    AuditLogWriter writer = AuditLogWriter.to(out, 10);
    writer.process(event("x"));
    writer.close();
    assertEquals(
        "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\","
            + "\"auditID\":\"id\",\"stage\":\"ResponseComplete\",\"requestURI\":\"/x\","
            + "\"verb\":\"get\",\"user\":{\"username\":\"u\"},\"responseStatus\":{\"metadata\":{},"
            + "\"code\":200},\"requestReceivedTimestamp\":\"1970-01-01T00:00:00.000000Z\","
            + "\"stageTimestamp\":\"1970-01-01T00:00:00.000000Z\"}\n",
        out.toString(StandardCharsets.UTF_8));
    out.write('!');
  }
}
