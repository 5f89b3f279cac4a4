package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.apiserver.storage.testing.StorageContract;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.storage.etcd.testing.EtcdTlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * etcd over TLS with client certificates, as kubeadm runs it and kube-apiserver reaches it ({@code
 * --etcd-cafile}, {@code --etcd-certfile}, {@code --etcd-keyfile}): the storage contract through
 * the JSON gateway and over gRPC, a watch, and the refusals of a client the member does not trust
 * or that does not trust the member.
 */
class EtcdTlsTest {
  private static final AtomicInteger TESTS = new AtomicInteger();
  private static Path dir;
  private static EtcdTlsFiles files;
  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() throws IOException {
    dir = Files.createTempDirectory("machinery-etcd-tls-files");
    files = EtcdTlsFiles.generate(dir);
    etcd = EtcdProcess.startWithTls(files);
  }

  @AfterAll
  static void stopEtcd() throws IOException {
    etcd.close();
  }

  private static EtcdStorage store(boolean grpc) {
    return EtcdStorage.builder(etcd.endpoint())
        .grpc(grpc)
        .tls(files.ca(), files.clientCert(), files.clientKey())
        .prefix("/tls-" + TESTS.incrementAndGet() + "/")
        .requestTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** The storage contract through the JSON gateway, over TLS. */
  @Nested
  class Gateway extends StorageContract {
    @Override
    protected Storage newStorage() {
      return store(false);
    }
  }

  /** The storage contract over gRPC, over TLS (ALPN's {@code h2}). */
  @Nested
  class Grpc extends StorageContract {
    @Override
    protected Storage newStorage() {
      return store(true);
    }
  }

  @ParameterizedTest(name = "grpc={0}")
  @ValueSource(booleans = {false, true})
  void aWatchSeesAWriteOverTls(boolean grpc) throws Exception {
    try (EtcdStorage storage = store(grpc)) {
      long start = storage.currentRevision();
      try (StorageWatch watch = storage.watch("/cm/", start)) {
        storage.create("/cm/a", "one".getBytes(UTF_8));
        StorageEvent event = watch.poll(10, TimeUnit.SECONDS);
        assertEquals("/cm/a", event.kv().key());
        assertEquals("one", new String(event.kv().value(), UTF_8));
      }
    }
  }

  @ParameterizedTest(name = "grpc={0}")
  @ValueSource(booleans = {false, true})
  void aClientWithoutACertificateIsRefused(boolean grpc) {
    try (EtcdStorage storage =
        EtcdStorage.builder(etcd.endpoint())
            .grpc(grpc)
            .tls(files.ca(), null, null)
            .requestTimeout(Duration.ofSeconds(5))
            .build()) {
      StorageException e = assertThrows(StorageException.class, storage::currentRevision);
      assertTrue(e.getMessage().contains(etcd.endpoint().toString()), e.getMessage());
    }
  }

  @ParameterizedTest(name = "grpc={0}")
  @ValueSource(booleans = {false, true})
  void aMemberWhoseAuthorityIsNotTrustedIsRefused(boolean grpc) {
    // The JDK's authorities: none signed the member's certificate.
    try (EtcdStorage storage =
        EtcdStorage.builder(etcd.endpoint())
            .grpc(grpc)
            .requestTimeout(Duration.ofSeconds(5))
            .build()) {
      StorageException e = assertThrows(StorageException.class, storage::currentRevision);
      assertTrue(e.getMessage().contains(etcd.endpoint().toString()), e.getMessage());
      assertTrue(
          e.getMessage().toLowerCase(Locale.ROOT).contains("certification path"), e.getMessage());
    }
  }

  @Test
  void anEndpointOverTlsIsNotReachedInClear() {
    String clear = etcd.endpoint().toString().replace("https://", "http://");
    try (EtcdStorage storage =
        EtcdStorage.builder(java.net.URI.create(clear))
            .requestTimeout(Duration.ofSeconds(5))
            .build()) {
      assertThrows(StorageException.class, storage::currentRevision);
    }
  }

  @Test
  void badFilesAreRefusedAtBuildNamingTheFile() throws IOException {
    Path missing = dir.resolve("missing.crt");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EtcdStorage.builder(etcd.endpoint()).tls(missing, null, null).build());
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());

    Path notPem = Files.writeString(dir.resolve("not.crt"), "not a certificate");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EtcdStorage.builder(etcd.endpoint()).tls(notPem, null, null).build());
    assertTrue(e.getMessage().contains(notPem.toString()), e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EtcdStorage.builder(etcd.endpoint())
                    .tls(files.ca(), files.clientCert(), null)
                    .build());
    assertTrue(e.getMessage().contains(files.clientCert().toString()), e.getMessage());

    // The member's key is not the client certificate's.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EtcdStorage.builder(etcd.endpoint())
                    .tls(files.ca(), files.clientCert(), files.serverKey())
                    .build());
    assertEquals(
        "the etcd client key file "
            + files.serverKey()
            + " does not hold the key of the certificate in "
            + files.clientCert(),
        e.getMessage());

    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EtcdStorage.builder(java.net.URI.create("ftp://127.0.0.1:2379")).build());
    assertEquals(
        "an etcd endpoint is http://host:port or https://host:port, not \"ftp://127.0.0.1:2379\"",
        e.getMessage());
  }
}
