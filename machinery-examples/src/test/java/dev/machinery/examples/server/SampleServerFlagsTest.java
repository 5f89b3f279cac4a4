package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.builtins.DefaultAdmission;
import dev.machinery.core.schema.GroupVersion;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sample server's command line, read by {@link SampleServerFlags}. */
class SampleServerFlagsTest {
  @Test
  void noFlagsGiveTheDefaults() {
    SampleServerFlags flags = SampleServerFlags.parse();
    assertEquals(8080, flags.port());
    assertFalse(flags.securePort());
    assertFalse(flags.requestLog());
    assertEquals(List.of(), flags.etcdServers());
    assertEquals("/registry/", flags.etcdPrefix());
    assertEquals(StorageMediaType.PROTOBUF, flags.storageMediaType());
    assertEquals(Map.of(), flags.files());
    assertTrue(flags.anonymousAuth());
    assertEquals("AlwaysAllow", flags.authorizationMode());
    assertEquals(400, flags.maxRequestsInFlight());
    assertEquals(200, flags.maxMutatingRequestsInFlight());
    assertEquals("netty", flags.httpBinding());
    assertTrue(flags.enablement().isEnabled(GroupVersion.of("demo.example.dev", "v1beta1")));
    assertEquals(List.of("*"), flags.controllers());
    assertEquals(3, flags.nodes());
    assertFalse(flags.leaderElect());
    assertEquals(java.time.Duration.ofSeconds(15), flags.leaderElectLeaseDuration());
    assertEquals(java.time.Duration.ofMinutes(5), flags.etcdCompactionInterval());
  }

  @Test
  void theCompactionIntervalIsAGoDurationAndZeroTurnsItOff() {
    assertEquals(
        java.time.Duration.ofSeconds(90),
        SampleServerFlags.parse("--etcd-compaction-interval=90s").etcdCompactionInterval());
    assertEquals(
        java.time.Duration.ZERO,
        SampleServerFlags.parse("--etcd-compaction-interval", "0s").etcdCompactionInterval());
    assertEquals(
        "--etcd-compaction-interval: expected a duration such as 15s or 500ms, got \"often\"",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--etcd-compaction-interval=often"))
            .getMessage());
  }

  /**
   * kube-apiserver's default admission plugins, with {@code ServiceAccount} when the controller
   * that makes each namespace's account runs, and kube-apiserver's two flags on top, with its words
   * for plugins both enabled and disabled.
   */
  @Test
  void admissionPluginsAreKubeApiserversDefaultsAndItsFlags() {
    List<String> defaults = SampleServerFlags.parse().admission().enabled();
    assertTrue(defaults.contains("ServiceAccount"), defaults.toString());
    assertTrue(defaults.containsAll(DefaultAdmission.ENABLED_BY_DEFAULT), defaults.toString());
    assertFalse(
        SampleServerFlags.parse("--controllers=*,-serviceaccount-controller")
            .admission()
            .enabled()
            .contains("ServiceAccount"));
    assertFalse(
        SampleServerFlags.parse("--controllers=").admission().enabled().contains("ServiceAccount"));
    List<String> chosen =
        SampleServerFlags.parse(
                "--controllers=",
                "--enable-admission-plugins=ServiceAccount",
                "--disable-admission-plugins",
                "Priority, LimitRanger")
            .admission()
            .enabled();
    assertTrue(chosen.contains("ServiceAccount"), chosen.toString());
    assertFalse(chosen.contains("Priority"), chosen.toString());
    assertFalse(chosen.contains("LimitRanger"), chosen.toString());
    assertTrue(chosen.contains("ResourceQuota"), chosen.toString());
    assertEquals(
        "[LimitRanger Priority] in enable-admission-plugins and disable-admission-plugins"
            + " overlapped",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () ->
                    SampleServerFlags.parse(
                        "--enable-admission-plugins=Priority,LimitRanger",
                        "--disable-admission-plugins=LimitRanger,Priority"))
            .getMessage());
    String unknown =
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--enable-admission-plugins=NodeRestriction"))
            .getMessage();
    assertTrue(
        unknown.startsWith(
            "--enable-admission-plugins: admission plugin \"NodeRestriction\" is not available"
                + " here; available: LimitRanger, ServiceAccount,"),
        unknown);
  }

  @Test
  void controllerFlagsFollowKubeControllerManager() {
    SampleServerFlags flags =
        SampleServerFlags.parse(
            "--controllers=*, -garbage-collector-controller,bootstrap-signer",
            "--nodes",
            "10",
            "--leader-elect",
            "--leader-elect-lease-duration=4s");
    assertEquals(
        List.of("*", "-garbage-collector-controller", "bootstrap-signer"), flags.controllers());
    assertEquals(10, flags.nodes());
    assertTrue(flags.leaderElect());
    assertEquals(java.time.Duration.ofSeconds(4), flags.leaderElectLeaseDuration());
    assertEquals(List.of(), SampleServerFlags.parse("--controllers=").controllers());
    assertEquals(
        "--nodes: expected 0 to 255, got 300",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--nodes=300"))
            .getMessage());
    assertEquals(
        "--leader-elect-lease-duration: expected a duration such as 15s or 500ms, got \"soon\"",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--leader-elect-lease-duration=soon"))
            .getMessage());
  }

  @Test
  void valuesAreTakenAfterAnEqualsSignOrAsTheNextArgument() {
    SampleServerFlags flags =
        SampleServerFlags.parse(
            "--port",
            "0",
            "--runtime-config=demo.example.dev/v1beta1=false",
            "--request-log",
            "--etcd-servers",
            "http://127.0.0.1:2379, http://127.0.0.1:22379",
            "--etcd-prefix=/other/",
            "--storage-media-type",
            "application/json",
            "--token-auth-file",
            "tokens.csv",
            "--anonymous-auth=false",
            "--authorization-mode",
            "RBAC",
            "--max-requests-inflight=10",
            "--max-mutating-requests-inflight",
            "0",
            "--http-binding",
            "jdk");
    assertEquals(0, flags.port());
    assertFalse(flags.enablement().isEnabled(GroupVersion.of("demo.example.dev", "v1beta1")));
    assertTrue(flags.enablement().isEnabled(GroupVersion.of("demo.example.dev", "v1")));
    assertTrue(flags.requestLog());
    assertEquals(
        List.of(URI.create("http://127.0.0.1:2379"), URI.create("http://127.0.0.1:22379")),
        flags.etcdServers());
    assertEquals("/other/", flags.etcdPrefix());
    assertEquals(StorageMediaType.JSON, flags.storageMediaType());
    assertEquals(Optional.of("tokens.csv"), flags.file("--token-auth-file"));
    assertFalse(flags.anonymousAuth());
    assertEquals("RBAC", flags.authorizationMode());
    assertEquals(10, flags.maxRequestsInFlight());
    assertEquals(0, flags.maxMutatingRequestsInFlight());
    assertEquals("jdk", flags.httpBinding());
  }

  @Test
  void aSecurePortServesThereWithKubeApiserversCertDirUnlessCertificateFilesAreGiven() {
    SampleServerFlags generated = SampleServerFlags.parse("--port=9000", "--secure-port", "6443");
    assertEquals(6443, generated.port());
    assertTrue(generated.securePort());
    assertEquals(Optional.of("/var/run/kubernetes"), generated.file("--cert-dir"));
    SampleServerFlags given =
        SampleServerFlags.parse(
            "--secure-port=6443", "--tls-cert-file=a.crt", "--tls-private-key-file", "a.key");
    assertEquals(Optional.empty(), given.file("--cert-dir"));
    assertEquals(Optional.of("a.crt"), given.file("--tls-cert-file"));
    assertEquals(Optional.of("a.key"), given.file("--tls-private-key-file"));
  }

  @Test
  void etcdTlsFilesAreKubeApiserversThree() {
    SampleServerFlags flags =
        SampleServerFlags.parse(
            "--etcd-servers=https://127.0.0.1:2379",
            "--etcd-cafile",
            "/pki/etcd/ca.crt",
            "--etcd-certfile=/pki/apiserver-etcd-client.crt",
            "--etcd-keyfile",
            "/pki/apiserver-etcd-client.key");
    assertEquals(List.of(URI.create("https://127.0.0.1:2379")), flags.etcdServers());
    assertEquals(java.nio.file.Path.of("/pki/etcd/ca.crt"), flags.path("--etcd-cafile"));
    assertEquals(
        java.nio.file.Path.of("/pki/apiserver-etcd-client.crt"), flags.path("--etcd-certfile"));
    assertEquals(
        java.nio.file.Path.of("/pki/apiserver-etcd-client.key"), flags.path("--etcd-keyfile"));
    assertEquals(null, SampleServerFlags.parse().path("--etcd-cafile"));
  }

  @Test
  void sniCertificatesRepeatOneALine() {
    SampleServerFlags flags =
        SampleServerFlags.parse(
            "--tls-sni-cert-key=a.crt,a.key:a.example", "--tls-sni-cert-key", "b.crt,b.key");
    assertEquals(
        Optional.of("a.crt,a.key:a.example\nb.crt,b.key"), flags.file("--tls-sni-cert-key"));
  }

  @Test
  void aCommandLineItCannotReadIsAUsageErrorNamingTheFlag() {
    assertEquals(
        "--storage-media-type \"application/xml\" invalid, allowed values: application/json,"
            + " application/vnd.kubernetes.protobuf",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--storage-media-type=application/xml"))
            .getMessage());
    assertEquals(
        "--http-binding: expected jdk or netty, got \"jetty\"",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--http-binding=jetty"))
            .getMessage());
    assertEquals(
        "--port: expected a number, got \"eighty\"",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--port", "eighty"))
            .getMessage());
    assertEquals(
        "--anonymous-auth: expected true or false, got \"no\"",
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--anonymous-auth=no"))
            .getMessage());
    assertEquals(
        "unknown flag: --insecure-port\n" + SampleServerFlags.USAGE,
        assertThrows(
                SampleServerFlags.UsageException.class,
                () -> SampleServerFlags.parse("--insecure-port=8080"))
            .getMessage());
    assertEquals(
        "--cert-dir needs a value\n" + SampleServerFlags.USAGE,
        assertThrows(
                SampleServerFlags.UsageException.class, () -> SampleServerFlags.parse("--cert-dir"))
            .getMessage());
  }
}
