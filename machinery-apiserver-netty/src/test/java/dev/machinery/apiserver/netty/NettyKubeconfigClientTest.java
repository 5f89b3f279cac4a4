package dev.machinery.apiserver.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.RequiredTools;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.ResourceExpiredException;
import dev.machinery.client.Watch;
import dev.machinery.client.config.ClientConfig;
import dev.machinery.client.config.KubeconfigLoader;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
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
 * Clients made from a kubeconfig file the real kubectl wrote ({@code kubectl config set-cluster
 * --certificate-authority --embed-certs}, {@code set-credentials --client-certificate --client-key
 * --embed-certs} and {@code --token}) against the server on the Netty binding over HTTPS (HTTP/2):
 * the server authenticates the certificate, and every refusal is its typed exception: 401 for a
 * certificate of an unknown authority or an unknown token, 403 for a user without rights, 404, 409,
 * 422 and 410.
 */
class NettyKubeconfigClientTest {
  @TempDir Path dir;
  private ClientCertificates certs;
  private ApiServer server;
  private HttpBinding binding;
  private Path kubeconfig;

  @BeforeEach
  void serve() throws Exception {
    RequiredTools.require(
        RequiredTools.onPath("kubectl").isPresent(),
        "kubectl on the PATH",
        "NettyKubeconfigClientTest");
    certs = ClientCertificates.make(dir.resolve("pki"), "NettyKubeconfigClientTest");
    server =
        WidgetServer.builder()
            .rbac()
            .watchCacheSize(4)
            .tls(certs.serverTls())
            .authenticator(certs.authenticator())
            .build();
    binding =
        server.serve(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            NettyBinding.starter(NettyOptions.defaults()));
    kubeconfig = dir.resolve("config");
    kubectl(
        "config",
        "set-cluster",
        "local",
        "--server=https://127.0.0.1:" + binding.port(),
        "--certificate-authority=" + certs.file("ca.crt"),
        "--embed-certs=true");
    for (String user : List.of("admin", "nobody", "stranger")) {
      kubectl(
          "config",
          "set-credentials",
          user + "-cert",
          "--client-certificate=" + certs.file(user + ".crt"),
          "--client-key=" + certs.file(user + ".key"),
          "--embed-certs=true");
      kubectl(
          "config", "set-context", user + "-cert", "--cluster=local", "--user=" + user + "-cert");
    }
    kubectl("config", "set-credentials", "admin-token", "--token=" + WidgetServer.ADMIN_TOKEN);
    kubectl("config", "set-credentials", "bad-token", "--token=not-a-token");
    for (String user : List.of("admin-token", "bad-token")) {
      kubectl("config", "set-context", user, "--cluster=local", "--user=" + user);
    }
    kubectl("config", "use-context", "admin-cert");
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
  void kubectlEmbeddedTheCertificatesInTheFile() throws Exception {
    String text = Files.readString(kubeconfig);
    assertTrue(text.contains("certificate-authority-data:"), text);
    assertTrue(text.contains("client-certificate-data:"), text);
    assertTrue(text.contains("client-key-data:"), text);
    assertTrue(!text.contains(certs.dir.toString()), "no file paths left: " + text);
  }

  @Test
  void theAdminCertificateDrivesEveryVerbAndEachRefusalIsTyped() throws Exception {
    try (Client client = client("admin-cert")) {
      ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace("ns");
      Widget created = widgets.create(Widget.of("a", 1, "red"));
      assertEquals("ns", created.getMetadata().getNamespace());

      StatusException missing = assertThrows(StatusException.class, () -> widgets.get("nope"));
      assertTrue(ApiErrors.isNotFound(missing), missing.getMessage());
      assertEquals(404, missing.statusCode());

      StatusException exists =
          assertThrows(StatusException.class, () -> widgets.create(Widget.of("a", 1, "red")));
      assertTrue(ApiErrors.isAlreadyExists(exists), exists.getMessage());
      assertEquals(409, exists.statusCode());

      Widget fresh = widgets.get("a");
      fresh.getSpec().setColor("blue");
      widgets.update(fresh);
      created.getSpec().setColor("green");
      StatusException conflict = assertThrows(StatusException.class, () -> widgets.update(created));
      assertTrue(ApiErrors.isConflict(conflict), conflict.getMessage());
      assertEquals(409, conflict.statusCode());

      StatusException invalid =
          assertThrows(
              StatusException.class, () -> widgets.create(Widget.of("Not_A_Name", 1, "red")));
      assertTrue(ApiErrors.isInvalid(invalid), invalid.getMessage());
      assertEquals(422, invalid.statusCode());

      String start = created.getMetadata().getResourceVersion();
      for (int i = 0; i < 8; i++) {
        Widget w = widgets.get("a");
        w.getSpec().setReplicas(i + 2);
        widgets.update(w);
      }
      server.storage().compact(server.storage().currentRevision());
      ListOptions old = new ListOptions();
      old.setResourceVersion(start);
      ResourceExpiredException expired =
          assertThrows(
              ResourceExpiredException.class,
              () -> {
                try (Watch<Widget> watch = widgets.watch(old)) {
                  watch.hasNext();
                }
              });
      assertEquals(410, expired.statusCode());
    }
  }

  @Test
  void aTokenFromTheFileAuthenticatesAndAnUnknownOneIsUnauthorized() throws Exception {
    try (Client client = client("admin-token")) {
      client.resources(Widget.class).inNamespace("ns").create(Widget.of("t", 1, "red"));
    }
    try (Client client = client("bad-token")) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> client.resources(Widget.class).inNamespace("ns").get("t"));
      assertTrue(ApiErrors.isUnauthorized(refused), refused.getMessage());
      assertEquals(401, refused.statusCode());
    }
  }

  @Test
  void aCertificateOfAnUnknownAuthorityIsUnauthorized() throws Exception {
    try (Client client = client("stranger-cert")) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> client.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isUnauthorized(refused), refused.getMessage());
      assertEquals(401, refused.statusCode());
    }
  }

  @Test
  void aCertifiedUserWithoutRightsIsForbidden() throws Exception {
    try (Client client = client("nobody-cert")) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> client.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isForbidden(refused), refused.getMessage());
      assertEquals(403, refused.statusCode());
      assertTrue(refused.getMessage().contains("User \"nobody\""), refused.getMessage());
    }
  }

  private Client client(String context) throws Exception {
    ClientConfig config =
        KubeconfigLoader.builder().kubeconfig(kubeconfig).context(context).build().load();
    return Client.builder(config).scheme(WidgetServer.SCHEME).build();
  }

  private void kubectl(String... args) throws Exception {
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
