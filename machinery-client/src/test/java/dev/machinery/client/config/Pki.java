package dev.machinery.client.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Certificates made by openssl at test time: a CA, a server certificate for 127.0.0.1 and
 * localhost, and client certificates whose keys are in each format kubectl reads.
 */
final class Pki {
  /** The formats of the client keys. */
  enum KeyFormat {
    /** {@code PRIVATE KEY}, RSA. */
    PKCS8_RSA("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out KEY"),
    /** {@code RSA PRIVATE KEY}. */
    PKCS1_RSA("openssl genrsa -traditional -out KEY 2048"),
    /** {@code EC PARAMETERS} then {@code EC PRIVATE KEY}, P-256. */
    SEC1_EC_P256("openssl ecparam -name prime256v1 -genkey -out KEY"),
    /** {@code EC PRIVATE KEY} alone, P-384. */
    SEC1_EC_P384("openssl ecparam -name secp384r1 -genkey -noout -out KEY"),
    /** {@code PRIVATE KEY}, EC P-256. */
    PKCS8_EC("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out KEY");

    final String command;

    KeyFormat(String command) {
      this.command = command;
    }
  }

  final Path dir;

  Pki(Path dir) throws IOException, InterruptedException {
    this.dir = dir;
    Fixtures.write(
        dir.resolve("server.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n" + "extendedKeyUsage=serverAuth\n");
    Fixtures.write(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    authority("ca");
    authority("other-ca");
    Fixtures.run(
        dir,
        "openssl",
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        "server.key");
    sign("server", "/CN=localhost", "server.ext");
  }

  private void authority(String name) throws IOException, InterruptedException {
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        name + ".key",
        "-out",
        name + ".crt",
        "-days",
        "2",
        "-subj",
        "/CN=" + name);
  }

  private void sign(String name, String subject, String extensions)
      throws IOException, InterruptedException {
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-new",
        "-key",
        name + ".key",
        "-out",
        name + ".csr",
        "-subj",
        subject);
    Fixtures.run(
        dir,
        "openssl",
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-set_serial",
        String.valueOf(Math.abs(name.hashCode()) + 1),
        "-out",
        name + ".crt",
        "-days",
        "2",
        "-extfile",
        extensions);
  }

  /** Makes a client certificate {@code <name>.crt} with its key {@code <name>.key}. */
  Path client(String name, String commonName, KeyFormat format)
      throws IOException, InterruptedException {
    Fixtures.run(dir, format.command.replace("KEY", name + ".key").split(" "));
    sign(name, "/CN=" + commonName + "/O=devs", "client.ext");
    return dir.resolve(name + ".crt");
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  String text(String name) throws IOException {
    return Files.readString(dir.resolve(name), StandardCharsets.US_ASCII);
  }
}
