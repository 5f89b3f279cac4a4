package dev.machinery.client.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * The configuration of a client running in a pod, as client-go's {@code rest.InClusterConfig}
 * builds it: the server {@code https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT}, the
 * service account's token ({@code /var/run/secrets/kubernetes.io/serviceaccount/token}, read again
 * every minute so that the kubelet's rotation is picked up), its {@code ca.crt} as the only trusted
 * authority (when it cannot be read, client-go goes on with the system's authorities, and so does
 * this class, logging a warning), and the namespace of {@code POD_NAMESPACE} or the account's
 * {@code namespace} file ({@code default} without either).
 *
 * <p>The root directory and the environment are injectable, for tests. Immutable and thread-safe.
 */
public final class InClusterConfig {
  /** Where the service account's files are, under the root directory. */
  public static final String SERVICE_ACCOUNT_DIRECTORY =
      "var/run/secrets/kubernetes.io/serviceaccount";

  private static final System.Logger LOG = System.getLogger(InClusterConfig.class.getName());

  private final Path root;
  private final Map<String, String> environment;
  private final Clock clock;

  private InClusterConfig(Path root, Map<String, String> environment, Clock clock) {
    this.root = Objects.requireNonNull(root, "root");
    this.environment = Map.copyOf(environment);
    this.clock = clock;
  }

  /**
   * Returns the in-cluster configuration source of this process: the file system's root and this
   * process's environment.
   *
   * @return the source
   */
  public static InClusterConfig ofProcess() {
    return new InClusterConfig(Path.of("/"), System.getenv(), Clock.systemUTC());
  }

  /**
   * Returns a source that reads the service account's files under another root and the given
   * environment.
   *
   * @param root the directory that stands for {@code /}
   * @param environment the variables, such as {@code KUBERNETES_SERVICE_HOST}
   * @return the source
   */
  public static InClusterConfig of(Path root, Map<String, String> environment) {
    return new InClusterConfig(root, environment, Clock.systemUTC());
  }

  static InClusterConfig of(Path root, Map<String, String> environment, Clock clock) {
    return new InClusterConfig(root, environment, clock);
  }

  /**
   * Whether this looks like a pod: client-go's {@code Possible}, the service variables set and the
   * token file present.
   *
   * @return true when {@link #load()} can be expected to succeed
   */
  public boolean isPossible() {
    return !environment.getOrDefault("KUBERNETES_SERVICE_HOST", "").isEmpty()
        && !environment.getOrDefault("KUBERNETES_SERVICE_PORT", "").isEmpty()
        && Files.isRegularFile(directory().resolve("token"));
  }

  private Path directory() {
    return root.resolve(SERVICE_ACCOUNT_DIRECTORY);
  }

  /**
   * Builds the configuration.
   *
   * @return the configuration
   * @throws KubeconfigException with client-go's message when the service variables are not set, or
   *     naming the token file when it cannot be read
   */
  public ClientConfig load() {
    String host = environment.getOrDefault("KUBERNETES_SERVICE_HOST", "");
    String port = environment.getOrDefault("KUBERNETES_SERVICE_PORT", "");
    if (host.isEmpty() || port.isEmpty()) {
      throw new KubeconfigException(
          "",
          host.isEmpty() ? "KUBERNETES_SERVICE_HOST" : "KUBERNETES_SERVICE_PORT",
          "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and"
              + " KUBERNETES_SERVICE_PORT must be defined");
    }
    Path token = directory().resolve("token");
    TokenFileCredentials credentials = new TokenFileCredentials(token, null, clock);
    // net.JoinHostPort: an IPv6 address goes in brackets.
    String authority = host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    ClientConfig.Builder b =
        ClientConfig.builder().server("https://" + authority).credentials(credentials);
    Path ca = directory().resolve("ca.crt");
    try {
      b.certificateAuthority(Pems.certificates(Files.readAllBytes(ca)));
    } catch (NoSuchFileException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Expected to load root CA config from {0}, but got err: open {0}: no such file or"
              + " directory",
          ca);
    } catch (IOException | IllegalArgumentException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Expected to load root CA config from {0}, but got err: {1}",
          ca,
          e.getMessage());
    }
    b.contextNamespace(namespace());
    return b.build();
  }

  /**
   * Returns the pod's namespace: {@code POD_NAMESPACE}, else the service account's {@code
   * namespace} file, else {@code default}.
   *
   * @return the namespace
   */
  public String namespace() {
    String fromEnvironment = environment.getOrDefault("POD_NAMESPACE", "");
    if (!fromEnvironment.isEmpty()) {
      return fromEnvironment;
    }
    try {
      String ns =
          Files.readString(directory().resolve("namespace"), StandardCharsets.UTF_8).strip();
      if (!ns.isEmpty()) {
        return ns;
      }
    } catch (NoSuchFileException e) {
      // No namespace file: the default.
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot read the namespace file: {0}", e.getMessage());
    }
    return ClientConfig.DEFAULT_NAMESPACE;
  }
}
