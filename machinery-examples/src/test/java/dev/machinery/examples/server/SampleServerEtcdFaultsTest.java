package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Faults on a three-member etcd cluster under two sample-server replicas: while a writer on each
 * replica increments one counter by compare-and-swap (retrying what was answered 409, 5xx or timed
 * out, and checking its own token, kept in a field the other writer carries over unchanged, to tell
 * whether an unanswered write landed), the etcd leader is killed and restarted, then a member
 * neither replica goes to first has its data directory wiped and re-joins the cluster (removed and
 * added back through another member's gateway, started again as an existing cluster's new member),
 * then the whole cluster is stopped and started. No acknowledged increment is lost and none is
 * applied twice (the counter ends equal to the acknowledged increments), and a watcher on one
 * replica sees the counter's changes in order, without a gap or a duplicate, resuming from its last
 * resourceVersion (or relisting after a 410).
 */
class SampleServerEtcdFaultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COUNTER = "/api/v1/namespaces/default/configmaps/counter";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void noAcknowledgedWriteIsLostAcrossLeaderAndClusterRestarts() throws Exception {
    List<EtcdProcess> members = EtcdProcess.cluster(3);
    List<JdkHttpBinding> bindings = new ArrayList<>();
    List<ApiServer> servers = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      for (int r = 0; r < 2; r++) {
        List<URI> endpoints = new ArrayList<>(members.stream().map(EtcdProcess::endpoint).toList());
        Collections.rotate(endpoints, r);
        ApiServer server =
            SampleServer.build(
                Enablement.all(),
                Duration.ofSeconds(1),
                null,
                EtcdStorage.builder(endpoints.toArray(URI[]::new))
                    // One server through etcd's JSON gateway, the other over its gRPC API.
                    .grpc(r == 1)
                    .prefix("/faults/")
                    .requestTimeout(Duration.ofSeconds(2))
                    .resumeFor(Duration.ofSeconds(60))
                    .build());
        if (r == 0) {
          SampleServer.loadSamples(server);
        }
        servers.add(server);
        bindings.add(server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
      }
      String one = "http://127.0.0.1:" + bindings.get(0).port();
      String two = "http://127.0.0.1:" + bindings.get(1).port();
      HttpResponse<String> created =
          send(
              HttpRequest.newBuilder(URI.create(one + "/api/v1/namespaces/default/configmaps"))
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                              + "\"counter\"},\"data\":{\"n\":\"0\",\"last\":\"\"}}")));
      assertEquals(201, created.statusCode(), created.body());
      String startRv =
          JSON.readTree(created.body()).path("metadata").path("resourceVersion").asText();

      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger acknowledged = new AtomicInteger();
      List<Long> watched = Collections.synchronizedList(new ArrayList<>());
      AtomicInteger relists = new AtomicInteger();
      Future<?> watcher = pool.submit(() -> watch(two, startRv, stop, watched, relists));
      Future<?> writerOne = pool.submit(() -> write(one, "one", stop, acknowledged));
      Future<?> writerTwo = pool.submit(() -> write(two, "two", stop, acknowledged));

      Thread.sleep(2_000);
      EtcdProcess leader = leader(members);
      leader.stop();
      Thread.sleep(2_000);
      leader.startAgain();
      Thread.sleep(2_000);
      // Replica 0 goes to member 0 first, replica 1 to member 2: wipe the one neither prefers.
      members.get(1).wipeAndRejoin(members);
      Thread.sleep(2_000);
      for (EtcdProcess member : members) {
        member.stop();
      }
      Thread.sleep(2_000);
      restartAll(members);
      Thread.sleep(3_000);
      stop.set(true);
      writerOne.get(60, TimeUnit.SECONDS);
      writerTwo.get(60, TimeUnit.SECONDS);

      long counter = counter(one);
      System.err.println(
          "etcd faults: "
              + acknowledged.get()
              + " acknowledged increments through two replicas, "
              + relists.get()
              + " relists by the watcher");
      assertEquals(acknowledged.get(), counter, "acknowledged increments against the counter");
      assertTrue(counter > 0, "the writers made progress");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (lastWatched(watched) < counter && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      watcher.cancel(true);
      List<Long> seen;
      synchronized (watched) {
        seen = List.copyOf(watched);
      }
      assertEquals(
          counter, lastWatched(seen), "the watcher saw the last value; relists: " + relists);
      for (int i = 1; i < seen.size(); i++) {
        if (seen.get(i) != -1 && seen.get(i - 1) != -1) {
          assertEquals(seen.get(i - 1) + 1, seen.get(i), "no gap and no duplicate at " + i);
        }
      }
    } finally {
      pool.shutdownNow();
      for (JdkHttpBinding binding : bindings) {
        binding.close();
      }
      for (ApiServer server : servers) {
        server.storage().close();
      }
      for (EtcdProcess member : members) {
        member.close();
      }
    }
  }

  /** The members are started together: one alone has no quorum to become healthy. */
  private static void restartAll(List<EtcdProcess> members) throws Exception {
    ExecutorService starters = Executors.newFixedThreadPool(members.size());
    try {
      List<Future<?>> started = new ArrayList<>();
      for (EtcdProcess member : members) {
        started.add(
            starters.submit(
                () -> {
                  member.startAgain();
                  return null;
                }));
      }
      for (Future<?> f : started) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      starters.shutdownNow();
    }
  }

  /** The member that leads, by each member's own status. */
  private EtcdProcess leader(List<EtcdProcess> members) throws Exception {
    for (EtcdProcess member : members) {
      HttpResponse<String> status =
          send(
              HttpRequest.newBuilder(member.endpoint().resolve("/v3/maintenance/status"))
                  .POST(HttpRequest.BodyPublishers.ofString("{}")));
      JsonNode answer = JSON.readTree(status.body());
      if (answer.path("leader").asText().equals(answer.path("header").path("member_id").asText())) {
        return member;
      }
    }
    throw new AssertionError("no member says it leads");
  }

  /** Increments by compare-and-swap until told to stop; counts the increments that landed. */
  private void write(String base, String writer, AtomicBoolean stop, AtomicInteger acknowledged) {
    int attempt = 0;
    while (!stop.get()) {
      String token = writer + "-" + attempt++;
      try {
        HttpResponse<String> current = send(HttpRequest.newBuilder(URI.create(base + COUNTER)));
        if (current.statusCode() != 200) {
          continue;
        }
        ObjectNode object = (ObjectNode) JSON.readTree(current.body());
        long n = Long.parseLong(object.path("data").path("n").asText());
        ObjectNode data = (ObjectNode) object.path("data");
        data.put("n", Long.toString(n + 1));
        data.put("last", token);
        // The writer's own field: the other writer's increments carry it over unchanged, so it
        // still tells whether this write landed after the other one wrote on top of it.
        data.put(writer, token);
        HttpResponse<String> put =
            send(
                HttpRequest.newBuilder(URI.create(base + COUNTER))
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(object.toString())));
        if (put.statusCode() == 200) {
          acknowledged.incrementAndGet();
          continue;
        }
        if (put.statusCode() == 409) {
          // Refused, unless an earlier try of this very write landed: the token tells.
          if (landed(base, token)) {
            acknowledged.incrementAndGet();
          }
          continue;
        }
        settle(base, token, stop, acknowledged);
      } catch (IOException e) {
        settle(base, token, stop, acknowledged);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** After an answer that says nothing (5xx, a time-out), find out whether the write landed. */
  private void settle(String base, String token, AtomicBoolean stop, AtomicInteger acknowledged) {
    while (true) {
      try {
        HttpResponse<String> current = send(HttpRequest.newBuilder(URI.create(base + COUNTER)));
        if (current.statusCode() == 200) {
          if (JSON.readTree(current.body())
              .path("data")
              .path(writerOf(token))
              .asText()
              .equals(token)) {
            acknowledged.incrementAndGet();
          }
          return;
        }
      } catch (IOException e) {
        // The server or etcd is still away: ask again.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private boolean landed(String base, String token) throws IOException, InterruptedException {
    HttpResponse<String> current = send(HttpRequest.newBuilder(URI.create(base + COUNTER)));
    return current.statusCode() == 200
        && JSON.readTree(current.body()).path("data").path(writerOf(token)).asText().equals(token);
  }

  /**
   * Watches the counter from a resourceVersion, resuming from the last one seen when the stream
   * ends; after a 410 it relists (a -1 marks the relist, where a gap is allowed).
   */
  private void watch(
      String base, String fromRv, AtomicBoolean stop, List<Long> watched, AtomicInteger relists) {
    String rv = fromRv;
    while (!Thread.currentThread().isInterrupted()) {
      try {
        HttpResponse<InputStream> response =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(
                            base
                                + "/api/v1/namespaces/default/configmaps?watch=true"
                                + "&fieldSelector=metadata.name%3Dcounter&resourceVersion="
                                + rv))
                    .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
          response.body().close();
          Thread.sleep(100);
          continue;
        }
        try (BufferedReader lines =
            new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = lines.readLine()) != null) {
            JsonNode event = JSON.readTree(line);
            JsonNode object = event.path("object");
            if (event.path("type").asText().equals("ERROR")) {
              if (object.path("code").asInt() == 410) {
                relists.incrementAndGet();
                watched.add(-1L);
                rv = counterRv(base);
              }
              break;
            }
            rv = object.path("metadata").path("resourceVersion").asText();
            if (event.path("type").asText().equals("MODIFIED")) {
              watched.add(Long.parseLong(object.path("data").path("n").asText()));
            }
          }
        }
      } catch (IOException e) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private String counterRv(String base) throws IOException, InterruptedException {
    while (true) {
      HttpResponse<String> current = send(HttpRequest.newBuilder(URI.create(base + COUNTER)));
      if (current.statusCode() == 200) {
        return JSON.readTree(current.body()).path("metadata").path("resourceVersion").asText();
      }
      Thread.sleep(100);
    }
  }

  private long counter(String base) throws IOException, InterruptedException {
    while (true) {
      HttpResponse<String> current = send(HttpRequest.newBuilder(URI.create(base + COUNTER)));
      if (current.statusCode() == 200) {
        return Long.parseLong(JSON.readTree(current.body()).path("data").path("n").asText());
      }
      Thread.sleep(100);
    }
  }

  /** The writer of a token {@code writer-attempt}. */
  private static String writerOf(String token) {
    return token.substring(0, token.lastIndexOf('-'));
  }

  private static long lastWatched(List<Long> watched) {
    synchronized (watched) {
      return watched.isEmpty() ? 0 : watched.get(watched.size() - 1);
    }
  }

  private HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
