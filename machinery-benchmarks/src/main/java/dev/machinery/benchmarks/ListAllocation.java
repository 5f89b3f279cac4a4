package dev.machinery.benchmarks;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a LIST of many Pods costs the server in memory: the bytes the answering thread allocates to
 * answer it and write its body (into a stream that keeps nothing, as a socket would take it),
 * beside the body's size, in compact JSON and in Kubernetes' protobuf. The Pods are {@link
 * ScalePods}' (about 6.5 KB of JSON each), created in one namespace of the sample server on memory;
 * each list is asked for once to warm the cache's kept encodings, then measured over several
 * rounds.
 *
 * <p>Run: {@code java -cp benchmarks.jar dev.machinery.benchmarks.ListAllocation [pods] [rounds]}.
 * Not thread-safe: a program.
 */
public final class ListAllocation {
  private static final String PODS = "/api/v1/namespaces/scale/pods";

  private ListAllocation() {}

  /**
   * Runs the measurement and prints a Markdown table.
   *
   * @param args the number of Pods (10,000 by default) and of rounds (5)
   * @throws Exception when the server fails
   */
  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    ApiServer server =
        SampleServer.build(Enablement.all(), Duration.ofSeconds(60), null, new MemoryStorage());
    check(call(server, "POST", "/api/v1/namespaces", "application/json", namespace()), 201, "ns");
    ScalePods objects = new ScalePods(36, 300);
    for (int i = 0; i < pods; i++) {
      check(call(server, "POST", PODS, "application/json", objects.pod("scale", i)), 201, "pod");
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(
        Locale.ROOT,
        "| representation | list body (bytes) | allocated a list (bytes, median of %d) | ÷ body |%n"
            + "| --- | ---: | ---: | ---: |%n",
        rounds);
    for (String accept : List.of("application/json", "application/vnd.kubernetes.protobuf")) {
      Counting warm = new Counting();
      call(server, "GET", PODS, accept, "").writeBody(warm);
      long[] allocated = new long[rounds];
      long size = 0;
      for (int r = 0; r < rounds; r++) {
        Counting out = new Counting();
        long before = threads.getCurrentThreadAllocatedBytes();
        ApiResponse response = call(server, "GET", PODS, accept, "");
        check(response, 200, "list");
        response.writeBody(out);
        allocated[r] = threads.getCurrentThreadAllocatedBytes() - before;
        size = out.count;
      }
      java.util.Arrays.sort(allocated);
      long median = allocated[rounds / 2];
      System.out.printf(
          Locale.ROOT, "| %s | %,d | %,d | %.3f |%n", accept, size, median, median / (double) size);
    }
    server.close();
  }

  private static String namespace() {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"scale\"}}";
  }

  private static ApiResponse call(
      ApiServer server, String method, String path, String accept, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Accept", List.of(accept), "Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static void check(ApiResponse response, int status, String what) {
    if (response.status() != status) {
      throw new IllegalStateException(
          what
              + ": "
              + response.status()
              + " "
              + (response.body() == null
                  ? ""
                  : new String(response.body(), StandardCharsets.UTF_8)));
    }
  }

  /** Counts what is written and keeps nothing. */
  private static final class Counting extends OutputStream {
    private long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }

    @Override
    public void write(byte[] b) throws IOException {
      count += b.length;
    }
  }
}
