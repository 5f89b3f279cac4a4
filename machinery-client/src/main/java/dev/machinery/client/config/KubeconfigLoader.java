package dev.machinery.client.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads kubeconfig files as kubectl does (client-go's {@code clientcmd}) into a {@link
 * ClientConfig}.
 *
 * <p>Which files: the explicit file ({@code --kubeconfig}), which must exist; else every file of
 * {@code KUBECONFIG} (split on the platform's path-list separator, repeated names once, missing
 * files skipped); else {@code ~/.kube/config} if it exists. How they merge: the first file to name
 * a cluster, user or context wins it whole (a later file's entry of the same name is ignored, even
 * its fields the first does not set), and the first file to set {@code current-context} wins it.
 * Relative paths of a file ({@code certificate-authority}, {@code client-certificate}, {@code
 * client-key}, {@code tokenFile}, an exec {@code command} holding a separator) are resolved against
 * that file's directory.
 *
 * <p>Which entries: the context override ({@code --context}) or else {@code current-context}; its
 * cluster and user, unless overridden ({@code --cluster}, {@code --user}); an override names an
 * entry that must exist. The chosen entries are validated as clientcmd's {@code ConfirmUsable}
 * does, every problem reported at once in client-go's words ({@code invalid configuration: ...}). A
 * user's {@code auth-provider} is refused: client-go removed the gcp and azure providers in 1.26,
 * and this client implements none; an exec plugin replaces them.
 *
 * <p>As in client-go, a user's credentials and client certificate are used only when the server is
 * reached over TLS. Without any file, or when the chosen cluster is empty, loading fails with
 * client-go's {@code no configuration has been provided} rather than guessing a server.
 *
 * <p>Immutable and thread-safe: {@link #load()} reads the files each time it is called.
 */
public final class KubeconfigLoader {
  /** The environment variable listing kubeconfig files. */
  public static final String KUBECONFIG = "KUBECONFIG";

  private final Path explicitPath;
  private final Map<String, String> environment;
  private final Path homeDirectory;
  private final String context;
  private final String cluster;
  private final String user;
  private final String namespace;
  private final Clock clock;

  private KubeconfigLoader(Builder b) {
    this.explicitPath = b.explicitPath;
    this.environment = Map.copyOf(b.environment);
    this.homeDirectory = b.homeDirectory;
    this.context = b.context;
    this.cluster = b.cluster;
    this.user = b.user;
    this.namespace = b.namespace;
    this.clock = b.clock;
  }

  /**
   * Starts a loader that reads this process's environment ({@code KUBECONFIG}) and home directory
   * ({@code user.home}).
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Loads the configuration kubectl would use without flags: {@code KUBECONFIG}, else {@code
   * ~/.kube/config}, and the current context.
   *
   * @return the configuration
   * @throws KubeconfigException when no usable configuration is found
   */
  public static ClientConfig loadDefault() {
    return builder().build().load();
  }

  /**
   * Returns the files this loader reads, in precedence order: the explicit file alone, or {@code
   * KUBECONFIG}'s files, or {@code ~/.kube/config}. Some may not exist; they are skipped (except
   * the explicit file).
   *
   * @return the paths
   */
  public List<Path> files() {
    if (explicitPath != null) {
      return List.of(explicitPath);
    }
    String list = environment.getOrDefault(KUBECONFIG, "");
    if (!list.isEmpty()) {
      LinkedHashSet<Path> paths = new LinkedHashSet<>();
      for (String entry : list.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
        if (!entry.isEmpty()) {
          paths.add(Path.of(entry));
        }
      }
      return List.copyOf(paths);
    }
    return List.of(homeDirectory.resolve(".kube").resolve("config"));
  }

  /**
   * Reads and merges the files, chooses the context and builds its configuration.
   *
   * @return the configuration
   * @throws KubeconfigException naming the file, entry and field of what is missing or invalid
   */
  public ClientConfig load() {
    return resolve(merged());
  }

  /**
   * Loads the kubeconfig files, or, when they hold no configuration at all ({@link
   * KubeconfigException#isEmptyConfig()}) and the process runs in a pod, the pod's configuration:
   * client-go's {@code DeferredLoadingClientConfig}, which controllers use. The namespace override,
   * if any, applies to the pod's configuration too.
   *
   * @param inCluster the pod's configuration source, such as {@link InClusterConfig#ofProcess()}
   * @return the configuration
   * @throws KubeconfigException when the files are invalid, or empty outside a pod
   */
  public ClientConfig loadOrInCluster(InClusterConfig inCluster) {
    try {
      return load();
    } catch (KubeconfigException e) {
      if (!e.isEmptyConfig() || !inCluster.isPossible()) {
        throw e;
      }
    }
    ClientConfig pod = inCluster.load();
    return namespace == null ? pod : pod.toBuilder().namespace(namespace).build();
  }

  /**
   * Returns the names of the contexts of the merged files, in the order they were read.
   *
   * @return the names
   * @throws KubeconfigException when a file cannot be read
   */
  public List<String> contextNames() {
    return List.copyOf(merged().contexts.keySet());
  }

  /**
   * Returns the merged files' {@code current-context}.
   *
   * @return the name, or an empty string when no file sets it
   * @throws KubeconfigException when a file cannot be read
   */
  public String currentContext() {
    return merged().currentContext;
  }

  /** The merge of the files: every map key from the first file that has it. */
  static final class Merged {
    final Map<String, KubeconfigFile.Cluster> clusters = new LinkedHashMap<>();
    final Map<String, KubeconfigFile.User> users = new LinkedHashMap<>();
    final Map<String, KubeconfigFile.Context> contexts = new LinkedHashMap<>();
    String currentContext = "";
    String currentContextOrigin = "";
  }

  Merged merged() {
    List<KubeconfigFile> files = new ArrayList<>();
    if (explicitPath != null && !Files.exists(explicitPath)) {
      throw new KubeconfigException(
          explicitPath.toString(), "", "stat " + explicitPath + ": no such file or directory");
    }
    for (Path path : files()) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(path);
      } catch (NoSuchFileException e) {
        continue;
      } catch (IOException e) {
        throw new KubeconfigException(
            path.toString(),
            "",
            "error loading config file \"" + path + "\": " + describe(path.toString(), e),
            e);
      }
      files.add(new KubeconfigFile(path, bytes));
    }
    Merged merged = new Merged();
    for (KubeconfigFile file : files) {
      file.clusters.forEach(merged.clusters::putIfAbsent);
      file.users.forEach(merged.users::putIfAbsent);
      file.contexts.forEach(merged.contexts::putIfAbsent);
      if (merged.currentContext.isEmpty() && !file.currentContext.isEmpty()) {
        merged.currentContext = file.currentContext;
        merged.currentContextOrigin = file.path;
      }
    }
    return merged;
  }

  private record Problem(String file, String field, String message) {}

  ClientConfig resolve(Merged config) {
    // The names, each override required to exist, as client-go's DirectClientConfig checks first.
    String contextName = context != null ? context : config.currentContext;
    KubeconfigFile.Context ctx = config.contexts.get(contextName);
    if (ctx == null && context != null) {
      throw new KubeconfigException(
          "", "context", "context \"" + contextName + "\" does not exist");
    }
    String userName = user != null ? user : ctx == null ? "" : ctx.user();
    KubeconfigFile.User auth = config.users.get(userName);
    if (auth == null && user != null) {
      throw new KubeconfigException("", "user", "auth info \"" + userName + "\" does not exist");
    }
    String clusterName = cluster != null ? cluster : ctx == null ? "" : ctx.cluster();
    KubeconfigFile.Cluster target = config.clusters.get(clusterName);
    if (target == null && cluster != null) {
      throw new KubeconfigException(
          "", "cluster", "cluster \"" + clusterName + "\" does not exist");
    }
    if (auth == null) {
      auth = KubeconfigFile.User.empty(userName);
    }
    if (target == null) {
      target = KubeconfigFile.Cluster.empty(clusterName);
    }

    List<Problem> problems = new ArrayList<>();
    if (!contextName.isEmpty() && ctx == null) {
      problems.add(
          new Problem(
              config.currentContextOrigin,
              "current-context",
              "context was not found for specified context: " + contextName));
    }
    validateUser(auth, problems);
    boolean emptyCluster = target.isEmpty();
    if (emptyCluster) {
      problems.add(new Problem("", "server", "cluster has no server defined"));
    } else {
      validateCluster(target, problems);
    }
    if (problems.size() == 1 && emptyCluster) {
      throw KubeconfigException.emptyConfig();
    }
    if (!problems.isEmpty()) {
      throw KubeconfigException.invalid(
          problems.get(0).file(),
          problems.get(0).field(),
          problems.stream().map(Problem::message).toList());
    }
    if (auth.authProvider() != null) {
      throw authProviderRefused(auth);
    }
    return build(contextName, ctx, target, auth);
  }

  private static KubeconfigException authProviderRefused(KubeconfigFile.User auth) {
    String provider = auth.authProvider();
    String replacement =
        switch (provider) {
          case "gcp" -> "the \"gke-gcloud-auth-plugin\" exec credential plugin";
          case "azure" ->
              "the kubelogin exec credential plugin (https://github.com/Azure/kubelogin)";
          default -> "an exec credential plugin";
        };
    return new KubeconfigException(
        auth.origin(),
        "users[" + auth.name() + "].auth-provider",
        "user \""
            + auth.name()
            + "\" in \""
            + auth.origin()
            + "\" uses the auth-provider \""
            + provider
            + "\", which is not supported (client-go removed the gcp and azure providers in"
            + " 1.26); use "
            + replacement
            + " instead");
  }

  private static void validateCluster(KubeconfigFile.Cluster c, List<Problem> problems) {
    String f = "clusters[" + c.name() + "].";
    if (c.server().isEmpty()) {
      problems.add(
          new Problem(
              c.origin(),
              f + "server",
              c.name().isEmpty()
                  ? "default cluster has no server defined"
                  : "no server found for cluster \"" + c.name() + "\""));
    }
    if (!c.proxyUrl().isEmpty()) {
      String problem;
      try {
        problem = ClientConfig.proxyProblem(new URI(c.proxyUrl()));
      } catch (URISyntaxException e) {
        problem = e.getMessage();
      }
      if (problem != null) {
        problems.add(
            new Problem(
                c.origin(),
                f + "proxy-url",
                "invalid 'proxy-url' \""
                    + c.proxyUrl()
                    + "\" for cluster \""
                    + c.name()
                    + "\": "
                    + problem));
      }
    }
    if (!c.certificateAuthority().isEmpty() && c.certificateAuthorityData().length != 0) {
      problems.add(
          new Problem(
              c.origin(),
              f + "certificate-authority-data",
              "certificate-authority-data and certificate-authority are both specified for "
                  + c.name()
                  + ". certificate-authority-data will override."));
    }
    if (!c.certificateAuthority().isEmpty()) {
      String unreadable = unreadable(c.certificateAuthority());
      if (unreadable != null) {
        problems.add(
            new Problem(
                c.origin(),
                f + "certificate-authority",
                "unable to read certificate-authority "
                    + c.certificateAuthority()
                    + " for "
                    + c.name()
                    + " due to "
                    + unreadable));
      }
    }
  }

  private static void validateUser(KubeconfigFile.User u, List<Problem> problems) {
    String f = "users[" + u.name() + "].";
    String n = u.name();
    List<String> methods = new ArrayList<>();
    if (!u.token().isEmpty()) {
      methods.add("token");
    }
    if (!u.username().isEmpty() || !u.password().isEmpty()) {
      methods.add("basicAuth");
    }
    if (!u.clientCertificate().isEmpty() || u.clientCertificateData().length != 0) {
      if (!u.clientCertificate().isEmpty() && u.clientCertificateData().length != 0) {
        problems.add(
            new Problem(
                u.origin(),
                f + "client-certificate-data",
                "client-cert-data and client-cert are both specified for "
                    + n
                    + ". client-cert-data will override."));
      }
      if (!u.clientKey().isEmpty() && u.clientKeyData().length != 0) {
        problems.add(
            new Problem(
                u.origin(),
                f + "client-key-data",
                "client-key-data and client-key are both specified for "
                    + n
                    + "; client-key-data will override"));
      }
      if (u.clientKey().isEmpty() && u.clientKeyData().length == 0) {
        problems.add(
            new Problem(
                u.origin(),
                f + "client-key",
                "client-key-data or client-key must be specified for "
                    + n
                    + " to use the clientCert authentication method."));
      }
      if (!u.clientCertificate().isEmpty()) {
        String unreadable = unreadable(u.clientCertificate());
        if (unreadable != null) {
          problems.add(
              new Problem(
                  u.origin(),
                  f + "client-certificate",
                  "unable to read client-cert "
                      + u.clientCertificate()
                      + " for "
                      + n
                      + " due to "
                      + unreadable));
        }
      }
      if (!u.clientKey().isEmpty()) {
        String unreadable = unreadable(u.clientKey());
        if (unreadable != null) {
          problems.add(
              new Problem(
                  u.origin(),
                  f + "client-key",
                  "unable to read client-key "
                      + u.clientKey()
                      + " for "
                      + n
                      + " due to "
                      + unreadable));
        }
      }
    }
    ExecCredentials.Config exec = u.exec();
    if (exec != null) {
      String x = f + "exec.";
      if (u.authProvider() != null) {
        problems.add(
            new Problem(
                u.origin(),
                f + "auth-provider",
                "authProvider cannot be provided in combination with an exec plugin for " + n));
      }
      if (exec.command().isEmpty()) {
        problems.add(
            new Problem(
                u.origin(),
                x + "command",
                "command must be specified for " + n + " to use exec authentication plugin"));
      }
      if (exec.apiVersion().isEmpty()) {
        problems.add(
            new Problem(
                u.origin(),
                x + "apiVersion",
                "apiVersion must be specified for " + n + " to use exec authentication plugin"));
      }
      for (int i = 0; i < u.execEnvWithoutName().size(); i++) {
        problems.add(
            new Problem(
                u.origin(),
                x + "env",
                "env variable name must be specified for "
                    + n
                    + " to use exec authentication plugin"));
      }
      switch (exec.interactiveMode()) {
        case "" ->
            problems.add(
                new Problem(
                    u.origin(),
                    x + "interactiveMode",
                    "interactiveMode must be specified for "
                        + n
                        + " to use exec authentication plugin"));
        case "Never", "IfAvailable", "Always" -> {
          // Valid.
        }
        default ->
            problems.add(
                new Problem(
                    u.origin(),
                    x + "interactiveMode",
                    "invalid interactiveMode for " + n + ": \"" + exec.interactiveMode() + "\""));
      }
    }
    if (methods.size() > 1) {
      problems.add(
          new Problem(
              u.origin(),
              f + "token",
              "more than one authentication method found for "
                  + n
                  + "; found ["
                  + String.join(" ", methods)
                  + "], only one is allowed"));
    }
    if ((!u.asUid().isEmpty() || !u.asGroups().isEmpty() || !u.asUserExtra().isEmpty())
        && u.as().isEmpty()) {
      problems.add(
          new Problem(
              u.origin(),
              f + "as",
              "requesting uid, groups or user-extra for " + n + " without impersonating a user"));
    }
  }

  /** Go's {@code os.Open} error for a file that cannot be opened, or null when it can. */
  private static String unreadable(String path) {
    Path p = Path.of(path);
    if (!Files.exists(p)) {
      return "open " + path + ": no such file or directory";
    }
    if (!Files.isReadable(p)) {
      return "open " + path + ": permission denied";
    }
    return null;
  }

  private static String describe(String path, IOException e) {
    if (e instanceof NoSuchFileException) {
      return "open " + path + ": no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "open " + path + ": permission denied";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  private byte[] readFile(String origin, String field, String what, String path, String entry) {
    try {
      return Files.readAllBytes(Path.of(path));
    } catch (IOException e) {
      throw new KubeconfigException(
          origin,
          field,
          "unable to read " + what + " " + path + " for " + entry + " due to " + describe(path, e),
          e);
    }
  }

  private ClientConfig build(
      String contextName,
      KubeconfigFile.Context ctx,
      KubeconfigFile.Cluster c,
      KubeconfigFile.User u) {
    String cf = "clusters[" + c.name() + "].";
    String uf = "users[" + u.name() + "].";
    ClientConfig.Builder b = ClientConfig.builder().contextName(contextName);

    byte[] caPem = c.certificateAuthorityData();
    String caField = cf + "certificate-authority-data";
    if (caPem.length == 0 && !c.certificateAuthority().isEmpty()) {
      caField = cf + "certificate-authority";
      caPem =
          readFile(
              c.origin(), caField, "certificate-authority", c.certificateAuthority(), c.name());
    }
    boolean hasCertificate =
        !u.clientCertificate().isEmpty() || u.clientCertificateData().length != 0;
    boolean tlsConfigured = caPem.length != 0 || hasCertificate || c.insecureSkipTlsVerify();
    URI server;
    try {
      server = ClientConfig.serverUri(c.server(), tlsConfigured);
    } catch (KubeconfigException e) {
      throw new KubeconfigException(
          c.origin(), cf + "server", e.getMessage() + " (cluster \"" + c.name() + "\")", e);
    }
    b.server(server);
    if (!c.proxyUrl().isEmpty()) {
      b.proxy(URI.create(c.proxyUrl()));
    }
    b.disableCompression(c.disableCompression());
    if (!u.as().isEmpty()) {
      b.impersonation(new Impersonation(u.as(), u.asUid(), u.asGroups(), u.asUserExtra()));
    }
    String ns = namespace != null ? namespace : ctx == null ? "" : ctx.namespace();
    if (namespace != null) {
      b.namespace(namespace);
    } else {
      b.contextNamespace(ns);
    }

    if (!"https".equals(server.getScheme())) {
      // client-go reads a user's credentials only for a server reached over TLS.
      return b.build();
    }
    if (caPem.length != 0) {
      try {
        b.certificateAuthority(Pems.certificates(caPem));
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            c.origin(),
            caField,
            "unable to load the certificate authority of cluster \""
                + c.name()
                + "\" from "
                + (caField.endsWith("-data") ? caField : c.certificateAuthority())
                + ": "
                + e.getMessage(),
            e);
      }
    }
    if (c.insecureSkipTlsVerify()) {
      if (caPem.length != 0) {
        throw new KubeconfigException(
            c.origin(),
            cf + "insecure-skip-tls-verify",
            "specifying a root certificates file with the insecure flag is not allowed (cluster \""
                + c.name()
                + "\")");
      }
      b.insecureSkipTlsVerify(true);
    }
    b.tlsServerName(c.tlsServerName());

    if (hasCertificate) {
      String certField =
          u.clientCertificateData().length != 0
              ? uf + "client-certificate-data"
              : uf + "client-certificate";
      byte[] certPem =
          u.clientCertificateData().length != 0
              ? u.clientCertificateData()
              : readFile(u.origin(), certField, "client-cert", u.clientCertificate(), u.name());
      String keyField = u.clientKeyData().length != 0 ? uf + "client-key-data" : uf + "client-key";
      byte[] keyPem =
          u.clientKeyData().length != 0
              ? u.clientKeyData()
              : readFile(u.origin(), keyField, "client-key", u.clientKey(), u.name());
      List<X509Certificate> chain;
      PrivateKey key;
      try {
        chain = Pems.certificates(certPem);
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            u.origin(),
            certField,
            "unable to load the client certificate of user \""
                + u.name()
                + "\" from "
                + (certField.endsWith("-data") ? certField : u.clientCertificate())
                + ": "
                + e.getMessage(),
            e);
      }
      try {
        key = Pems.privateKey(keyPem);
        Pems.checkPair(key, chain.get(0));
      } catch (IllegalArgumentException e) {
        throw new KubeconfigException(
            u.origin(),
            keyField,
            "unable to load the client key of user \""
                + u.name()
                + "\" from "
                + (keyField.endsWith("-data") ? keyField : u.clientKey())
                + ": "
                + e.getMessage(),
            e);
      }
      b.clientCertificate(chain, key);
    }

    ExecCredentials exec = null;
    if (u.exec() != null) {
      exec =
          new ExecCredentials(
              u.exec(), execCluster(server, c, caPem), u.origin(), uf + "exec", clock);
      ExecCredentials plugin = exec;
      b.execCertificate(plugin::certificate);
    }
    if (!u.token().isEmpty() || !u.tokenFile().isEmpty()) {
      if (!u.tokenFile().isEmpty()) {
        if (u.token().isEmpty()) {
          // Read now, so that a missing file fails here, as client-go fails building the config.
          readFile(u.origin(), uf + "tokenFile", "tokenFile", u.tokenFile(), u.name());
        }
        b.credentials(
            new TokenFileCredentials(
                Path.of(u.tokenFile()), u.token().isEmpty() ? null : u.token(), clock));
      } else {
        b.bearerToken(u.token());
      }
    } else if (!u.username().isEmpty() || !u.password().isEmpty()) {
      b.credentials(CredentialSource.basicAuth(u.username(), u.password()));
    } else if (exec != null) {
      b.credentials(exec);
    }
    return b.build();
  }

  /** The {@code spec.cluster} an exec plugin receives with {@code provideClusterInfo}. */
  private static ObjectNode execCluster(URI server, KubeconfigFile.Cluster c, byte[] caPem) {
    ObjectNode cluster = JsonNodeFactory.instance.objectNode();
    cluster.put("server", server.toString());
    if (!c.tlsServerName().isEmpty()) {
      cluster.put("tls-server-name", c.tlsServerName());
    }
    if (c.insecureSkipTlsVerify()) {
      cluster.put("insecure-skip-tls-verify", true);
    }
    if (caPem.length != 0) {
      cluster.put("certificate-authority-data", Base64.getEncoder().encodeToString(caPem));
    }
    if (!c.proxyUrl().isEmpty()) {
      cluster.put("proxy-url", c.proxyUrl());
    }
    if (c.disableCompression()) {
      cluster.put("disable-compression", true);
    }
    if (c.execExtension() != null) {
      cluster.set("config", c.execExtension());
    }
    return cluster;
  }

  /** Chooses the files, the context and the overrides. Not thread-safe; the loader it builds is. */
  public static final class Builder {
    private Path explicitPath;
    private Map<String, String> environment = System.getenv();
    private Path homeDirectory = Path.of(System.getProperty("user.home", "."));
    private String context;
    private String cluster;
    private String user;
    private String namespace;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /**
     * Reads this file alone, as kubectl's {@code --kubeconfig}; it must exist.
     *
     * @param path the file, or {@code null} to use {@code KUBECONFIG} or the home directory's
     * @return this builder
     */
    public Builder kubeconfig(Path path) {
      this.explicitPath = path;
      return this;
    }

    /**
     * Sets the environment {@code KUBECONFIG} is read from, in place of this process's.
     *
     * @param environment the variables
     * @return this builder
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(environment);
      return this;
    }

    /**
     * Sets the home directory whose {@code .kube/config} is read when neither an explicit file nor
     * {@code KUBECONFIG} is given.
     *
     * @param home the directory
     * @return this builder
     */
    public Builder homeDirectory(Path home) {
      this.homeDirectory = Objects.requireNonNull(home, "home");
      return this;
    }

    /**
     * Uses this context instead of {@code current-context} ({@code --context}); it must exist.
     *
     * @param name the context's name, or {@code null}
     * @return this builder
     */
    public Builder context(String name) {
      this.context = emptyToNull(name);
      return this;
    }

    /**
     * Uses this cluster instead of the context's ({@code --cluster}); it must exist.
     *
     * @param name the cluster's name, or {@code null}
     * @return this builder
     */
    public Builder cluster(String name) {
      this.cluster = emptyToNull(name);
      return this;
    }

    /**
     * Uses this user instead of the context's ({@code --user}); it must exist.
     *
     * @param name the user's name, or {@code null}
     * @return this builder
     */
    public Builder user(String name) {
      this.user = emptyToNull(name);
      return this;
    }

    /**
     * Uses this namespace instead of the context's ({@code --namespace}).
     *
     * @param name the namespace, or {@code null}
     * @return this builder
     */
    public Builder namespace(String name) {
      this.namespace = emptyToNull(name);
      return this;
    }

    Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Builds the loader; no file is read yet.
     *
     * @return the loader
     */
    public KubeconfigLoader build() {
      return new KubeconfigLoader(this);
    }

    private static String emptyToNull(String value) {
      return value == null || value.isEmpty() ? null : value;
    }
  }

  @Override
  public String toString() {
    return "KubeconfigLoader" + files() + Optional.ofNullable(context).map(c -> "@" + c).orElse("");
  }
}
