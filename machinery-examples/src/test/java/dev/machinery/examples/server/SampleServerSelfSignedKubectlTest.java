package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample server with kube-apiserver's {@code --cert-dir} and no certificate files: it generates
 * a self-signed CA and serving certificate there, and every real kubectl on the machine trusts it
 * through {@code --certificate-authority} (and the kubeconfig's {@code certificate-authority}), by
 * {@code 127.0.0.1} and by {@code localhost}, and refuses it without, as Go's x509 verifier does. A
 * second start with the same directory reuses the files.
 */
class SampleServerSelfSignedKubectlTest {
  @TempDir static Path dir;

  private static JdkHttpBinding binding;
  private static JdkHttpBinding rsaBinding;
  private static Path rsaCa;
  private static Path sniCa;
  private static Path ca;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    Path certDir = dir.resolve("certs");
    SelfSignedCertificates.CertDirectory first = configure(certDir).orElseThrow();
    assertTrue(first.generated());
    // Another CA's certificate for sni.example.test, chosen by that server name
    // (--tls-sni-cert-key).
    SelfSignedCertificates.CertKey sni =
        SelfSignedCertificates.generate(
            "sni.example.test", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    Files.writeString(dir.resolve("sni.crt"), sni.certificateChainPem());
    Files.writeString(dir.resolve("sni.key"), sni.privateKeyPem());
    Files.writeString(dir.resolve("sni-ca.crt"), sni.caPem());
    sniCa = dir.resolve("sni-ca.crt");
    // A restart finds the pair and serves it again.
    ApiServer.Builder builder = builder();
    SelfSignedCertificates.CertDirectory second =
        SampleServer.configureSecurity(
                builder,
                Map.of(
                    "--cert-dir",
                    certDir.toString(),
                    "--tls-sni-cert-key",
                    dir.resolve("sni.crt") + "," + dir.resolve("sni.key") + ":sni.example.test"),
                true)
            .orElseThrow();
    assertFalse(second.generated());
    assertEquals(first.certKey(), second.certKey());
    assertEquals(
        List.of(second.certKey().caCertificate()), TlsConfig.readCertificates(second.caFile()));
    ApiServer server = builder.build();
    SampleServer.loadSamples(server);
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    ca = second.caFile();
    // kube-apiserver's own choice of key, RSA 2048, read by Go as well (a server with no objects).
    SelfSignedCertificates.CertDirectory rsa =
        SelfSignedCertificates.ensure(
            dir.resolve("rsa"), "127.0.0.1", List.of(), List.of(), KeyAlgorithm.RSA_2048);
    rsaCa = rsa.caFile();
    ApiServer.Builder rsaBuilder = builder();
    rsaBuilder.tls(new TlsConfig(rsa.certKey().chain(), rsa.certKey().privateKey(), List.of()));
    rsaBinding =
        rsaBuilder.build().serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: trusted
          cluster:
            server: https://127.0.0.1:%2$d
            certificate-authority: %1$s
        - name: by-name
          cluster:
            server: https://localhost:%2$d
            certificate-authority: %1$s
        - name: untrusted
          cluster:
            server: https://127.0.0.1:%2$d
        users:
        - name: anyone
          user:
            token: ignored
        contexts:
        - {name: trusted, context: {cluster: trusted, user: anyone}}
        - {name: by-name, context: {cluster: by-name, user: anyone}}
        - {name: untrusted, context: {cluster: untrusted, user: anyone}}
        current-context: trusted
        """
            .formatted(ca, binding.port()));
  }

  private static ApiServer.Builder builder() {
    return SampleServer.builder(
        Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100);
  }

  private static java.util.Optional<SelfSignedCertificates.CertDirectory> configure(Path certDir)
      throws Exception {
    return SampleServer.configureSecurity(
        builder(), Map.of("--cert-dir", certDir.toString()), true);
  }

  @AfterAll
  static void stop() {
    if (binding != null) {
      binding.close();
    }
    if (rsaBinding != null) {
      rsaBinding.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerSelfSignedKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static void scenario(String name, Path binary) throws Exception {
    String url = "https://127.0.0.1:" + binding.port();
    Kubectl kubectl = Kubectl.of(name, binary, url);
    Kubectl byName = Kubectl.of(name, binary, "https://localhost:" + binding.port());
    // A token (ignored: the server has no token file) keeps kubectl from asking for a user name.
    String token = "--token=ignored";
    KubectlChecks checks = new KubectlChecks(name);
    checks.expect(
        kubectl.run(token, "--certificate-authority=" + ca, "get", "ns"), 0, "NAME", "default");
    checks.expect(kubectl.runIn(kubeconfig, "trusted", "get", "ns"), 0, "NAME", "default");
    checks.expect(byName.runIn(kubeconfig, "by-name", "get", "ns"), 0, "NAME", "default");
    checks.expect(
        kubectl.run(token, "get", "ns"), 1, "x509: certificate signed by unknown authority");
    checks.expect(
        kubectl.runIn(kubeconfig, "untrusted", "get", "ns"),
        1,
        "x509: certificate signed by unknown authority");
    checks.expect(
        kubectl.run(
            token, "--certificate-authority=" + ca, "--tls-server-name=other.example", "get", "ns"),
        1,
        "x509: certificate is valid for localhost, not other.example");
    checks.expect(
        kubectl.run(
            token,
            "--certificate-authority=" + sniCa,
            "--tls-server-name=sni.example.test",
            "get",
            "ns"),
        0,
        "NAME",
        "default");
    checks.expect(
        kubectl.run(
            token,
            "--certificate-authority=" + ca,
            "--tls-server-name=sni.example.test",
            "get",
            "ns"),
        1,
        "x509: certificate signed by unknown authority");
    Kubectl rsa = Kubectl.of(name, binary, "https://127.0.0.1:" + rsaBinding.port());
    checks.expect(
        rsa.run(token, "--certificate-authority=" + rsaCa, "get", "ns"), 0, "No resources found");
    checks.expect(
        rsa.run(token, "--certificate-authority=" + ca, "get", "ns"),
        1,
        "x509: certificate signed by unknown authority");
    assertEquals(List.of(), checks.failures, name);
  }
}
