package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The code of docs/client.md's section "Configuration from kubeconfig", compiled and run. */
class ConfigurationGuideTest {
  @TempDir Path dir;

  @Test
  void loadingAKubeconfig() throws Exception {
    Path kubeconfigFile =
        Fixtures.write(
            dir.resolve("config"),
            """
            clusters:
            - name: dev
              cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
            users:
            - name: dev-admin
              user: {token: dev-token, as: jane, as-groups: [developers]}
            contexts:
            - name: dev
              context: {cluster: dev, user: dev-admin, namespace: shop}
            current-context: dev
            """);
    // As kubectl --kubeconfig=FILE --context=dev: the file, its context, and overrides.
    ClientConfig config =
        KubeconfigLoader.builder().kubeconfig(kubeconfigFile).context("dev").build().load();
    URI server = config.server(); // https://127.0.0.1:6443
    String namespace = config.namespace(); // "shop"
    Optional<String> authorization = config.credentials().authorization(); // "Bearer dev-token"
    Map<String, List<String>> impersonate = config.impersonation().headers();
    // {Impersonate-User=[jane], Impersonate-Group=[developers]}
    assertEquals(URI.create("https://127.0.0.1:6443"), server);
    assertEquals("shop", namespace);
    assertEquals(Optional.of("Bearer dev-token"), authorization);
    assertEquals(
        Map.of("Impersonate-User", List.of("jane"), "Impersonate-Group", List.of("developers")),
        impersonate);
  }

  @Test
  void inClusterElseKubeconfig() throws Exception {
    Path home = dir.resolve("home");
    Fixtures.write(
        home.resolve(".kube/config"),
        """
        clusters: [{name: c, cluster: {server: "https://c.example.com"}}]
        contexts: [{name: c, context: {cluster: c}}]
        current-context: c
        """);
    InClusterConfig pod = InClusterConfig.of(dir.resolve("no-pod"), Map.of());
    KubeconfigLoader loader =
        KubeconfigLoader.builder().environment(Map.of()).homeDirectory(home).build();
    // kubectl's files; when there are none and this runs in a pod, its service account.
    ClientConfig config = loader.loadOrInCluster(pod);
    assertEquals(URI.create("https://c.example.com"), config.server());
  }

  @Test
  void programmaticConfiguration() throws Exception {
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
    byte[] caPem = java.nio.file.Files.readAllBytes(dir.resolve("ca.crt"));
    ClientConfig config =
        ClientConfig.builder()
            .server(URI.create("https://api.example.com:6443"))
            .certificateAuthority(caPem)
            .bearerToken("s3cr3t")
            .namespace("payments")
            .qps(50)
            .burst(100)
            .build();
    assertEquals("payments", config.namespace());
    assertEquals(50f, config.qps());
    assertEquals(Optional.of("Bearer s3cr3t"), config.credentials().authorization());
  }
}
