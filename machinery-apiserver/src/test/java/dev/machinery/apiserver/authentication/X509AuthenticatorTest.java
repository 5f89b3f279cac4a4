package dev.machinery.apiserver.authentication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client certificates made with openssl: verified by {@link X509Authenticator}, read by {@link
 * TlsConfig}, and carried by {@link JdkHttpBinding}'s HTTPS from the handshake to {@link
 * ApiRequest#peerCertificates()}. Fails, saying what to install, where openssl is not installed.
 */
class X509AuthenticatorTest {
  @TempDir static Path dir;

  @BeforeAll
  static void certificates() throws Exception {
    Certificates.require("X509AuthenticatorTest");
    Certificates made = new Certificates(dir);
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    Files.writeString(dir.resolve("server.ext"), "extendedKeyUsage=serverAuth\n");
    Files.writeString(
        dir.resolve("serving.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    Files.writeString(
        dir.resolve("intermediate.ext"),
        "basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign\n");
    made.authority("ca", "client-ca");
    made.authority("other-ca", "other-ca");
    made.signed("intermediate", "/CN=intermediate", "ca", "intermediate.ext", "rsa:2048");
    made.signed("jane", "/O=dev/O=ops/CN=jane", "ca", "client.ext", "rsa:2048");
    made.signed("ecuser", "/CN=ecuser", "ca", "client.ext", "ec");
    made.signed("nocn", "/O=dev", "ca", "client.ext", "rsa:2048");
    made.signed("serveronly", "/CN=serveronly", "ca", "server.ext", "rsa:2048");
    made.signed("mallory", "/CN=mallory", "other-ca", "client.ext", "rsa:2048");
    made.signed("deep", "/O=x/CN=deep", "intermediate", "client.ext", "rsa:2048");
    made.signed("serving", "/CN=127.0.0.1", "ca", "serving.ext", "ec");
    // A PKCS#1 key, which TlsConfig reads as kube-apiserver does.
    made.openssl(
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "p8.key");
    made.openssl("pkey", "-in", "p8.key", "-traditional", "-out", "pkcs1.key");
  }

  private static List<X509Certificate> certs(String... names) throws IOException {
    List<X509Certificate> all = new ArrayList<>();
    for (String name : names) {
      all.addAll(TlsConfig.readCertificates(dir.resolve(name + ".crt")));
    }
    return all;
  }

  private static ApiRequest presenting(List<X509Certificate> chain) {
    return new ApiRequest(
        "GET", "/api", Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]), chain);
  }

  private static X509Authenticator authenticator() throws IOException {
    return new X509Authenticator(certs("ca"));
  }

  @Test
  void commonNameIsTheUserAndOrganizationsTheGroupsInOrder() throws Exception {
    assertEquals(
        Optional.of(UserInfo.of("jane", List.of("dev", "ops"))),
        authenticator().authenticate(presenting(certs("jane"))));
    assertEquals(
        Optional.of(UserInfo.of("ecuser", List.of())),
        authenticator().authenticate(presenting(certs("ecuser"))));
  }

  @Test
  void aChainThroughAnIntermediateIsVerified() throws Exception {
    assertEquals(
        Optional.of(UserInfo.of("deep", List.of("x"))),
        authenticator().authenticate(presenting(certs("deep", "intermediate"))));
    assertEquals(
        Optional.of(UserInfo.of("deep", List.of("x"))),
        authenticator().authenticate(presenting(certs("deep", "intermediate", "ca"))));
    assertThrows(
        AuthenticationException.class,
        () -> authenticator().authenticate(presenting(certs("deep"))));
  }

  @Test
  void untrustedOrUnfitCertificatesFail() throws Exception {
    assertThrows(
        AuthenticationException.class,
        () -> authenticator().authenticate(presenting(certs("mallory"))));
    assertThrows(
        AuthenticationException.class,
        () -> authenticator().authenticate(presenting(certs("serveronly"))));
    assertThrows(
        AuthenticationException.class, () -> authenticator().authenticate(presenting(certs("ca"))));
  }

  @Test
  void noCertificateOrNoCommonNameIsNotItsToJudge() throws Exception {
    assertEquals(Optional.empty(), authenticator().authenticate(presenting(List.of())));
    assertEquals(Optional.empty(), authenticator().authenticate(presenting(certs("nocn"))));
  }

  @Test
  void tlsConfigReadsRsaAndEcKeysInPkcs8AndPkcs1() throws Exception {
    assertEquals("EC", TlsConfig.readPrivateKey(dir.resolve("serving.key")).getAlgorithm());
    assertEquals("RSA", TlsConfig.readPrivateKey(dir.resolve("jane.key")).getAlgorithm());
    assertEquals(
        TlsConfig.readPrivateKey(dir.resolve("p8.key")),
        TlsConfig.readPrivateKey(dir.resolve("pkcs1.key")));
    assertThrows(IOException.class, () -> TlsConfig.readCertificates(dir.resolve("jane.key")));
  }

  @Test
  void theBindingHandsTheHandshakesCertificatesToTheHandler() throws Exception {
    TlsConfig tls =
        TlsConfig.fromPemFiles(
            dir.resolve("serving.crt"), dir.resolve("serving.key"), dir.resolve("ca.crt"));
    Authenticator chain = Authenticator.chain(List.of(authenticator()), true);
    try (JdkHttpBinding binding =
        JdkHttpBinding.start(
            request -> {
              String user;
              try {
                user = chain.authenticate(request).orElseThrow().name();
              } catch (AuthenticationException e) {
                user = "refused";
              }
              return ApiResponse.of(200, "text/plain", user.getBytes(StandardCharsets.UTF_8));
            },
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            4,
            null,
            tls)) {
      assertEquals("jane", get(binding.port(), "jane", "TLSv1.3"));
      assertEquals("jane", get(binding.port(), "jane", "TLSv1.2"));
      assertEquals("ecuser", get(binding.port(), "ecuser", "TLSv1.3"));
      assertEquals(UserInfo.ANONYMOUS, get(binding.port(), null, "TLSv1.3"));
      assertEquals("refused", get(binding.port(), "mallory", "TLSv1.3"));
      assertThrows(SSLHandshakeException.class, () -> get(binding.port(), null, "TLSv1.1"));
    }
  }

  /** One GET over a fresh TLS connection, presenting a client's certificate and key if named. */
  private static String get(int port, String client, String protocol) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", certs("ca").get(0));
    TrustManagerFactory trusts =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trusts.init(trust);
    KeyManagerFactory keys = null;
    if (client != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(
          "client",
          TlsConfig.readPrivateKey(dir.resolve(client + ".key")),
          new char[0],
          certs(client).toArray(X509Certificate[]::new));
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    KeyManager[] presented =
        keys == null
            ? null
            : new KeyManager[] {new Always((X509ExtendedKeyManager) keys.getKeyManagers()[0])};
    context.init(presented, trusts.getTrustManagers(), null);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setEnabledProtocols(new String[] {protocol});
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(response.startsWith("HTTP/1.1 200"), response);
      return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
  }

  /**
   * Presents its one certificate whatever CAs the server names, as Go's client (kubectl) does when
   * it has a single certificate; the JDK's own key manager would withhold one from another CA.
   */
  private static final class Always extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager keys;

    Always(X509ExtendedKeyManager keys) {
      this.keys = keys;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[] {"client"};
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return "client";
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return "client";
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.getPrivateKey(alias);
    }
  }
}
