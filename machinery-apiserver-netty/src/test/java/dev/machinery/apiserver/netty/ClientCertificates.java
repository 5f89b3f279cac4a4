package dev.machinery.apiserver.netty;

import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.TokenFileAuthenticator;
import dev.machinery.apiserver.authentication.X509Authenticator;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import dev.machinery.apiserver.testing.client.WidgetServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of the client tests over TLS, made by openssl in a directory: an authority
 * {@code ca} that signs the server's certificate (for 127.0.0.1) and the clients' ({@code admin} in
 * {@code system:masters}, {@code nobody} in no group), and an authority {@code other} the server
 * does not know, which signs {@code stranger}'s.
 */
final class ClientCertificates {
  final Path dir;

  private ClientCertificates(Path dir) {
    this.dir = dir;
  }

  static ClientCertificates make(Path dir, String who) throws Exception {
    Certificates.require(who);
    Files.createDirectories(dir);
    Certificates made = new Certificates(dir);
    made.authority("ca", "client-test-ca");
    made.authority("other", "unknown-ca");
    Files.writeString(
        dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("admin", "/O=system:masters/CN=admin", "ca", "client.ext", "ec");
    made.signed("nobody", "/CN=nobody", "ca", "client.ext", "rsa:2048");
    made.signed("stranger", "/O=system:masters/CN=stranger", "other", "client.ext", "ec");
    return new ClientCertificates(dir);
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  /** The server's TLS: its certificate, client certificates asked for and checked against ca. */
  TlsConfig serverTls() throws Exception {
    return TlsConfig.fromPemFiles(file("server.crt"), file("server.key"), file("ca.crt"));
  }

  /** Client certificates signed by ca, then the tokens of {@link WidgetServer}. */
  Authenticator authenticator() throws Exception {
    return Authenticator.union(
        List.of(
            new X509Authenticator(TlsConfig.readCertificates(file("ca.crt"))),
            TokenFileAuthenticator.parse(
                WidgetServer.ADMIN_TOKEN
                    + ",admin,uid-admin,\"system:masters\"\n"
                    + WidgetServer.NOBODY_TOKEN
                    + ",nobody,uid-nobody\n")));
  }

  /**
   * A client's TLS context: trusts ca, and presents the named certificate.
   *
   * @param client {@code admin}, {@code nobody}, {@code stranger}; {@code null} for none
   */
  SSLContext clientContext(String client) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", TlsConfig.readCertificates(file("ca.crt")).get(0));
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    KeyManagerFactory keyManagers = null;
    if (client != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          client,
          TlsConfig.readPrivateKey(file(client + ".key")),
          new char[0],
          TlsConfig.readCertificates(file(client + ".crt")).toArray(X509Certificate[]::new));
      keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        keyManagers == null ? null : keyManagers.getKeyManagers(),
        trustManagers.getTrustManagers(),
        new SecureRandom());
    return context;
  }

  /**
   * The protocol the JDK's client negotiates with the server when set up as {@code HttpTransport}
   * sets it up: HTTP/2 asked for over TLS (by ALPN), HTTP/1.1 over plain HTTP.
   */
  static HttpClient.Version probe(URI base, SSLContext context) throws Exception {
    boolean tls = base.getScheme().equals("https");
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(tls ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30));
    if (context != null) {
      builder.sslContext(context);
    }
    HttpResponse<Void> response =
        builder
            .build()
            .send(
                HttpRequest.newBuilder(base.resolve("/version"))
                    .header("Authorization", "Bearer " + WidgetServer.ADMIN_TOKEN)
                    .build(),
                HttpResponse.BodyHandlers.discarding());
    if (response.statusCode() != 200) {
      throw new AssertionError("GET /version answered " + response.statusCode());
    }
    return response.version();
  }
}
