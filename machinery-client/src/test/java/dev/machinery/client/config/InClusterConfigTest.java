package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** client-go's rest.InClusterConfig and inClusterClientConfig, with the root directory injected. */
class InClusterConfigTest {
  @TempDir Path root;
  Path account;
  Fixtures.MutableClock clock;

  static final Map<String, String> SERVICE =
      Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443");

  @BeforeEach
  void serviceAccount() throws IOException {
    account = root.resolve(InClusterConfig.SERVICE_ACCOUNT_DIRECTORY);
    Fixtures.write(account.resolve("token"), "first-token\n");
    Fixtures.write(account.resolve("namespace"), "team-a");
    clock = new Fixtures.MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  @Test
  void theServiceVariablesTheTokenAndTheNamespaceMakeTheConfiguration() throws Exception {
    Fixtures.run(
        account,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        root.resolve("ca.key").toString(),
        "-out",
        "ca.crt",
        "-days",
        "1",
        "-subj",
        "/CN=ca");
    InClusterConfig source = InClusterConfig.of(root, SERVICE, clock);
    assertTrue(source.isPossible());
    ClientConfig config = source.load();
    assertEquals(URI.create("https://10.96.0.1:443"), config.server());
    assertEquals(Optional.of("Bearer first-token"), config.credentials().authorization());
    assertEquals("team-a", config.namespace());
    assertFalse(config.namespaceExplicit());
    assertEquals(5.0f, config.qps());
    assertEquals(10, config.burst());
  }

  @Test
  void theTokenIsReadAgainAfterAMinuteLessTheLeeway() throws IOException {
    CredentialSource credentials = InClusterConfig.of(root, SERVICE, clock).load().credentials();
    assertEquals(Optional.of("Bearer first-token"), credentials.authorization());
    Fixtures.write(account.resolve("token"), "rotated-token");
    clock.advance(Duration.ofSeconds(49));
    assertEquals(Optional.of("Bearer first-token"), credentials.authorization());
    clock.advance(Duration.ofSeconds(2));
    assertEquals(Optional.of("Bearer rotated-token"), credentials.authorization());
    // An empty file keeps the last token, as client-go's cached file token source does.
    Fixtures.write(account.resolve("token"), "  \n");
    clock.advance(Duration.ofMinutes(5));
    assertEquals(Optional.of("Bearer rotated-token"), credentials.authorization());
    // A 401 makes the next request read the file again.
    Fixtures.write(account.resolve("token"), "third-token");
    credentials.invalidate();
    assertEquals(Optional.of("Bearer third-token"), credentials.authorization());
  }

  @Test
  void withoutTheServiceVariablesTheErrorIsClientGos() {
    for (Map<String, String> env :
        java.util.List.of(
            Map.<String, String>of(),
            Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"),
            Map.of("KUBERNETES_SERVICE_PORT", "443"))) {
      InClusterConfig source = InClusterConfig.of(root, env, clock);
      assertFalse(source.isPossible());
      KubeconfigException e = assertThrows(KubeconfigException.class, source::load);
      assertEquals(
          "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and"
              + " KUBERNETES_SERVICE_PORT must be defined",
          e.getMessage());
    }
  }

  @Test
  void aMissingTokenFileIsNamed() throws IOException {
    Files.delete(account.resolve("token"));
    InClusterConfig source = InClusterConfig.of(root, SERVICE, clock);
    assertFalse(source.isPossible());
    KubeconfigException e = assertThrows(KubeconfigException.class, source::load);
    assertEquals(account.resolve("token").toString(), e.file());
    assertTrue(e.getMessage().contains(account.resolve("token").toString()), e.getMessage());
  }

  @Test
  void anIpv6HostIsBracketed() {
    ClientConfig config =
        InClusterConfig.of(
                root,
                Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "6443"),
                clock)
            .load();
    assertEquals(URI.create("https://[fd00::1]:6443"), config.server());
  }

  @Test
  void podNamespaceWinsOverTheFileAndDefaultIsLast() throws IOException {
    Map<String, String> env = new java.util.HashMap<>(SERVICE);
    env.put("POD_NAMESPACE", "from-env");
    assertEquals("from-env", InClusterConfig.of(root, env, clock).load().namespace());
    Files.delete(account.resolve("namespace"));
    assertEquals("default", InClusterConfig.of(root, SERVICE, clock).load().namespace());
  }
}
