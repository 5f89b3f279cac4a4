package dev.machinery.storage.etcd.testing;

import dev.machinery.apiserver.certs.CertificateBuilder;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.KeyUsage;
import dev.machinery.apiserver.certs.Pem;
import dev.machinery.apiserver.certs.PrivateKeys;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;

/**
 * The TLS files of an etcd member that asks its clients for certificates, as kubeadm lays them out:
 * a CA, the member's serving pair for {@code 127.0.0.1} and {@code localhost}, and a client pair
 * signed by the same CA ({@code apiserver-etcd-client}), all PEM, ECDSA P-256.
 *
 * @param ca the CA's certificate (etcd's {@code --trusted-ca-file}, the client's {@code
 *     --etcd-cafile})
 * @param serverCert the member's certificate ({@code --cert-file})
 * @param serverKey the member's key ({@code --key-file})
 * @param clientCert the client's certificate ({@code --etcd-certfile})
 * @param clientKey the client's key ({@code --etcd-keyfile})
 */
public record EtcdTlsFiles(
    Path ca, Path serverCert, Path serverKey, Path clientCert, Path clientKey) {

  /**
   * Generates the files in a directory.
   *
   * @param dir the directory, which exists
   * @return the files
   * @throws IOException when a file cannot be written
   */
  public static EtcdTlsFiles generate(Path dir) throws IOException {
    SecureRandom random = new SecureRandom();
    Instant now = Instant.now();
    Instant notBefore = now.minus(Duration.ofHours(1));
    Instant notAfter = now.plus(Duration.ofDays(1));
    KeyPair caKeys = KeyAlgorithm.ECDSA_P256.generate(random);
    X509Certificate ca =
        CertificateBuilder.forKey(caKeys.getPublic(), random)
            .commonName("etcd-ca")
            .validity(notBefore, notAfter)
            .ca(true)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_CERT_SIGN)
            .selfSign(caKeys.getPrivate());
    KeyPair serverKeys = KeyAlgorithm.ECDSA_P256.generate(random);
    X509Certificate server =
        CertificateBuilder.forKey(serverKeys.getPublic(), random)
            .commonName("etcd-server")
            .validity(notBefore, notAfter)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE)
            .serverAuth()
            .clientAuth()
            .ipAddress(InetAddress.getByName("127.0.0.1"))
            .dnsName("localhost")
            .signWith(ca, caKeys.getPrivate());
    KeyPair clientKeys = KeyAlgorithm.ECDSA_P256.generate(random);
    X509Certificate client =
        CertificateBuilder.forKey(clientKeys.getPublic(), random)
            .commonName("kube-apiserver-etcd-client")
            .validity(notBefore, notAfter)
            .keyUsage(KeyUsage.DIGITAL_SIGNATURE)
            .clientAuth()
            .signWith(ca, caKeys.getPrivate());
    EtcdTlsFiles files =
        new EtcdTlsFiles(
            dir.resolve("ca.crt"),
            dir.resolve("server.crt"),
            dir.resolve("server.key"),
            dir.resolve("apiserver-etcd-client.crt"),
            dir.resolve("apiserver-etcd-client.key"));
    write(files.ca(), certificate(ca));
    write(files.serverCert(), certificate(server));
    write(files.serverKey(), key(serverKeys.getPrivate()));
    write(files.clientCert(), certificate(client));
    write(files.clientKey(), key(clientKeys.getPrivate()));
    return files;
  }

  private static String certificate(X509Certificate certificate) {
    try {
      return Pem.encode("CERTIFICATE", certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String key(PrivateKey key) {
    return PrivateKeys.toPem(key);
  }

  private static void write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.US_ASCII);
  }
}
