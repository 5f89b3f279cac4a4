package dev.machinery.apiserver.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Certificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys made by openssl in each PEM form kube-apiserver reads, read here and served in a real
 * handshake; encrypted and malformed keys refused with their messages.
 */
class PrivateKeysTest {
  @TempDir static Path dir;

  private static Certificates openssl;

  @BeforeAll
  static void makeKeys() throws Exception {
    Certificates.require("PrivateKeysTest");
    openssl = new Certificates(dir);
    openssl.openssl("genrsa", "-traditional", "-out", "pkcs1.key", "2048");
    openssl.openssl("ecparam", "-genkey", "-name", "prime256v1", "-out", "sec1-p256.key");
    openssl.openssl("ecparam", "-genkey", "-name", "secp384r1", "-noout", "-out", "sec1-p384.key");
    openssl.openssl("ecparam", "-genkey", "-name", "secp521r1", "-out", "sec1-p521.key");
    openssl.openssl("ecparam", "-genkey", "-name", "secp256k1", "-out", "sec1-k256.key");
    openssl.openssl(
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "p8-rsa.key");
    openssl.openssl(
        "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "p8-ec.key");
    openssl.openssl(
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:P-384",
        "-aes256",
        "-pass",
        "pass:secret",
        "-out",
        "p8-encrypted.key");
    openssl.openssl(
        "genrsa",
        "-traditional",
        "-aes256",
        "-passout",
        "pass:secret",
        "-out",
        "pkcs1-encrypted.key",
        "2048");
    for (String name : List.of("pkcs1", "sec1-p256", "sec1-p384", "sec1-p521", "p8-rsa", "p8-ec")) {
      openssl.openssl("pkey", "-in", name + ".key", "-pubout", "-out", name + ".pub");
    }
  }

  private static PublicKey publicKey(String name, String algorithm) throws Exception {
    String pem = Files.readString(dir.resolve(name + ".pub"), StandardCharsets.US_ASCII);
    byte[] der = Pem.decode(pem).get(0).der();
    return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
  }

  /** Whether the key read signs what openssl's public key verifies: it is the same key. */
  private static void assertSameKey(String name, PrivateKey key) throws Exception {
    String algorithm = key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(name.getBytes(StandardCharsets.UTF_8));
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(publicKey(name, key.getAlgorithm()));
    verifier.update(name.getBytes(StandardCharsets.UTF_8));
    assertTrue(verifier.verify(signer.sign()), name);
  }

  @Test
  void readsEveryUnencryptedFormOpenSslWrites() throws Exception {
    assertTrue(Files.readString(dir.resolve("pkcs1.key")).startsWith("-----BEGIN RSA PRIVATE KEY"));
    assertTrue(
        Files.readString(dir.resolve("sec1-p256.key")).startsWith("-----BEGIN EC PARAMETERS"));
    assertTrue(
        Files.readString(dir.resolve("sec1-p384.key")).startsWith("-----BEGIN EC PRIVATE KEY"));
    assertTrue(Files.readString(dir.resolve("p8-ec.key")).startsWith("-----BEGIN PRIVATE KEY"));
    assertEquals(2048, ((RSAPrivateKey) read("pkcs1")).getModulus().bitLength());
    assertEquals(2048, ((RSAPrivateKey) read("p8-rsa")).getModulus().bitLength());
    assertEquals(
        256, ((ECPrivateKey) read("sec1-p256")).getParams().getCurve().getField().getFieldSize());
    assertEquals(
        384, ((ECPrivateKey) read("sec1-p384")).getParams().getCurve().getField().getFieldSize());
    assertEquals(
        521, ((ECPrivateKey) read("sec1-p521")).getParams().getCurve().getField().getFieldSize());
    assertEquals(
        256, ((ECPrivateKey) read("p8-ec")).getParams().getCurve().getField().getFieldSize());
    for (String name : List.of("pkcs1", "sec1-p256", "sec1-p384", "sec1-p521", "p8-rsa", "p8-ec")) {
      assertSameKey(name, read(name));
    }
  }

  private static PrivateKey read(String name) throws IOException {
    return TlsConfig.readPrivateKey(dir.resolve(name + ".key"));
  }

  @Test
  void readsASec1KeyWithoutItsOwnParametersFromTheEcParametersBlock() throws Exception {
    List<Pem.Block> blocks = Pem.decode(Files.readString(dir.resolve("sec1-p256.key")));
    assertEquals(
        List.of("EC PARAMETERS", "EC PRIVATE KEY"), blocks.stream().map(Pem.Block::type).toList());
    // Rebuild the ECPrivateKey without its [0] parameters, keeping version, key and [1] public key.
    Der.Reader key = new Der.Reader(blocks.get(1).der()).next(Der.SEQUENCE, "key").children();
    byte[] version = key.next().encoded();
    byte[] secret = key.next().encoded();
    key.next(0xa0, "parameters");
    byte[] publicKey = key.next(0xa1, "public key").encoded();
    byte[] bare = Der.sequence(version, secret, publicKey);
    String withBlock =
        Pem.encode("EC PARAMETERS", blocks.get(0).der()) + Pem.encode("EC PRIVATE KEY", bare);
    Path file = dir.resolve("bare-with-parameters.key");
    Files.writeString(file, withBlock);
    PrivateKey read = TlsConfig.readPrivateKey(file);
    assertEquals(((ECPrivateKey) read("sec1-p256")).getS(), ((ECPrivateKey) read).getS());

    CertificateDataException noCurve =
        assertThrows(
            CertificateDataException.class,
            () -> PrivateKeys.fromPem(Pem.encode("EC PRIVATE KEY", bare)));
    assertEquals(
        "the PEM block \"EC PRIVATE KEY\" is not a valid key: the key names no curve and there is"
            + " no EC PARAMETERS",
        noCurve.getMessage());
  }

  @Test
  void refusesEncryptedKeysUnsupportedCurvesAndGarbageWithTheFileNamed() throws Exception {
    assertEquals(
        dir.resolve("p8-encrypted.key")
            + ": the PEM block \"ENCRYPTED PRIVATE KEY\" is an encrypted key, which kube-apiserver"
            + " does not read either; decrypt it with: openssl pkey -in KEY -out PLAIN.key",
        assertThrows(IOException.class, () -> read("p8-encrypted")).getMessage());
    assertEquals(
        dir.resolve("pkcs1-encrypted.key")
            + ": the PEM block \"RSA PRIVATE KEY\" is an encrypted key, which kube-apiserver"
            + " does not read either; decrypt it with: openssl pkey -in KEY -out PLAIN.key",
        assertThrows(IOException.class, () -> read("pkcs1-encrypted")).getMessage());
    assertEquals(
        dir.resolve("sec1-k256.key")
            + ": the PEM block \"EC PRIVATE KEY\" is not a valid key: the curve 1.3.132.0.10 is not"
            + " supported; P-256, P-384 and P-521 are",
        assertThrows(IOException.class, () -> read("sec1-k256")).getMessage());
    CertificateDataException garbage =
        assertThrows(
            CertificateDataException.class,
            () ->
                PrivateKeys.fromPem(Pem.encode("RSA PRIVATE KEY", new byte[] {0x30, 0x03, 2, 1})));
    assertEquals(
        "the PEM block \"RSA PRIVATE KEY\" is not a valid key: a DER element of 3 bytes runs past"
            + " the end",
        garbage.getMessage());
    assertEquals("private key", garbage.subject());
    assertEquals("RSA PRIVATE KEY", garbage.value());
    assertEquals(
        "the PEM block \"PRIVATE KEY\" has no line \"-----END PRIVATE KEY-----\"",
        assertThrows(
                CertificateDataException.class,
                () -> PrivateKeys.fromPem("-----BEGIN PRIVATE KEY-----\nAAAA\n"))
            .getMessage());
    assertEquals(
        "no private key: expected a PEM block PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY",
        assertThrows(
                CertificateDataException.class,
                () -> PrivateKeys.fromPem(Files.readString(dir.resolve("pkcs1.pub"))))
            .getMessage());
  }

  @Test
  void servesAHandshakeWithEachKind() throws Exception {
    SecureRandom random = new SecureRandom();
    KeyPair caKeys = KeyAlgorithm.ECDSA_P256.generate(random);
    X509Certificate ca =
        CertificateBuilder.forKey(caKeys.getPublic(), random)
            .commonName("test-ca")
            .ca(true)
            .keyUsage(KeyUsage.KEY_CERT_SIGN, KeyUsage.DIGITAL_SIGNATURE)
            .selfSign(caKeys.getPrivate());
    for (String name : List.of("pkcs1", "sec1-p256", "sec1-p384", "sec1-p521", "p8-rsa", "p8-ec")) {
      PrivateKey key = read(name);
      X509Certificate serving =
          CertificateBuilder.forKey(publicKey(name, key.getAlgorithm()), random)
              .commonName(name)
              .keyUsage(KeyUsage.DIGITAL_SIGNATURE)
              .serverAuth()
              .dnsName("localhost")
              .signWith(ca, caKeys.getPrivate());
      Files.writeString(
          dir.resolve(name + ".crt"), Pem.encode("CERTIFICATE", serving.getEncoded()));
      TlsConfig tls =
          TlsConfig.fromPemFiles(dir.resolve(name + ".crt"), dir.resolve(name + ".key"), null);
      try (JdkHttpBinding binding = TlsProbe.serve(tls)) {
        assertEquals("ok", TlsProbe.get(binding.port(), ca, "localhost", "TLSv1.3"), name);
        assertEquals("ok", TlsProbe.get(binding.port(), ca, "localhost", "TLSv1.2"), name);
      }
    }
  }
}
