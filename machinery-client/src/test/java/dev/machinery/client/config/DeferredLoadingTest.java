package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * client-go's merged_client_builder_test.go (TestInClusterConfig, TestInClusterConfigNamespace):
 * the kubeconfig files first, the pod's configuration only when they hold none.
 */
class DeferredLoadingTest {
  @TempDir Path dir;
  InClusterConfig pod;
  InClusterConfig notAPod;

  @BeforeEach
  void sources() throws IOException {
    Path account = dir.resolve("root").resolve(InClusterConfig.SERVICE_ACCOUNT_DIRECTORY);
    Fixtures.write(account.resolve("token"), "pod-token");
    Fixtures.write(account.resolve("namespace"), "pod-ns");
    pod =
        InClusterConfig.of(
            dir.resolve("root"),
            Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"));
    notAPod = InClusterConfig.of(dir.resolve("root"), Map.of());
  }

  private KubeconfigLoader.Builder loader(String kubeconfig) throws IOException {
    Path home = dir.resolve("home");
    if (kubeconfig != null) {
      Fixtures.write(home.resolve(".kube/config"), kubeconfig);
    }
    return KubeconfigLoader.builder().environment(Map.of()).homeDirectory(home);
  }

  @Test
  void emptyConfigInAPodIsThePodsConfiguration() throws IOException {
    ClientConfig config = loader(null).build().loadOrInCluster(pod);
    assertEquals(URI.create("https://10.96.0.1:443"), config.server());
    assertEquals("pod-ns", config.namespace());
  }

  @Test
  void emptyConfigOutsideAPodIsTheEmptyConfigError() throws IOException {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class, () -> loader(null).build().loadOrInCluster(notAPod));
    assertTrue(e.isEmptyConfig());
    assertEquals(
        "invalid configuration: no configuration has been provided, try setting"
            + " KUBERNETES_MASTER environment variable",
        e.getMessage());
  }

  @Test
  void aKubeconfigWinsOverThePod() throws IOException {
    ClientConfig config =
        loader(
                """
                clusters: [{name: c, cluster: {server: "https://kube.example.com"}}]
                contexts: [{name: c, context: {cluster: c}}]
                current-context: c
                """)
            .build()
            .loadOrInCluster(pod);
    assertEquals(URI.create("https://kube.example.com"), config.server());
    assertEquals("default", config.namespace());
  }

  @Test
  void anInvalidKubeconfigIsReportedEvenInAPod() throws IOException {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class,
            () ->
                loader(
                        """
                        clusters: [{name: c, cluster: {tls-server-name: x}}]
                        contexts: [{name: c, context: {cluster: c}}]
                        current-context: c
                        """)
                    .build()
                    .loadOrInCluster(pod));
    assertFalse(e.isEmptyConfig());
    assertEquals("invalid configuration: no server found for cluster \"c\"", e.getMessage());
  }

  @Test
  void theNamespaceOverrideAppliesToThePod() throws IOException {
    ClientConfig config = loader(null).namespace("override").build().loadOrInCluster(pod);
    assertEquals("override", config.namespace());
    assertTrue(config.namespaceExplicit());
    assertEquals(URI.create("https://10.96.0.1:443"), config.server());
  }
}
