package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample server's TLS flags refused as kube-apiserver refuses them, with their messages. */
class SampleServerTlsFlagsTest {
  @TempDir Path dir;

  private static IllegalArgumentException refused(Map<String, String> files) {
    return assertThrows(
        IllegalArgumentException.class,
        () ->
            SampleServer.configureSecurity(
                SampleServer.builder(
                    Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100),
                files,
                true));
  }

  @Test
  void sniCertificatesAndClientCasNeedTls() {
    assertEquals(
        "--tls-sni-cert-key needs --tls-cert-file, --cert-dir or --secure-port",
        refused(Map.of("--tls-sni-cert-key", "a.crt,a.key")).getMessage());
    assertEquals(
        "--client-ca-file needs --tls-cert-file or --cert-dir",
        refused(Map.of("--client-ca-file", "ca.crt")).getMessage());
  }

  @Test
  void sniValuesAreKubeApiserversForm() {
    assertEquals(
        "--tls-sni-cert-key \"a.crt\": expected comma separated certificate and key file paths",
        assertThrows(IllegalArgumentException.class, () -> SampleServer.sniCertificate("a.crt"))
            .getMessage());
    assertEquals(
        "--tls-sni-cert-key \"a.crt,a.key: \": empty names list is not allowed",
        assertThrows(
                IllegalArgumentException.class, () -> SampleServer.sniCertificate("a.crt,a.key: "))
            .getMessage());
    assertEquals(
        "--tls-sni-cert-key \"a,b,c\": expected comma separated certificate and key file paths",
        assertThrows(IllegalArgumentException.class, () -> SampleServer.sniCertificate("a,b,c"))
            .getMessage());
  }

  @Test
  void aCertDirThatCannotBeWrittenSaysSo() throws Exception {
    Path file = dir.resolve("a-file");
    Files.writeString(file, "not a directory");
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                SampleServer.configureSecurity(
                    SampleServer.builder(
                        Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100),
                    Map.of("--cert-dir", file.toString()),
                    true));
    assertEquals(
        "--cert-dir "
            + file
            + ": java.nio.file.FileAlreadyExistsException: "
            + file
            + " (give a directory this user can write)",
        e.getMessage());
  }
}
