package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.RequiredTools;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.config.ClientConfig;
import dev.machinery.client.config.KubeconfigLoader;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client made from a kubeconfig file that the real kubectl wrote ({@code kubectl config
 * set-cluster, set-credentials, set-context, use-context}), against the server over TLS with bearer
 * tokens: the cluster's certificate authority trusted, the context's namespace and user used, a
 * wrong token refused as 401.
 */
class KubeconfigClientTest {
  @TempDir Path dir;
  private ApiServer server;
  private JdkHttpBinding binding;
  private SelfSignedCertificates.CertDirectory certs;

  @BeforeEach
  void serve() throws Exception {
    RequiredTools.require(
        RequiredTools.onPath("kubectl").isPresent(), "kubectl on the PATH", "KubeconfigClientTest");
    certs =
        SelfSignedCertificates.ensure(
            dir.resolve("pki"),
            "localhost",
            List.of(InetAddress.getByName("127.0.0.1")),
            List.of(),
            KeyAlgorithm.ECDSA_P256);
    server =
        WidgetServer.builder()
            .tls(TlsConfig.fromPemFiles(certs.certFile(), certs.keyFile(), null))
            .build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterEach
  void stop() {
    if (binding != null) {
      binding.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aClientFromTheKubeconfigKubectlWroteUsesItsClusterUserAndNamespace() throws Exception {
    Path ca = dir.resolve("ca.crt");
    Files.write(ca, pem(certs));
    Path kubeconfig = dir.resolve("config");
    kubectl(
        kubeconfig,
        "config",
        "set-cluster",
        "local",
        "--server=https://127.0.0.1:" + binding.port(),
        "--certificate-authority=" + ca,
        "--embed-certs=true");
    kubectl(
        kubeconfig, "config", "set-credentials", "admin", "--token=" + WidgetServer.ADMIN_TOKEN);
    kubectl(kubeconfig, "config", "set-credentials", "stranger", "--token=not-a-token");
    kubectl(
        kubeconfig,
        "config",
        "set-context",
        "work",
        "--cluster=local",
        "--user=admin",
        "--namespace=team-a");
    kubectl(kubeconfig, "config", "set-context", "wrong", "--cluster=local", "--user=stranger");
    kubectl(kubeconfig, "config", "use-context", "work");

    ClientConfig config = KubeconfigLoader.builder().kubeconfig(kubeconfig).build().load();
    assertEquals("team-a", config.namespace());
    try (Client client = Client.builder(config).scheme(WidgetServer.SCHEME).build()) {
      ResourceClient<Widget> widgets =
          client.resources(Widget.class).inNamespace(config.namespace());
      widgets.create(Widget.of("from-kubeconfig", 2, "blue"), new CreateOptions());
      Widget read = widgets.get("from-kubeconfig");
      assertEquals("team-a", read.getMetadata().getNamespace());
      assertEquals(2, read.getSpec().getReplicas());
    }

    ClientConfig wrong =
        KubeconfigLoader.builder().kubeconfig(kubeconfig).context("wrong").build().load();
    try (Client client = Client.builder(wrong).scheme(WidgetServer.SCHEME).build()) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> client.resources(Widget.class).inNamespace("team-a").get("from-kubeconfig"));
      assertTrue(ApiErrors.isUnauthorized(refused), refused.toString());
    }
  }

  private static byte[] pem(SelfSignedCertificates.CertDirectory certs) throws Exception {
    String base64 =
        java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certs.certKey().caCertificate().getEncoded());
    return ("-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private void kubectl(Path kubeconfig, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add("kubectl");
    command.addAll(List.of(args));
    command.add("--kubeconfig=" + kubeconfig);
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
  }
}
