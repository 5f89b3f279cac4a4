package dev.machinery.client.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Credentials from an exec credential plugin ({@code client.authentication.k8s.io/v1} or {@code
 * v1beta1}), as client-go's exec authenticator obtains them: the plugin runs with the
 * configuration's arguments and environment and {@code KUBERNETES_EXEC_INFO} (an {@code
 * ExecCredential} whose spec says it is not interactive and, with {@code provideClusterInfo}, holds
 * the cluster), prints an {@code ExecCredential}, and its token or client certificate is kept until
 * its {@code expirationTimestamp} (forever without one) or until {@link #invalidate()}.
 * Thread-safe: one plugin runs at a time.
 */
final class ExecCredentials implements CredentialSource {
  static final String V1 = "client.authentication.k8s.io/v1";
  static final String V1BETA1 = "client.authentication.k8s.io/v1beta1";
  static final String EXEC_INFO = "KUBERNETES_EXEC_INFO";
  static final String EXEC_EXTENSION = "client.authentication.k8s.io/exec";

  /**
   * A user's {@code exec} section.
   *
   * @param command the executable, resolved against the kubeconfig's directory when it holds a path
   *     separator
   * @param args the arguments
   * @param env the variables added to the plugin's environment, in order
   * @param apiVersion the ExecCredential version
   * @param installHint the text shown when the executable is not found
   * @param provideClusterInfo whether the cluster goes into {@code KUBERNETES_EXEC_INFO}
   * @param interactiveMode {@code Never}, {@code IfAvailable} or {@code Always}
   */
  record Config(
      String command,
      List<String> args,
      List<Map.Entry<String, String>> env,
      String apiVersion,
      String installHint,
      boolean provideClusterInfo,
      String interactiveMode) {
    Config {
      args = List.copyOf(args);
      env = List.copyOf(env);
    }
  }

  private record Credentials(String token, ClientKeys.Pair certificate, Instant expiry) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Config config;
  private final ObjectNode cluster;
  private final String file;
  private final String field;
  private final Clock clock;
  private Credentials cached;

  /**
   * Creates the source; the plugin runs at the first request.
   *
   * @param config the exec section
   * @param cluster the {@code spec.cluster} of {@code KUBERNETES_EXEC_INFO}, used when the config
   *     asks for cluster information
   * @param file the kubeconfig that names the plugin, for messages
   * @param field the exec section's field, such as {@code users[alice].exec}
   * @param clock the clock that expiration timestamps are compared with
   */
  ExecCredentials(Config config, ObjectNode cluster, String file, String field, Clock clock) {
    if (!V1.equals(config.apiVersion()) && !V1BETA1.equals(config.apiVersion())) {
      throw new KubeconfigException(
          file,
          field + ".apiVersion",
          "exec plugin: invalid apiVersion \"" + config.apiVersion() + "\"");
    }
    this.config = config;
    this.cluster = cluster;
    this.file = file;
    this.field = field;
    this.clock = clock;
  }

  @Override
  public Optional<String> authorization() {
    String token = credentials().token();
    return token.isEmpty() ? Optional.empty() : Optional.of("Bearer " + token);
  }

  /**
   * Returns the client certificate the plugin answered with, running it when it has no unexpired
   * answer.
   *
   * @return the certificate and key, or empty when the plugin answers a token
   */
  Optional<ClientKeys.Pair> certificate() {
    return Optional.ofNullable(credentials().certificate());
  }

  @Override
  public synchronized boolean invalidate() {
    cached = null;
    return true;
  }

  private synchronized Credentials credentials() {
    if (cached != null && (cached.expiry() == null || clock.instant().isBefore(cached.expiry()))) {
      return cached;
    }
    cached = run();
    return cached;
  }

  /** The ExecCredential written into {@code KUBERNETES_EXEC_INFO}. */
  String execInfo() {
    ObjectNode info = JSON.createObjectNode();
    info.put("kind", "ExecCredential");
    info.put("apiVersion", config.apiVersion());
    ObjectNode spec = info.putObject("spec");
    if (config.provideClusterInfo() && cluster != null) {
      spec.set("cluster", cluster);
    }
    spec.put("interactive", false);
    return info.toString();
  }

  private KubeconfigException failure(String message, Throwable cause) {
    return new KubeconfigException(file, field, "getting credentials: " + message, cause);
  }

  private Credentials run() {
    if ("Always".equals(config.interactiveMode())) {
      throw failure(
          "exec plugin cannot support interactive mode: standard input is unavailable", null);
    }
    List<String> command = new ArrayList<>();
    command.add(config.command());
    command.addAll(config.args());
    ProcessBuilder builder = new ProcessBuilder(command);
    for (Map.Entry<String, String> variable : config.env()) {
      builder.environment().put(variable.getKey(), variable.getValue());
    }
    builder.environment().put(EXEC_INFO, execInfo());
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.redirectInput(ProcessBuilder.Redirect.PIPE);
    byte[] stdout;
    int exit;
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      String message = "exec: executable " + config.command() + " not found";
      if (config.installHint() != null && !config.installHint().isEmpty()) {
        message += "\n\n" + config.installHint();
      }
      throw failure(message, e);
    }
    try {
      process.getOutputStream().close();
      try (InputStream out = process.getInputStream()) {
        stdout = out.readAllBytes();
      }
      exit = process.waitFor();
    } catch (IOException e) {
      process.destroy();
      throw failure("exec: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw failure("exec: interrupted while running " + config.command(), e);
    }
    if (exit != 0) {
      throw failure(
          "exec: executable " + config.command() + " failed with exit code " + exit, null);
    }
    return parse(stdout);
  }

  private Credentials parse(byte[] stdout) {
    JsonNode credential;
    try {
      credential = JSON.readTree(new String(stdout, StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw failure("decoding stdout: " + e.getOriginalMessage(), e);
    }
    if (credential == null || !credential.isObject()) {
      throw failure("decoding stdout: the plugin printed no ExecCredential object", null);
    }
    String apiVersion = credential.path("apiVersion").asText("");
    if (!"ExecCredential".equals(credential.path("kind").asText(""))) {
      throw failure(
          "decoding stdout: kind is \""
              + credential.path("kind").asText("")
              + "\", expected ExecCredential",
          null);
    }
    if (!config.apiVersion().equals(apiVersion)) {
      throw failure(
          "exec plugin is configured to use API version "
              + config.apiVersion()
              + ", plugin returned version "
              + apiVersion,
          null);
    }
    JsonNode status = credential.get("status");
    if (status == null || status.isNull()) {
      throw failure("exec plugin didn't return a status field", null);
    }
    String token = status.path("token").asText("");
    String certData = status.path("clientCertificateData").asText("");
    String keyData = status.path("clientKeyData").asText("");
    if (token.isEmpty() && certData.isEmpty() && keyData.isEmpty()) {
      throw failure("exec plugin didn't return a token or cert/key pair", null);
    }
    if (certData.isEmpty() != keyData.isEmpty()) {
      throw failure("exec plugin returned only certificate or key, not both", null);
    }
    Instant expiry = null;
    JsonNode expiration = status.get("expirationTimestamp");
    if (expiration != null && !expiration.isNull()) {
      try {
        expiry = OffsetDateTime.parse(expiration.asText()).toInstant();
      } catch (DateTimeParseException e) {
        throw failure(
            "decoding stdout: status.expirationTimestamp \""
                + expiration.asText()
                + "\" is not an RFC 3339 time",
            e);
      }
    }
    ClientKeys.Pair certificate = null;
    if (!certData.isEmpty()) {
      try {
        List<X509Certificate> chain = Pems.certificates(certData.getBytes(StandardCharsets.UTF_8));
        PrivateKey key = Pems.privateKey(keyData.getBytes(StandardCharsets.UTF_8));
        Pems.checkPair(key, chain.get(0));
        certificate = new ClientKeys.Pair(chain, key);
      } catch (IllegalArgumentException e) {
        throw failure("failed parsing client key/certificate: " + e.getMessage(), e);
      }
    }
    return new Credentials(token, certificate, expiry);
  }

  @Override
  public String toString() {
    return "exec credential plugin " + config.command();
  }
}
