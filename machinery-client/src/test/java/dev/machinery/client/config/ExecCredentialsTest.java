package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exec credential plugins run as a shell script: what the plugin receives (arguments, environment,
 * {@code KUBERNETES_EXEC_INFO}), what it answers, caching until {@code expirationTimestamp}, a new
 * run after a 401, and client-go's messages for plugins that fail.
 */
class ExecCredentialsTest {
  @TempDir Path dir;
  Fixtures.MutableClock clock;

  /**
   * Counts its runs, records its arguments, one variable and KUBERNETES_EXEC_INFO, and prints the
   * response file with COUNT replaced by the run's number.
   */
  static final String PLUGIN =
      """
      #!/bin/sh
      d=$(dirname "$0")
      n=$(cat "$d/count" 2>/dev/null || echo 0)
      n=$((n+1))
      echo "$n" > "$d/count"
      echo "$@" > "$d/args"
      printf '%s' "$PLUGIN_VAR" > "$d/env"
      printf '%s' "$KUBERNETES_EXEC_INFO" > "$d/info.json"
      sed "s/COUNT/$n/" "$d/response.json"
      exit "${PLUGIN_EXIT:-0}"
      """;

  @BeforeEach
  void plugin() throws IOException {
    Path plugin = Fixtures.write(dir.resolve("bin/plugin.sh"), PLUGIN);
    assertTrue(plugin.toFile().setExecutable(true));
    clock = new Fixtures.MutableClock(Instant.parse("2029-12-31T23:00:00Z"));
  }

  private void respond(String json) throws IOException {
    Fixtures.write(dir.resolve("bin/response.json"), json);
  }

  private int runs() throws IOException {
    Path count = dir.resolve("bin/count");
    return Files.exists(count) ? Integer.parseInt(Files.readString(count).strip()) : 0;
  }

  private Path kubeconfig(String version, String extra, String cluster) throws IOException {
    return Fixtures.write(
        dir.resolve("config"),
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: prod
          cluster:
            server: https://prod.example.com:6443
        %s
        users:
        - name: plugin-user
          user:
            exec:
              apiVersion: %s
              command: ./bin/plugin.sh
              args: [--cluster, prod]
              env:
              - {name: PLUGIN_VAR, value: from-kubeconfig}
              installHint: install the plugin with brew
        %s
        contexts:
        - name: prod
          context: {cluster: prod, user: plugin-user}
        current-context: prod
        """
            .formatted(
                cluster.indent(4).stripTrailing(), version, extra.indent(6).stripTrailing()));
  }

  private ClientConfig load(Path kubeconfig) {
    return KubeconfigLoader.builder().kubeconfig(kubeconfig).clock(clock).build().load();
  }

  private static String token(String version, String expiration) {
    return "{\"apiVersion\":\""
        + version
        + "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"tok-COUNT\""
        + (expiration == null ? "" : ",\"expirationTimestamp\":\"" + expiration + "\"")
        + "}}";
  }

  @Test
  void theTokenIsCachedUntilItsExpirationAndFetchedAgainAfterA401() throws IOException {
    respond(token(ExecCredentials.V1, "2030-01-01T00:00:00Z"));
    ClientConfig config = load(kubeconfig(ExecCredentials.V1, "interactiveMode: Never", ""));
    CredentialSource credentials = config.credentials();
    assertEquals(0, runs());
    assertEquals(Optional.of("Bearer tok-1"), credentials.authorization());
    assertEquals(Optional.of("Bearer tok-1"), credentials.authorization());
    assertEquals(1, runs());
    clock.advance(Duration.ofMinutes(61));
    assertEquals(Optional.of("Bearer tok-2"), credentials.authorization());
    credentials.invalidate();
    assertEquals(Optional.of("Bearer tok-3"), credentials.authorization());
    assertEquals(3, runs());
  }

  @Test
  void requestsFromManyThreadsRunThePluginOnce() throws Exception {
    respond(token(ExecCredentials.V1, null));
    CredentialSource credentials =
        load(kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "")).credentials();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(16);
    try {
      java.util.List<java.util.concurrent.Future<Optional<String>>> answers =
          new java.util.ArrayList<>();
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      for (int i = 0; i < 16; i++) {
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return credentials.authorization();
                }));
      }
      start.countDown();
      for (java.util.concurrent.Future<Optional<String>> answer : answers) {
        assertEquals(Optional.of("Bearer tok-1"), answer.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, runs());
  }

  @Test
  void aTokenWithoutExpirationIsKeptUntilInvalidated() throws IOException {
    respond(token(ExecCredentials.V1, null));
    CredentialSource credentials =
        load(kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "")).credentials();
    assertEquals(Optional.of("Bearer tok-1"), credentials.authorization());
    clock.advance(Duration.ofDays(365));
    assertEquals(Optional.of("Bearer tok-1"), credentials.authorization());
    credentials.invalidate();
    assertEquals(Optional.of("Bearer tok-2"), credentials.authorization());
  }

  @Test
  void thePluginReceivesArgumentsEnvironmentAndExecInfoWithoutClusterByDefault()
      throws IOException {
    respond(token(ExecCredentials.V1, null));
    load(kubeconfig(ExecCredentials.V1, "interactiveMode: Never", ""))
        .credentials()
        .authorization();
    assertEquals("--cluster prod", Files.readString(dir.resolve("bin/args")).strip());
    assertEquals("from-kubeconfig", Files.readString(dir.resolve("bin/env")));
    JsonNode info = new ObjectMapper().readTree(dir.resolve("bin/info.json").toFile());
    assertEquals(
        new ObjectMapper()
            .readTree(
                "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\","
                    + "\"spec\":{\"interactive\":false}}"),
        info);
  }

  @Test
  void provideClusterInfoPutsTheClusterAndItsExtensionIntoExecInfo() throws IOException {
    respond(token(ExecCredentials.V1BETA1, null));
    Path config =
        kubeconfig(
            ExecCredentials.V1BETA1,
            "provideClusterInfo: true",
            """
            tls-server-name: api.internal
            proxy-url: socks5://proxy:1080
            extensions:
            - name: client.authentication.k8s.io/exec
              extension: {audience: prod, nested: {a: 1}}
            - name: something-else
              extension: {ignored: true}""");
    // Through the loader, the cluster goes with the plugin's ExecCredential.
    assertEquals(Optional.of("Bearer tok-1"), load(config).credentials().authorization());
    JsonNode info = new ObjectMapper().readTree(dir.resolve("bin/info.json").toFile());
    assertEquals(
        new ObjectMapper()
            .readTree(
                """
                {"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1",
                 "spec":{"cluster":{"server":"https://prod.example.com:6443",
                                    "tls-server-name":"api.internal",
                                    "proxy-url":"socks5://proxy:1080",
                                    "config":{"audience":"prod","nested":{"a":1}}},
                         "interactive":false}}"""),
        info);
    // v1beta1 defaults interactiveMode to IfAvailable: not interactive, as no terminal is given.
  }

  @Test
  void certificateAuthorityDataGoesToThePluginAsBase64() throws Exception {
    respond(token(ExecCredentials.V1, null));
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "1",
        "-subj",
        "/CN=ca");
    Path config =
        kubeconfig(
            ExecCredentials.V1,
            "interactiveMode: Never\nprovideClusterInfo: true",
            "certificate-authority: ca.crt");
    load(config).credentials().authorization();
    JsonNode cluster =
        new ObjectMapper()
            .readTree(dir.resolve("bin/info.json").toFile())
            .path("spec")
            .path("cluster");
    assertEquals(
        Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve("ca.crt"))),
        cluster.path("certificate-authority-data").asText());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\"}}"
            + "|getting credentials: exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1",
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\"}"
            + "|getting credentials: exec plugin didn't return a status field",
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{}}"
            + "|getting credentials: exec plugin didn't return a token or cert/key pair",
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"clientCertificateData\":\"x\"}}"
            + "|getting credentials: exec plugin returned only certificate or key, not both",
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"t\",\"expirationTimestamp\":\"tomorrow\"}}"
            + "|getting credentials: decoding stdout: status.expirationTimestamp \"tomorrow\" is not an RFC 3339 time",
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"clientCertificateData\":\"x\",\"clientKeyData\":\"y\"}}"
            + "|getting credentials: failed parsing client key/certificate: no PEM block CERTIFICATE found",
        "not json|getting credentials: decoding stdout:",
      })
  void badAnswersAreRefusedInClientGosWords(String response, String message) throws IOException {
    respond(response);
    Path config = kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "");
    CredentialSource credentials = load(config).credentials();
    KubeconfigException e = assertThrows(KubeconfigException.class, credentials::authorization);
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
    assertEquals("users[plugin-user].exec", e.field());
    assertEquals(config.toString(), e.file());
  }

  @Test
  void aFailingPluginIsReportedWithItsExitCode() throws IOException {
    respond(token(ExecCredentials.V1, null));
    Path config =
        kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "").getParent().resolve("config");
    String text =
        Files.readString(config)
            .replace(
                "value: from-kubeconfig}", "value: x}\n      - {name: PLUGIN_EXIT, value: \"3\"}");
    Files.writeString(config, text);
    KubeconfigException e =
        assertThrows(KubeconfigException.class, () -> load(config).credentials().authorization());
    assertEquals(
        "getting credentials: exec: executable "
            + dir.resolve("bin/plugin.sh").toAbsolutePath()
            + " failed with exit code 3",
        e.getMessage());
  }

  @Test
  void aMissingPluginIsReportedWithTheInstallHint() throws IOException {
    Path config = kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "");
    Files.writeString(
        config,
        Files.readString(config)
            .replace("command: ./bin/plugin.sh", "command: no-such-plugin-xyz"));
    KubeconfigException e =
        assertThrows(KubeconfigException.class, () -> load(config).credentials().authorization());
    assertEquals(
        "getting credentials: exec: executable no-such-plugin-xyz not found\n\n"
            + "install the plugin with brew",
        e.getMessage());
  }

  @Test
  void interactiveModeAlwaysCannotBeSupported() throws IOException {
    respond(token(ExecCredentials.V1, null));
    CredentialSource credentials =
        load(kubeconfig(ExecCredentials.V1, "interactiveMode: Always", "")).credentials();
    KubeconfigException e = assertThrows(KubeconfigException.class, credentials::authorization);
    assertEquals(
        "getting credentials: exec plugin cannot support interactive mode: standard input is"
            + " unavailable",
        e.getMessage());
    assertEquals(0, runs());
  }

  @Test
  void anUnknownApiVersionIsRefusedWhenLoading() throws IOException {
    Path config = kubeconfig("client.authentication.k8s.io/v1alpha1", "interactiveMode: Never", "");
    KubeconfigException e = assertThrows(KubeconfigException.class, () -> load(config));
    assertEquals(
        "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"",
        e.getMessage());
    assertEquals("users[plugin-user].exec.apiVersion", e.field());
  }

  @Test
  void aStaticTokenTakesPrecedenceOverThePlugin() throws IOException {
    respond(token(ExecCredentials.V1, null));
    CredentialSource credentials =
        load(kubeconfig(ExecCredentials.V1, "interactiveMode: Never", "")).credentials();
    assertEquals(Optional.of("Bearer tok-1"), credentials.authorization());
    Path config = dir.resolve("config");
    Files.writeString(
        config,
        Files.readString(config).replace("  user:\n", "  user:\n    token: static\n"),
        StandardCharsets.UTF_8);
    assertEquals(Optional.of("Bearer static"), load(config).credentials().authorization());
  }
}
