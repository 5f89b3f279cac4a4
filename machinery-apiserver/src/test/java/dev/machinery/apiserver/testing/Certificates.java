package dev.machinery.apiserver.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for TLS tests, made with the {@code openssl} on the PATH in a directory: certificate
 * authorities, and keys with certificates they sign (RSA or EC, with an openssl extension file).
 * {@code .ci/run} installs openssl when it is missing; {@link #require(String)} fails a test that
 * needs it where it is not installed. Not thread-safe: one test class's setup uses one instance.
 */
public final class Certificates {

  private final Path dir;

  /**
   * Makes certificates in a directory.
   *
   * @param dir where the keys, certificates and extension files go
   */
  public Certificates(Path dir) {
    this.dir = dir;
  }

  /**
   * Fails the calling test, saying what to install, when openssl is not installed.
   *
   * @param who the tests that need it
   * @throws org.opentest4j.AssertionFailedError when no {@code openssl} is on the PATH
   */
  public static void require(String who) {
    RequiredTools.require(RequiredTools.onPath("openssl").isPresent(), RequiredTools.OPENSSL, who);
  }

  /**
   * Makes a self-signed certificate authority, {@code name.crt} and {@code name.key}.
   *
   * @param name the file name
   * @param commonName its CN
   * @throws Exception when openssl fails
   */
  public void authority(String name, String commonName) throws Exception {
    openssl(
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
        "1",
        "-subj",
        "/CN=" + commonName);
  }

  /**
   * Makes a key and a certificate signed by an authority made here: {@code name.key}, {@code
   * name.crt}.
   *
   * @param name the file name
   * @param subject the subject, such as {@code /O=dev/CN=jane}
   * @param ca the authority's file name
   * @param ext the openssl extension file, in the directory
   * @param key {@code ec} (prime256v1) or an openssl {@code -newkey} argument such as {@code
   *     rsa:2048}
   * @throws Exception when openssl fails
   */
  public void signed(String name, String subject, String ca, String ext, String key)
      throws Exception {
    List<String> request = new ArrayList<>(List.of("req", "-newkey"));
    if (key.equals("ec")) {
      request.addAll(List.of("ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"));
    } else {
      request.add(key);
    }
    request.addAll(
        List.of("-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", subject));
    openssl(request.toArray(String[]::new));
    openssl(
        "x509",
        "-req",
        "-in",
        name + ".csr",
        "-CA",
        ca + ".crt",
        "-CAkey",
        ca + ".key",
        "-CAcreateserial",
        "-out",
        name + ".crt",
        "-days",
        "1",
        "-extfile",
        ext);
  }

  /**
   * Runs openssl in the directory.
   *
   * @param args its arguments
   * @throws Exception when it fails or takes more than a minute
   */
  public void openssl(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(
        RequiredTools.onPath("openssl")
            .orElseThrow(() -> RequiredTools.missing(RequiredTools.OPENSSL, "Certificates"))
            .toString());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("openssl " + command + " timed out");
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "openssl " + command + " exited " + process.exitValue() + ": " + out);
    }
  }
}
