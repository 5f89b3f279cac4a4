package dev.machinery.examples.server;

import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.builtins.DefaultAdmission;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The sample server's command line, parsed: {@code --port}, {@code --runtime-config}, {@code
 * --request-log}, {@code --http-binding}, and kube-apiserver's own flags of the same names ({@code
 * --etcd-servers}, {@code --etcd-prefix}, {@code --storage-media-type}, {@code
 * --etcd-compaction-interval}, {@code --etcd-cafile}, {@code --etcd-certfile}, {@code
 * --etcd-keyfile}, {@code --secure-port}, {@code --cert-dir}, {@code --tls-cert-file}, {@code
 * --tls-private-key-file}, {@code --tls-sni-cert-key}, {@code --client-ca-file}, {@code
 * --token-auth-file}, {@code --anonymous-auth}, {@code --authorization-mode}, {@code
 * --max-requests-inflight}, {@code --max-mutating-requests-inflight}, {@code --audit-policy-file},
 * {@code --audit-log-path}, {@code --encryption-provider-config}, {@code
 * --enable-admission-plugins}, {@code --disable-admission-plugins}), kube-controller-manager's
 * {@code --controllers}, {@code --leader-elect} and {@code --leader-elect-lease-duration}, and
 * {@code --nodes} (how many nodes to simulate). Each flag that takes a value takes it as {@code
 * --flag=value} or {@code --flag value}, as kube-apiserver's do.
 *
 * <p>Immutable and thread-safe.
 */
public final class SampleServerFlags {
  /** kube-apiserver's default {@code --cert-dir}, used by {@code --secure-port} without one. */
  public static final String DEFAULT_CERT_DIR = "/var/run/kubernetes";

  /** The values of {@code --http-binding}. */
  public static final List<String> HTTP_BINDINGS = List.of("jdk", "netty");

  /** What the server prints for a command line it cannot read. */
  public static final String USAGE =
      "usage: SampleServer [--port N] [--runtime-config RULES] [--request-log]"
          + " [--etcd-servers URL,URL...] [--etcd-prefix PREFIX]"
          + " [--storage-media-type application/vnd.kubernetes.protobuf|application/json]"
          + " [--etcd-compaction-interval=5m]"
          + " [--etcd-cafile FILE] [--etcd-certfile FILE --etcd-keyfile FILE]"
          + " [--secure-port N] [--cert-dir DIR]"
          + " [--tls-cert-file FILE --tls-private-key-file FILE]"
          + " [--tls-sni-cert-key CERT,KEY[:NAME,...]]... [--client-ca-file FILE]"
          + " [--token-auth-file FILE] [--anonymous-auth=false]"
          + " [--authorization-mode AlwaysAllow|AlwaysDeny|RBAC]"
          + " [--max-requests-inflight=N] [--max-mutating-requests-inflight=N]"
          + " [--audit-policy-file FILE --audit-log-path FILE|-]"
          + " [--encryption-provider-config FILE]"
          + " [--enable-admission-plugins=NAME,...] [--disable-admission-plugins=NAME,...]"
          + " [--http-binding=netty|jdk]"
          + " [--controllers=*,NAME,-NAME] [--nodes=N] [--leader-elect]"
          + " [--leader-elect-lease-duration=15s]";

  /** Flags whose value is a file or directory, kept by flag in {@link #files()}. */
  private static final Set<String> FILE_FLAGS =
      Set.of(
          "--tls-cert-file",
          "--tls-private-key-file",
          "--client-ca-file",
          "--token-auth-file",
          "--audit-policy-file",
          "--audit-log-path",
          "--encryption-provider-config",
          "--etcd-cafile",
          "--etcd-certfile",
          "--etcd-keyfile",
          "--cert-dir",
          "--tls-sni-cert-key");

  /** Flags that take a value and are not files. */
  private static final Set<String> VALUE_FLAGS =
      Set.of(
          "--port",
          "--secure-port",
          "--runtime-config",
          "--etcd-servers",
          "--etcd-prefix",
          "--storage-media-type",
          "--etcd-compaction-interval",
          "--authorization-mode",
          "--max-requests-inflight",
          "--max-mutating-requests-inflight",
          "--http-binding",
          "--controllers",
          "--enable-admission-plugins",
          "--disable-admission-plugins",
          "--nodes",
          "--leader-elect-lease-duration");

  /** A command line the sample server cannot read; the message says which flag and why. */
  public static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the flag and its value
     */
    public UsageException(String message) {
      super(message);
    }
  }

  private final int port;
  private final boolean secure;
  private final Enablement enablement;
  private final boolean requestLog;
  private final List<URI> etcdServers;
  private final String etcdPrefix;
  private final StorageMediaType storageMediaType;
  private final Map<String, String> files;
  private final boolean anonymousAuth;
  private final String authorizationMode;
  private final int maxRequestsInFlight;
  private final int maxMutatingRequestsInFlight;
  private final String httpBinding;
  private final List<String> controllers;
  private final List<String> enableAdmissionPlugins;
  private final List<String> disableAdmissionPlugins;
  private final int nodes;
  private final boolean leaderElect;
  private final java.time.Duration leaseDuration;
  private final java.time.Duration compactionInterval;

  private SampleServerFlags(Parser p) {
    this.port = p.port;
    this.secure = p.securePort != null;
    this.enablement = p.enablement;
    this.requestLog = p.requestLog;
    this.etcdServers = List.copyOf(p.etcdServers);
    this.etcdPrefix = p.etcdPrefix;
    this.storageMediaType = p.storageMediaType;
    this.files = Map.copyOf(p.files);
    this.anonymousAuth = p.anonymous;
    this.authorizationMode = p.authorizationMode;
    this.maxRequestsInFlight = p.maxRequestsInFlight;
    this.maxMutatingRequestsInFlight = p.maxMutatingRequestsInFlight;
    this.httpBinding = p.httpBinding;
    this.controllers = List.copyOf(p.controllers);
    this.enableAdmissionPlugins = List.copyOf(p.enableAdmissionPlugins);
    this.disableAdmissionPlugins = List.copyOf(p.disableAdmissionPlugins);
    this.nodes = p.nodes;
    this.leaderElect = p.leaderElect;
    this.leaseDuration = p.leaseDuration;
    this.compactionInterval = p.compactionInterval;
  }

  /**
   * Parses a command line.
   *
   * @param args the arguments, as {@code main} gets them
   * @return the flags, with the defaults for those not given
   * @throws UsageException for a flag this server does not know, a flag without its value, a number
   *     that is not one, an {@code --http-binding} that is neither {@code jdk} nor {@code netty},
   *     or an admission plugin that is not available here or is both enabled and disabled
   */
  public static SampleServerFlags parse(String... args) {
    Parser p = new Parser();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int equals = arg.indexOf('=');
      String flag = equals >= 0 ? arg.substring(0, equals) : arg;
      String value;
      if (FILE_FLAGS.contains(flag) || VALUE_FLAGS.contains(flag)) {
        if (equals >= 0) {
          value = arg.substring(equals + 1);
        } else if (i + 1 < args.length) {
          value = args[++i];
        } else {
          throw new UsageException(flag + " needs a value\n" + USAGE);
        }
      } else {
        value = equals >= 0 ? arg.substring(equals + 1) : null;
      }
      p.set(flag, value);
    }
    List<String> overlapped =
        p.enableAdmissionPlugins.stream()
            .filter(p.disableAdmissionPlugins::contains)
            .distinct()
            .sorted()
            .toList();
    if (!overlapped.isEmpty()) {
      // kube-apiserver's words for the same command line.
      throw new UsageException(
          "["
              + String.join(" ", overlapped)
              + "] in enable-admission-plugins and disable-admission-plugins overlapped");
    }
    if (p.securePort != null) {
      p.port = p.securePort;
      if (!p.files.containsKey("--tls-cert-file")) {
        p.files.putIfAbsent("--cert-dir", DEFAULT_CERT_DIR);
      }
    }
    return new SampleServerFlags(p);
  }

  /** The flags' values while they are read. */
  private static final class Parser {
    int port = 8080;
    Integer securePort;
    Enablement enablement = Enablement.all();
    boolean requestLog;
    final List<URI> etcdServers = new ArrayList<>();
    String etcdPrefix = "/registry/";
    // kube-apiserver's default: built-in kinds in protobuf, custom resources in JSON.
    StorageMediaType storageMediaType = StorageMediaType.PROTOBUF;
    final Map<String, String> files = new HashMap<>();
    boolean anonymous = true;
    String authorizationMode = "AlwaysAllow";
    int maxRequestsInFlight = 400;
    int maxMutatingRequestsInFlight = 200;
    String httpBinding = "netty";
    List<String> controllers = List.of("*");
    List<String> enableAdmissionPlugins = List.of();
    List<String> disableAdmissionPlugins = List.of();
    int nodes = 3;
    boolean leaderElect;
    java.time.Duration leaseDuration = java.time.Duration.ofSeconds(15);
    java.time.Duration compactionInterval = java.time.Duration.ofMinutes(5);

    void set(String flag, String value) {
      switch (flag) {
        case "--port" -> port = number(flag, value);
        case "--secure-port" -> securePort = number(flag, value);
        case "--runtime-config" -> enablement = Enablement.parse(value);
        case "--request-log" -> requestLog = bool(flag, value);
        case "--etcd-servers" -> {
          for (String server : value.split(",")) {
            etcdServers.add(URI.create(server.strip()));
          }
        }
        case "--etcd-prefix" -> etcdPrefix = value;
        case "--storage-media-type" -> {
          try {
            storageMediaType = StorageMediaType.parse(value);
          } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
          }
        }
        case "--tls-sni-cert-key" ->
            // Repeatable: the values, one a line.
            files.merge(flag, value, (a, b) -> a + "\n" + b);
        case "--anonymous-auth" -> anonymous = bool(flag, value);
        case "--authorization-mode" -> authorizationMode = value;
        case "--max-requests-inflight" -> maxRequestsInFlight = number(flag, value);
        case "--max-mutating-requests-inflight" ->
            maxMutatingRequestsInFlight = number(flag, value);
        case "--http-binding" -> {
          if (!HTTP_BINDINGS.contains(value)) {
            throw new UsageException(
                "--http-binding: expected jdk or netty, got \"" + value + "\"");
          }
          httpBinding = value;
        }
        case "--controllers" ->
            controllers =
                value.isBlank()
                    ? List.of()
                    : java.util.Arrays.stream(value.split(",")).map(String::strip).toList();
        case "--enable-admission-plugins" -> enableAdmissionPlugins = plugins(flag, value);
        case "--disable-admission-plugins" -> disableAdmissionPlugins = plugins(flag, value);
        case "--nodes" -> {
          nodes = number(flag, value);
          if (nodes < 0 || nodes > 255) {
            throw new UsageException("--nodes: expected 0 to 255, got " + nodes);
          }
        }
        case "--leader-elect" -> leaderElect = bool(flag, value);
        case "--leader-elect-lease-duration" -> leaseDuration = duration(flag, value);
        case "--etcd-compaction-interval" -> compactionInterval = duration(flag, value);
        default -> {
          if (!FILE_FLAGS.contains(flag)) {
            throw new UsageException("unknown flag: " + flag + "\n" + USAGE);
          }
          files.put(flag, value);
        }
      }
    }

    /** Admission plugins by kube-apiserver's names, comma-separated, each one available here. */
    private static List<String> plugins(String flag, String value) {
      List<String> names = new ArrayList<>();
      for (String name : value.split(",")) {
        String plugin = name.strip();
        if (plugin.isEmpty()) {
          continue;
        }
        if (!DefaultAdmission.AVAILABLE.contains(plugin)) {
          throw new UsageException(
              flag
                  + ": admission plugin \""
                  + plugin
                  + "\" is not available here; available: "
                  + String.join(", ", DefaultAdmission.AVAILABLE)
                  + " (NamespaceLifecycle, the webhooks and ValidatingAdmissionPolicy are always on)");
        }
        names.add(plugin);
      }
      return names;
    }

    private static int number(String flag, String value) {
      try {
        return Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new UsageException(flag + ": expected a number, got \"" + value + "\"");
      }
    }

    /** A Go duration of whole seconds or milliseconds, such as {@code 15s} or {@code 500ms}. */
    private static java.time.Duration duration(String flag, String value) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)").matcher(value);
      if (!m.matches()) {
        throw new UsageException(
            flag + ": expected a duration such as 15s or 500ms, got \"" + value + "\"");
      }
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> java.time.Duration.ofMillis(n);
        case "s" -> java.time.Duration.ofSeconds(n);
        default -> java.time.Duration.ofMinutes(n);
      };
    }

    private static boolean bool(String flag, String value) {
      if (value == null || value.equals("true")) {
        return true;
      }
      if (value.equals("false")) {
        return false;
      }
      throw new UsageException(flag + ": expected true or false, got \"" + value + "\"");
    }
  }

  /**
   * Returns the port to serve on: {@code --secure-port} when given, else {@code --port} (8080 by
   * default; 0 picks a free one).
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * Returns whether {@code --secure-port} was given (HTTPS, with the certificate of {@code
   * --tls-cert-file} or one generated in {@code --cert-dir}).
   *
   * @return whether the port is the secure port
   */
  public boolean securePort() {
    return secure;
  }

  /**
   * Returns {@code --runtime-config}'s rules: every group version by default.
   *
   * @return which group versions to serve
   */
  public Enablement enablement() {
    return enablement;
  }

  /**
   * Returns whether {@code --request-log} was given: one line a request, through SLF4J.
   *
   * @return whether to log requests
   */
  public boolean requestLog() {
    return requestLog;
  }

  /**
   * Returns {@code --etcd-servers}: empty keeps the objects in memory.
   *
   * @return the etcd endpoints
   */
  public List<URI> etcdServers() {
    return etcdServers;
  }

  /**
   * Returns {@code --etcd-prefix}: {@code /registry/} by default, as kube-apiserver's.
   *
   * @return the key prefix
   */
  public String etcdPrefix() {
    return etcdPrefix;
  }

  /**
   * Returns {@code --etcd-compaction-interval}: how often the storage's history is compacted, five
   * minutes by default as kube-apiserver's; {@code 0s} for never.
   *
   * @return the interval, zero for none
   */
  public java.time.Duration etcdCompactionInterval() {
    return compactionInterval;
  }

  /**
   * Returns {@code --storage-media-type}: {@code application/vnd.kubernetes.protobuf} by default,
   * as kube-apiserver's (Kubernetes' built-in kinds stored in protobuf, custom resources in JSON),
   * or {@code application/json}.
   *
   * @return the media type values are stored in
   */
  public StorageMediaType storageMediaType() {
    return storageMediaType;
  }

  /**
   * Returns the file flags given ({@code --tls-cert-file}, {@code --tls-private-key-file}, {@code
   * --client-ca-file}, {@code --token-auth-file}, {@code --cert-dir} (kube-apiserver's default
   * {@link #DEFAULT_CERT_DIR} with {@code --secure-port} and no {@code --tls-cert-file}), {@code
   * --audit-policy-file}, {@code --audit-log-path}, and {@code --tls-sni-cert-key}, its values one
   * a line), by flag.
   *
   * @return the files, by flag
   */
  public Map<String, String> files() {
    return files;
  }

  /**
   * Returns one file flag's value.
   *
   * @param flag the flag, such as {@code --tls-cert-file}
   * @return its value, when given
   */
  public Optional<String> file(String flag) {
    return Optional.ofNullable(files.get(flag));
  }

  /**
   * Returns one file flag's value as a path.
   *
   * @param flag the flag, such as {@code --etcd-cafile}
   * @return its path, or null when the flag is not given
   */
  public java.nio.file.Path path(String flag) {
    return file(flag).map(java.nio.file.Path::of).orElse(null);
  }

  /**
   * Returns {@code --anonymous-auth}: whether requests without credentials are let in (true by
   * default).
   *
   * @return whether anonymous requests are allowed
   */
  public boolean anonymousAuth() {
    return anonymousAuth;
  }

  /**
   * Returns {@code --authorization-mode}: {@code AlwaysAllow} by default.
   *
   * @return the modes, comma-separated
   */
  public String authorizationMode() {
    return authorizationMode;
  }

  /**
   * Returns {@code --max-requests-inflight}: 400 by default; 0 for no limit.
   *
   * @return the limit of read requests at once
   */
  public int maxRequestsInFlight() {
    return maxRequestsInFlight;
  }

  /**
   * Returns {@code --max-mutating-requests-inflight}: 200 by default; 0 for no limit.
   *
   * @return the limit of writes at once
   */
  public int maxMutatingRequestsInFlight() {
    return maxMutatingRequestsInFlight;
  }

  /**
   * Returns {@code --http-binding}: {@code netty} (the default) or {@code jdk}.
   *
   * @return the HTTP binding's name
   */
  public String httpBinding() {
    return httpBinding;
  }

  /**
   * Returns {@code --controllers}: which of Kubernetes' controllers run, as kube-controller-manager
   * reads it ({@code *} by default: every controller on by default; an empty value for none).
   *
   * @return the names
   */
  public List<String> controllers() {
    return controllers;
  }

  /**
   * Returns kube-apiserver's default admission plugins as this command line chooses them: those of
   * {@link DefaultAdmission#kubernetes()}, and {@code ServiceAccount} when the service account
   * controller runs (which makes each namespace's {@code default} account, as in a cluster, where
   * kube-apiserver runs the plugin); then {@code --enable-admission-plugins} adds and {@code
   * --disable-admission-plugins} takes away, as kube-apiserver's flags of those names do.
   *
   * @return the plugins
   */
  public DefaultAdmission admission() {
    return DefaultAdmission.forControllers(ControllerManager.chosenControllers(controllers))
        .enable(enableAdmissionPlugins.toArray(String[]::new))
        .disable(disableAdmissionPlugins.toArray(String[]::new));
  }

  /**
   * Returns {@code --nodes}: how many nodes to simulate (3 by default).
   *
   * @return the count
   */
  public int nodes() {
    return nodes;
  }

  /**
   * Returns whether {@code --leader-elect} was given: the controllers run only while this replica
   * holds the {@code kube-system/kube-controller-manager} Lease (for several replicas on one etcd).
   *
   * @return whether to elect
   */
  public boolean leaderElect() {
    return leaderElect;
  }

  /**
   * Returns {@code --leader-elect-lease-duration}: 15s by default, as kube-controller-manager's.
   *
   * @return the lease duration
   */
  public java.time.Duration leaderElectLeaseDuration() {
    return leaseDuration;
  }
}
