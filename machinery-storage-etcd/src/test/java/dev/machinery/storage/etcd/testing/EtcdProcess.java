package dev.machinery.storage.etcd.testing;

import dev.machinery.apiserver.testing.RequiredTools;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real etcd for a test: the {@code etcd} binary (Debian's {@code etcd-server}; {@code .ci/run}
 * installs it) started as a single member on free loopback ports with a temporary data directory,
 * and stopped, its directory removed, by {@link #close()}. {@link #restart()} stops and starts it
 * again on the same ports and data. Where no etcd is installed, {@link #start()} fails with a
 * message saying how to install it: tests of the etcd storage never skip silently. {@link
 * #cluster(int)} starts several members that form one cluster, each a process of its own that a
 * test may stop and start again, or wipe and have re-join the cluster ({@link
 * #wipeAndRejoin(List)}).
 */
public final class EtcdProcess implements AutoCloseable {
  private final Path binary;
  private final Path dataDir;
  private final int clientPort;
  private final int peerPort;
  private final String name;
  private String initialCluster;
  private String initialClusterState = "new";
  private List<String> extraFlags = List.of();
  private EtcdTlsFiles tls;
  private int metricsPort;
  private Process process;

  private EtcdProcess(Path binary, Path dataDir, String name, int clientPort, int peerPort) {
    this.binary = binary;
    this.dataDir = dataDir;
    this.name = name;
    this.clientPort = clientPort;
    this.peerPort = peerPort;
    this.initialCluster = name + "=" + peerUrl();
  }

  private String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  /**
   * Starts a single-member etcd.
   *
   * @return the running etcd
   * @throws IOException when it cannot be started
   * @throws org.opentest4j.AssertionFailedError when no etcd binary is installed
   */
  public static EtcdProcess start() throws IOException {
    EtcdProcess etcd =
        new EtcdProcess(
            binary(),
            Files.createTempDirectory("machinery-etcd"),
            "machinery-test",
            freePort(),
            freePort());
    etcd.launch();
    return etcd;
  }

  /**
   * Starts a single-member etcd that serves its clients over TLS only and asks each for a
   * certificate its CA signed ({@code --client-cert-auth}), as kubeadm runs etcd; its health is
   * probed on a metrics port in clear.
   *
   * @param files the CA and the member's pair ({@link EtcdTlsFiles#generate})
   * @return the running etcd, whose {@link #endpoint()} is {@code https}
   * @throws IOException when it cannot be started
   */
  public static EtcdProcess startWithTls(EtcdTlsFiles files) throws IOException {
    EtcdProcess etcd =
        new EtcdProcess(
            binary(),
            Files.createTempDirectory("machinery-etcd-tls"),
            "machinery-test",
            freePort(),
            freePort());
    etcd.tls = files;
    etcd.metricsPort = freePort();
    etcd.launch();
    return etcd;
  }

  /**
   * Starts a cluster of several members on free loopback ports, and waits until every member is
   * healthy (a member is healthy once the cluster has a leader).
   *
   * @param members how many members, such as 3
   * @return the members, in order; close each
   * @throws IOException when one cannot be started
   */
  public static List<EtcdProcess> cluster(int members) throws IOException {
    return cluster(members, List.of());
  }

  /**
   * Starts a cluster of several members, as {@link #cluster(int)}, each given more of etcd's flags.
   *
   * @param members how many members, such as 3
   * @param flags more flags for every member, such as {@code --snapshot-count=10000}
   * @return the members, in order; close each
   * @throws IOException when one cannot be started
   */
  public static List<EtcdProcess> cluster(int members, List<String> flags) throws IOException {
    Path binary = binary();
    List<EtcdProcess> cluster = new java.util.ArrayList<>();
    for (int i = 0; i < members; i++) {
      cluster.add(
          new EtcdProcess(
              binary,
              Files.createTempDirectory("machinery-etcd-" + i),
              "member-" + i,
              freePort(),
              freePort()));
    }
    String initial =
        String.join(",", cluster.stream().map(m -> m.name + "=" + m.peerUrl()).toList());
    for (EtcdProcess member : cluster) {
      member.initialCluster = initial;
      member.extraFlags = List.copyOf(flags);
      member.spawn();
    }
    for (EtcdProcess member : cluster) {
      member.awaitHealthy();
    }
    return cluster;
  }

  /**
   * Starts a member stopped by {@link #stop()} again, on its ports and data, and waits until it is
   * healthy.
   *
   * @throws IOException when it cannot be started
   */
  public void startAgain() throws IOException {
    if (process == null) {
      launch();
    }
  }

  /**
   * Wipes this member's data and has it join its cluster again as a new member, the way etcd 3.4
   * wants it: a member whose data is gone cannot start under its old identity. It stops this member
   * (if it runs), deletes its data directory (keeping only its log), removes it from the cluster
   * and adds it back on the same peer URL through the JSON gateway of another running member
   * ({@code /v3/cluster/member/remove} and {@code /v3/cluster/member/add}), then starts it with an
   * empty data directory, {@code --initial-cluster-state existing} and every member's name and peer
   * URL as {@code --initial-cluster}, and waits until it is healthy. The other members keep serving
   * throughout; they must hold a quorum without this one.
   *
   * @param cluster every member of the cluster, this one included, as {@link #cluster(int)}
   *     returned them
   * @throws IOException when the cluster refuses the change or the member does not come back
   */
  public void wipeAndRejoin(List<EtcdProcess> cluster) throws IOException {
    EtcdProcess gateway =
        cluster.stream()
            .filter(m -> m != this && m.process != null && m.process.isAlive())
            .findFirst()
            .orElseThrow(() -> new IOException("no other running member to re-join through"));
    stop();
    try (Stream<Path> files = Files.walk(dataDir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!file.equals(dataDir) && !file.equals(dataDir.resolve("etcd.log"))) {
          Files.delete(file);
        }
      }
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    retry(
        "remove " + name,
        () -> {
          String id = memberId(gateway.gateway(http, "/v3/cluster/member/list", "{}"));
          if (id != null) {
            gateway.gateway(http, "/v3/cluster/member/remove", "{\"ID\":\"" + id + "\"}");
          }
        });
    retry(
        "add " + name,
        () -> {
          if (memberId(gateway.gateway(http, "/v3/cluster/member/list", "{}")) == null) {
            gateway.gateway(
                http, "/v3/cluster/member/add", "{\"peerURLs\":[\"" + peerUrl() + "\"]}");
          }
        });
    initialCluster =
        String.join(",", cluster.stream().map(m -> m.name + "=" + m.peerUrl()).toList());
    initialClusterState = "existing";
    launch();
  }

  /** A call to the cluster that may fail while it elects a leader or settles a change. */
  private interface ClusterCall {
    void run() throws IOException, InterruptedException;
  }

  private static void retry(String what, ClusterCall call) throws IOException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      try {
        call.run();
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException("could not " + what + " in 30 s", e);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while trying to " + what, e);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while trying to " + what, e);
      }
    }
  }

  /** Posts JSON to this member's gateway; a status other than 200 is an IOException. */
  private String gateway(HttpClient http, String path, String body)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(endpoint().resolve(path))
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** This member's ID in a member list (by its peer URL), or null when it is not in the list. */
  private String memberId(String memberList) {
    Matcher member = Pattern.compile("\\{\"ID\":\"(\\d+)\"[^{}]*\\}").matcher(memberList);
    while (member.find()) {
      if (member.group().contains("\"" + peerUrl() + "\"")) {
        return member.group(1);
      }
    }
    return null;
  }

  /**
   * The etcd binary: {@code ETCD_BINARY}, else {@code etcd} on the PATH.
   *
   * @return the binary
   * @throws org.opentest4j.AssertionFailedError when there is none, saying what to install
   */
  public static Path binary() {
    String explicit = System.getenv("ETCD_BINARY");
    if (explicit != null && !explicit.isEmpty()) {
      return Path.of(explicit);
    }
    return RequiredTools.onPath("etcd")
        .orElseThrow(() -> RequiredTools.missing(RequiredTools.ETCD, "the etcd storage tests"));
  }

  /**
   * Returns the client endpoint.
   *
   * @return {@code http://127.0.0.1:port}, or {@code https://} for a member started with TLS
   */
  public URI endpoint() {
    return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + clientPort);
  }

  /**
   * Stops etcd and starts it again on the same ports and data.
   *
   * @throws IOException when it cannot be started
   */
  public void restart() throws IOException {
    stop();
    launch();
  }

  /**
   * Pauses etcd ({@code SIGSTOP}): its connections stay open, and nothing on them is answered or
   * reset, as with a member whose machine hangs or whose network drops every packet.
   *
   * @throws IOException when the signal cannot be sent
   */
  public void pause() throws IOException {
    signal("STOP");
  }

  /**
   * Lets a paused etcd go on ({@code SIGCONT}).
   *
   * @throws IOException when the signal cannot be sent
   */
  public void resume() throws IOException {
    signal("CONT");
  }

  private void signal(String name) throws IOException {
    if (process == null) {
      throw new IllegalStateException("etcd " + this.name + " is not running");
    }
    try {
      int exit =
          new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
              .inheritIO()
              .start()
              .waitFor();
      if (exit != 0) {
        throw new IOException("kill -" + name + " " + process.pid() + " exited with " + exit);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while signalling etcd", e);
    }
  }

  /** Stops etcd (its data stays until {@link #close()}). */
  public void stop() {
    if (process != null) {
      process.destroy();
      try {
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process = null;
    }
  }

  private void launch() throws IOException {
    spawn();
    awaitHealthy();
  }

  private void spawn() throws IOException {
    String client = endpoint().toString();
    String peer = peerUrl();
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                binary.toString(),
                "--name",
                name,
                "--data-dir",
                dataDir.toString(),
                "--listen-client-urls",
                client,
                "--advertise-client-urls",
                client,
                "--listen-peer-urls",
                peer,
                "--initial-advertise-peer-urls",
                peer,
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-token",
                "machinery-test-cluster",
                "--initial-cluster-state",
                initialClusterState,
                "--logger",
                "zap",
                "--log-outputs",
                dataDir.resolve("etcd.log").toString()));
    if (tls != null) {
      command.addAll(
          List.of(
              "--cert-file",
              tls.serverCert().toString(),
              "--key-file",
              tls.serverKey().toString(),
              "--client-cert-auth",
              "--trusted-ca-file",
              tls.ca().toString(),
              "--listen-metrics-urls",
              "http://127.0.0.1:" + metricsPort));
    }
    command.addAll(extraFlags);
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
  }

  private void awaitHealthy() throws IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "etcd exited with " + process.exitValue() + "; see " + dataDir.resolve("etcd.log"));
      }
      try {
        HttpResponse<String> health =
            http.send(
                HttpRequest.newBuilder(
                        tls == null
                            ? endpoint().resolve("/health")
                            : URI.create("http://127.0.0.1:" + metricsPort + "/health"))
                    .timeout(Duration.ofSeconds(1))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200 && health.body().contains("true")) {
          return;
        }
      } catch (IOException e) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for etcd", e);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for etcd", e);
      }
    }
    stop();
    throw new IOException("etcd did not become healthy in 30 s on " + endpoint());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException {
    stop();
    try (Stream<Path> files = Files.walk(dataDir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }
}
