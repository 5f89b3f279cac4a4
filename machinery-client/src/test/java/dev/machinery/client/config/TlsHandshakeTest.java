package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS contexts built from kubeconfig files complete handshakes against a JDK HTTPS server that
 * requires client certificates signed by the test CA; the certificates and keys are made by openssl
 * at test time, the keys in every format kubectl reads.
 */
class TlsHandshakeTest {
  @TempDir static Path dir;
  static Pki pki;
  static HttpsServer server;
  static URI uri;

  @BeforeAll
  static void start() throws Exception {
    assertTrue(
        Fixtures.onPath("openssl"),
        "openssl is needed to make the certificates" + ", and is not on the PATH");
    pki = new Pki(dir);
    PrivateKey key = Pems.privateKey(Files.readAllBytes(pki.file("server.key")));
    List<X509Certificate> chain = Pems.certificates(Files.readAllBytes(pki.file("server.crt")));
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("server", key, new char[0], chain.toArray(X509Certificate[]::new));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry(
        "ca", Pems.certificates(Files.readAllBytes(pki.file("ca.crt"))).get(0));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters parameters = context.getDefaultSSLParameters();
            parameters.setNeedClientAuth(true);
            params.setSSLParameters(parameters);
          }
        });
    server.createContext(
        "/",
        exchange -> {
          String peer = ((HttpsExchange) exchange).getSSLSession().getPeerPrincipal().getName();
          String authorization = exchange.getRequestHeaders().getFirst("Authorization");
          byte[] body = (peer + "|" + authorization).getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    uri = URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  static String get(ClientConfig config) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().sslContext(config.sslContext()).build();
    HttpRequest.Builder request = HttpRequest.newBuilder(config.server());
    config.credentials().authorization().ifPresent(v -> request.header("Authorization", v));
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  private static Path kubeconfig(String name, String user) throws IOException {
    return Fixtures.write(
        dir.resolve(name),
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: %s
            certificate-authority: ca.crt
        users:
        - name: u
          user:
        %s
        contexts:
        - name: c
          context: {cluster: local, user: u}
        current-context: c
        """
            .formatted(uri, user.indent(4).stripTrailing()));
  }

  @ParameterizedTest
  @EnumSource(Pki.KeyFormat.class)
  void clientCertificateFilesInEveryKeyFormatCompleteTheHandshake(Pki.KeyFormat format)
      throws Exception {
    String name = "client-" + format.name().toLowerCase(java.util.Locale.ROOT);
    pki.client(name, "alice-" + format.name(), format);
    Path config =
        kubeconfig(
            name + ".yaml",
            "client-certificate: " + name + ".crt\nclient-key: " + name + ".key\ntoken: abc");
    ClientConfig loaded = KubeconfigLoader.builder().kubeconfig(config).build().load();
    assertEquals("O=devs,CN=alice-" + format.name() + "|Bearer abc", get(loaded));
  }

  @Test
  void embeddedDataCompletesTheHandshake() throws Exception {
    pki.client("embedded", "bob", Pki.KeyFormat.SEC1_EC_P256);
    Base64.Encoder b64 = Base64.getEncoder();
    Path config =
        Fixtures.write(
            dir.resolve("embedded.yaml"),
            """
            clusters:
            - name: local
              cluster:
                server: %s
                certificate-authority-data: %s
            users:
            - name: u
              user:
                client-certificate-data: %s
                client-key-data: %s
            contexts:
            - name: c
              context: {cluster: local, user: u}
            current-context: c
            """
                .formatted(
                    uri,
                    b64.encodeToString(Files.readAllBytes(pki.file("ca.crt"))),
                    b64.encodeToString(Files.readAllBytes(pki.file("embedded.crt"))),
                    b64.encodeToString(Files.readAllBytes(pki.file("embedded.key")))));
    assertEquals(
        "O=devs,CN=bob|null", get(KubeconfigLoader.builder().kubeconfig(config).build().load()));
  }

  @Test
  void programmaticConfigurationCompletesTheHandshake() throws Exception {
    pki.client("builder", "carol", Pki.KeyFormat.PKCS1_RSA);
    ClientConfig config =
        ClientConfig.builder()
            .server(uri)
            .certificateAuthority(Files.readAllBytes(pki.file("ca.crt")))
            .clientCertificate(
                Files.readAllBytes(pki.file("builder.crt")),
                Files.readAllBytes(pki.file("builder.key")))
            .bearerToken("t0k")
            .build();
    assertEquals("O=devs,CN=carol|Bearer t0k", get(config));
  }

  @Test
  void withoutAClientCertificateTheServerRefusesTheHandshake() throws Exception {
    ClientConfig config =
        ClientConfig.builder()
            .server(uri)
            .certificateAuthority(Files.readAllBytes(pki.file("ca.crt")))
            .build();
    assertThrows(IOException.class, () -> get(config));
  }

  @Test
  void aServerSignedByAnotherAuthorityIsNotTrusted() throws Exception {
    pki.client("other", "dave", Pki.KeyFormat.PKCS8_EC);
    ClientConfig config =
        ClientConfig.builder()
            .server(uri)
            .certificateAuthority(Files.readAllBytes(pki.file("other-ca.crt")))
            .clientCertificate(
                Files.readAllBytes(pki.file("other.crt")),
                Files.readAllBytes(pki.file("other.key")))
            .build();
    IOException refused = assertThrows(IOException.class, () -> get(config));
    assertTrue(
        String.valueOf(refused.getMessage()).contains("PKIX")
            || String.valueOf(refused.getCause()).contains("PKIX"),
        String.valueOf(refused));
  }

  @Test
  void insecureSkipTlsVerifyTrustsTheServerWithoutItsAuthority() throws Exception {
    pki.client("insecure", "erin", Pki.KeyFormat.PKCS8_RSA);
    Path config =
        Fixtures.write(
            dir.resolve("insecure.yaml"),
            """
            clusters:
            - name: local
              cluster: {server: "%s", insecure-skip-tls-verify: true}
            users:
            - name: u
              user: {client-certificate: insecure.crt, client-key: insecure.key}
            contexts:
            - name: c
              context: {cluster: local, user: u}
            current-context: c
            """
                .formatted(uri));
    ClientConfig loaded = KubeconfigLoader.builder().kubeconfig(config).build().load();
    assertTrue(loaded.insecureSkipTlsVerify());
    assertEquals("O=devs,CN=erin|null", get(loaded));
  }

  @Test
  void aKeyThatIsNotTheCertificatesIsRefusedNamingTheField() throws Exception {
    pki.client("mismatch-a", "frank", Pki.KeyFormat.PKCS8_RSA);
    pki.client("mismatch-b", "grace", Pki.KeyFormat.PKCS8_RSA);
    Path config =
        kubeconfig(
            "mismatch.yaml", "client-certificate: mismatch-a.crt\nclient-key: mismatch-b.key");
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class,
            () -> KubeconfigLoader.builder().kubeconfig(config).build().load());
    assertEquals("users[u].client-key", e.field());
    assertEquals(config.toString(), e.file());
    assertTrue(e.getMessage().contains("private key does not match public key"), e.getMessage());
  }

  @Test
  void anExecPluginsCertificateIsPresentedInTheHandshake() throws Exception {
    pki.client("exec", "heidi", Pki.KeyFormat.SEC1_EC_P256);
    String response =
        "{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
            + "\"status\":{\"clientCertificateData\":"
            + json(pki.text("exec.crt"))
            + ",\"clientKeyData\":"
            + json(pki.text("exec.key"))
            + "}}";
    Fixtures.write(dir.resolve("exec-response.json"), response);
    Path plugin = Fixtures.write(dir.resolve("plugin.sh"), "#!/bin/sh\ncat \"$1\"\n");
    plugin.toFile().setExecutable(true);
    Path config =
        kubeconfig(
            "exec.yaml",
            """
            exec:
              apiVersion: client.authentication.k8s.io/v1
              command: ./plugin.sh
              args: ["%s"]
              interactiveMode: Never"""
                .formatted(dir.resolve("exec-response.json")));
    ClientConfig loaded = KubeconfigLoader.builder().kubeconfig(config).build().load();
    assertEquals("O=devs,CN=heidi|null", get(loaded));
  }

  private static String json(String text) {
    return "\"" + text.replace("\n", "\\n") + "\"";
  }
}
