package dev.machinery.junit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.builtins.DefaultAdmission;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.cluster.SimulatedNode;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.clock.FakeClock;
import dev.machinery.core.runtime.Scheme;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * A running API server for tests: every built-in kind and CustomResourceDefinitions (their CEL
 * validation rules enforced), in memory, on a free loopback port over plain HTTP, anyone allowed to
 * do anything, with Kubernetes' controllers and three simulated nodes running against it (in
 * process, each a client of its API: {@code machinery-cluster}). Made by {@link EnableApiServer},
 * by {@link #start()} or by {@link #builder()}; {@link #close()} stops it, the controllers, every
 * thread it started, and deletes its kubeconfig. As in a cluster, what runs decides two settings:
 * with the service account controller, kube-apiserver's {@code ServiceAccount} admission plugin is
 * on (each pod gets its namespace's {@code default} account and the projected token volume); with
 * the namespace controller, a deleted namespace stays {@code Terminating} until the controller has
 * deleted its content.
 *
 * <p>Thread-safe: any number of clients may use it at once.
 */
public final class TestApiServer implements AutoCloseable {
  private static final List<String> NAMESPACES =
      List.of("default", "kube-system", "kube-public", "kube-node-lease");

  /** The mappers, made when a manifest or a refusal is first read (not at start). */
  private static final class Mappers {
    static final ObjectMapper JSON = new ObjectMapper();
    static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());
  }

  private final ApiServer server;
  private final JdkHttpBinding binding;
  private final URI url;
  private final Path kubeconfig;
  private static final String NAMESPACE_CONTROLLER = "namespace-controller";

  /** Whether a start in this JVM has warmed up ({@link #warmUp}). */
  private static final AtomicBoolean WARMED_UP = new AtomicBoolean();

  private final Clock clock;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile ControllerManager controllers;

  private TestApiServer(
      ApiServer server, JdkHttpBinding binding, URI url, Path kubeconfig, Clock clock) {
    this.server = server;
    this.binding = binding;
    this.url = url;
    this.kubeconfig = kubeconfig;
    this.clock = clock;
  }

  /**
   * Starts building a server, to choose its controllers, nodes, clock and request log.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a server without a request log, with every controller on by default and three simulated
   * nodes.
   *
   * @return the running server
   */
  public static TestApiServer start() {
    return builder().start();
  }

  /**
   * Starts a server.
   *
   * @param requestLog whether it logs one line a request made over HTTP ({@code GET
   *     /api/v1/namespaces/default 200 1234 bytes 3 ms}): at INFO to the SLF4J logger {@value
   *     JdkHttpBinding#REQUEST_LOG} when an SLF4J provider is on the class path, else to {@code
   *     System.err}, each line prefixed {@code [machinery-apiserver] }
   * @return the running server, with every controller on by default and three simulated nodes
   */
  public static TestApiServer start(boolean requestLog) {
    return builder().requestLog(requestLog).start();
  }

  private static TestApiServer start(Builder settings) {
    warmUp();
    // The controllers are chosen first: what runs decides two of the server's settings, as in a
    // cluster. With kube-controller-manager's service account controller, kube-apiserver's
    // ServiceAccount admission plugin is on (each pod gets its namespace's default account); with
    // its namespace controller, a namespace's content is deleted by the controller, not by the
    // server at once.
    boolean cluster = !settings.controllers.isEmpty() || !settings.nodes.isEmpty();
    List<String> running =
        cluster ? ControllerManager.chosenControllers(settings.controllers) : List.of();
    // What only the controllers need (their clients' Scheme, the cluster's CA: a key pair and a
    // signature) is made on another thread while this one builds the server.
    CompletableFuture<ClusterParts> parts = cluster ? ClusterParts.make() : null;
    ApiServer.Builder builder = BuiltinKinds.apiServer(DefaultAdmission.forControllers(running));
    builder.namespaceContentCleanup(!running.contains(NAMESPACE_CONTROLLER));
    if (settings.requestLog) {
      builder.requestLog(requestLogSink(LoggerFactory.getILoggerFactory(), System.err));
    }
    ApiServer server = builder.build();
    JdkHttpBinding binding;
    try {
      binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (IOException e) {
      server.close();
      throw new UncheckedIOException("the test API server could not listen on loopback", e);
    }
    URI url = URI.create("http://127.0.0.1:" + binding.port());
    Path kubeconfig;
    try {
      kubeconfig = Files.createTempFile("machinery-kubeconfig-", ".yaml");
      Files.writeString(kubeconfig, kubeconfigText(url));
    } catch (IOException e) {
      binding.close();
      server.close();
      throw new UncheckedIOException("the test API server's kubeconfig could not be written", e);
    }
    TestApiServer started = new TestApiServer(server, binding, url, kubeconfig, settings.clock);
    try {
      for (String namespace : NAMESPACES) {
        started.post(
            "/api/v1/namespaces",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + namespace
                + "\"}}");
      }
      if (parts != null) {
        ControllerManager manager = controllerManager(settings, server, joined(parts));
        started.controllers = manager;
        manager.start();
      }
    } catch (InterruptedException e) {
      started.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the controllers started", e);
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /**
   * On the first start in a JVM, makes on another thread what this one will need and need not make
   * itself, while it reads the built-in kinds and builds the Schemes (which need none of it):
   * Jackson's first mapper (about a tenth of a second in a fresh JVM) and the first secure random
   * (the objects' UIDs). Whichever thread comes to one first makes it and the other waits for it,
   * so nothing is made twice, and nothing is lost if this thread fails.
   */
  private static void warmUp() {
    if (!WARMED_UP.compareAndSet(false, true)) {
      return;
    }
    Thread thread =
        new Thread(
            () -> {
              try {
                new ObjectMapper().readTree("{\"kind\":\"Status\",\"code\":200}");
                UUID.randomUUID();
              } catch (IOException | RuntimeException e) {
                // The server makes each when it needs it.
              }
            },
            "machinery-test-warm-up");
    thread.setDaemon(true);
    thread.start();
  }

  private static ClusterParts joined(CompletableFuture<ClusterParts> parts) {
    try {
      return parts.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new IllegalStateException(
          "the controllers' Scheme or the cluster's CA could not be made", e.getCause());
    }
  }

  /** Kubernetes' controllers and the simulated nodes, each a client of the server in process. */
  private static ControllerManager controllerManager(
      Builder settings, ApiServer server, ClusterParts parts) {
    return ControllerManager.builder(
            (user, groups) -> {
              List<String> all = new ArrayList<>(groups);
              all.add("system:authenticated");
              return Client.builder(InProcessTransport.as(server::handleAs, UserInfo.of(user, all)))
                  .scheme(parts.scheme())
                  // In process: no rate limit (kube-controller-manager's --kube-api-qps and
                  // --kube-api-burst guard a network this path does not cross).
                  .rateLimiter(RateLimiter.unlimited())
                  .build();
            })
        .controllers(settings.controllers)
        .nodes(settings.nodes)
        .clock(settings.clock)
        .rootCaCertificate(parts.caPem())
        .build();
  }

  /**
   * What the controllers need and the server does not: the Scheme of their clients and the
   * cluster's CA.
   */
  private record ClusterParts(Scheme scheme, String caPem) {
    /** Makes the parts on a daemon thread of its own. */
    static CompletableFuture<ClusterParts> make() {
      return CompletableFuture.supplyAsync(
          () -> new ClusterParts(KubernetesApi.addToScheme(Scheme.builder()).build(), clusterCa()),
          task -> {
            Thread thread = new Thread(task, "machinery-test-cluster-parts");
            thread.setDaemon(true);
            thread.start();
          });
    }
  }

  /**
   * The CA the cluster makes for itself at start, published in every namespace's {@code
   * kube-root-ca.crt}: the server serves plain HTTP and so has no CA of its own.
   */
  private static String clusterCa() {
    return SelfSignedCertificates.generate(
            "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256)
        .caPem();
  }

  /**
   * Returns the controllers' manager, to ask which run ({@link
   * ControllerManager#enabledControllers()}).
   *
   * @return the manager; it runs no controller when none was chosen
   */
  public ControllerManager controllerManager() {
    ControllerManager manager = controllers;
    if (manager == null) {
      return ControllerManager.builder(
              (user, groups) -> {
                throw new IllegalStateException("no controllers run on this server");
              })
          .controllers(List.of())
          .build();
    }
    return manager;
  }

  /**
   * Returns the cluster's clock: CronJob schedules, Job deadlines and TTLs, Deployments' progress
   * deadlines and the simulated kubelets' run times read it.
   *
   * @return the clock (the system clock unless the builder or {@link EnableApiServer#fakeClock()}
   *     chose a {@link FakeClock})
   */
  public Clock clock() {
    return clock;
  }

  /**
   * Returns the cluster's clock as a {@link FakeClock} a test moves ({@link FakeClock#step}).
   *
   * @return the fake clock
   * @throws IllegalStateException when the server runs on the system clock
   */
  public FakeClock fakeClock() {
    return clock instanceof FakeClock fake ? fake : notFake();
  }

  private static FakeClock notFake() {
    throw new IllegalStateException(
        "this server's cluster clock is the system clock: start it with"
            + " @EnableApiServer(fakeClock = true) or TestApiServer.builder().clock(new"
            + " FakeClock(...))");
  }

  /**
   * Where the request log goes: SLF4J when a provider is bound, else (SLF4J's no-operation factory,
   * which would drop every line) the given stream, so that a request log asked for is never lost.
   */
  static Consumer<String> requestLogSink(ILoggerFactory loggers, PrintStream fallback) {
    if (loggers instanceof NOPLoggerFactory) {
      return line -> fallback.println("[machinery-apiserver] " + line);
    }
    return JdkHttpBinding.slf4jRequestLog();
  }

  private static String kubeconfigText(URI url) {
    return "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: machinery\n"
        + "  cluster:\n"
        + "    server: "
        + url
        + "\n"
        + "users:\n"
        + "- name: machinery\n"
        + "  user: {}\n"
        + "contexts:\n"
        + "- name: machinery\n"
        + "  context:\n"
        + "    cluster: machinery\n"
        + "    user: machinery\n"
        + "    namespace: default\n"
        + "current-context: machinery\n";
  }

  /**
   * Returns the server's URL, such as {@code http://127.0.0.1:41234}.
   *
   * @return the URL
   */
  public URI url() {
    return url;
  }

  /**
   * Returns a kubeconfig file for the server (context {@code machinery}, namespace {@code
   * default}), for kubectl ({@code --kubeconfig}) and any client that reads one.
   *
   * @return the file's path
   */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /**
   * Returns the kubeconfig's text.
   *
   * @return the YAML text
   */
  public String kubeconfigYaml() {
    return kubeconfigText(url);
  }

  /**
   * Returns the server, for requests made in process ({@link ApiServer#handle}).
   *
   * @return the server
   */
  public ApiServer apiServer() {
    return server;
  }

  /**
   * Creates the CustomResourceDefinitions of a manifest (YAML or JSON, one or more documents) and
   * waits until each is {@code Established}, as kube-apiserver reports it.
   *
   * @param manifest a class path resource, or else a file path
   * @throws IllegalArgumentException if the manifest is missing, holds another kind, or a
   *     definition is refused (the message is the server's)
   * @throws IllegalStateException if a definition is not Established within 10 seconds
   */
  public void createCustomResourceDefinitions(String manifest) {
    List<JsonNode> documents = read(manifest);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < documents.size(); i++) {
      JsonNode document = documents.get(i);
      if (!"CustomResourceDefinition".equals(document.path("kind").asText())) {
        throw new IllegalArgumentException(
            manifest
                + ", document "
                + (i + 1)
                + ": a CustomResourceDefinition is expected, found kind \""
                + document.path("kind").asText()
                + "\"");
      }
      post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", document.toString());
      names.add(document.at("/metadata/name").asText());
    }
    for (String name : names) {
      awaitEstablished(name);
    }
  }

  private void awaitEstablished(String name) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      ApiResponse response =
          request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, null);
      try {
        for (JsonNode condition : Mappers.JSON.readTree(response.body()).at("/status/conditions")) {
          if (condition.path("type").asText().equals("Established")
              && condition.path("status").asText().equals("True")) {
            return;
          }
        }
        Thread.sleep(5);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
    }
    throw new IllegalStateException(
        "the CustomResourceDefinition " + name + " was not Established within 10 seconds");
  }

  private static List<JsonNode> read(String manifest) {
    try (InputStream in = open(manifest)) {
      List<JsonNode> documents = new ArrayList<>();
      try (var values = Mappers.YAML.readValues(Mappers.YAML.createParser(in), JsonNode.class)) {
        while (values.hasNext()) {
          JsonNode document = values.next();
          if (document != null && !document.isNull() && !document.isMissingNode()) {
            documents.add(document);
          }
        }
      }
      return documents;
    } catch (IOException e) {
      throw new IllegalArgumentException(manifest + " could not be read: " + e.getMessage(), e);
    }
  }

  private static InputStream open(String manifest) throws IOException {
    String resource = manifest.startsWith("/") ? manifest.substring(1) : manifest;
    InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource);
    if (in != null) {
      return in;
    }
    Path path = Path.of(manifest);
    if (Files.isRegularFile(path)) {
      return Files.newInputStream(path);
    }
    throw new IllegalArgumentException(manifest + " is neither a class path resource nor a file");
  }

  private void post(String path, String body) {
    ApiResponse response = request("POST", path, body);
    if (response.status() != 201) {
      String message;
      try {
        message = Mappers.JSON.readTree(response.body()).path("message").asText();
      } catch (IOException e) {
        message = new String(response.body(), StandardCharsets.UTF_8);
      }
      throw new IllegalArgumentException(
          "POST " + path + " was answered " + response.status() + ": " + message);
    }
  }

  private ApiResponse request(String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * Stops the server and deletes its kubeconfig: the HTTP binding stops listening and its threads
   * end, then the server's own threads (the CustomResourceDefinition controller, the watch caches)
   * end and what they held is let go ({@link ApiServer#close()}). Calling it again does nothing.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      ControllerManager manager = controllers;
      if (manager != null) {
        manager.close();
      }
    } finally {
      try {
        binding.close();
      } finally {
        server.close();
      }
    }
    try {
      Files.deleteIfExists(kubeconfig);
    } catch (IOException e) {
      // The file is in the temporary directory; leaving it is harmless.
    }
  }

  /** Chooses what a {@link TestApiServer} runs. Not thread-safe. */
  public static final class Builder {
    private boolean requestLog;
    private List<String> controllers = List.of("*");
    private List<SimulatedNode> nodes = SimulatedNode.defaults(3);
    private Clock clock = Clock.system();

    private Builder() {}

    /**
     * Logs one line a request made over HTTP, as {@link TestApiServer#start(boolean)} describes.
     *
     * @param requestLog whether to log
     * @return this builder
     */
    public Builder requestLog(boolean requestLog) {
      this.requestLog = requestLog;
      return this;
    }

    /**
     * Chooses the controllers as kube-controller-manager's {@code --controllers} does: {@code *}
     * (the default) for every controller on by default, {@code name} to add one, {@code -name} to
     * leave one out; an empty list for none.
     *
     * @param names the names
     * @return this builder
     */
    public Builder controllers(List<String> names) {
      this.controllers = List.copyOf(names);
      return this;
    }

    /**
     * Sets how many nodes are simulated ({@code node-1} … {@code node-N}); three by default.
     *
     * @param count how many, 0 to 255
     * @return this builder
     */
    public Builder nodes(int count) {
      this.nodes = SimulatedNode.defaults(count);
      return this;
    }

    /**
     * Sets the nodes to simulate.
     *
     * @param nodes the nodes
     * @return this builder
     */
    public Builder nodes(List<SimulatedNode> nodes) {
      this.nodes = List.copyOf(nodes);
      return this;
    }

    /**
     * Sets the cluster's clock ({@link TestApiServer#clock()}).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Starts the server.
     *
     * @return the running server
     * @throws IllegalArgumentException when a controller's name is unknown
     */
    public TestApiServer start() {
      return TestApiServer.start(this);
    }
  }
}
