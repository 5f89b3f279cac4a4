package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.Certificates;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * fabric8's client against the sample server over TLS with {@code --authorization-mode=RBAC}: an
 * administrator by token grants a user, known by her client certificate, the {@code edit} role in
 * one namespace; through her certificate the client creates, reads, lists, watches, patches and
 * deletes there, and is refused elsewhere with kube-apiserver's message. A client that trusts
 * another CA, and one whose certificate another CA signed, get nowhere. Every call goes through
 * fabric8's client (its JDK HTTP client, which asks for HTTP/2 by ALPN).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Fabric8TlsRbacTest {
  /** The binding under test: {@code jdk} here, {@code netty} in the subclass. */
  String httpBinding() {
    return "jdk";
  }

  private Path dir;
  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient admin;
  private KubernetesClient jane;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    this.dir = dir;
    Certificates.require("Fabric8TlsRbacTest");
    Certificates made = new Certificates(dir);
    made.authority("ca", "test-client-ca");
    made.authority("rogue-ca", "rogue-ca");
    Files.writeString(
        dir.resolve("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("jane", "/O=dev/CN=jane", "ca", "client.ext", "rsa:2048");
    made.signed("mallory", "/O=system:masters/CN=mallory", "rogue-ca", "client.ext", "rsa:2048");
    Files.writeString(dir.resolve("tokens.csv"), "tok-admin,admin,uid-admin,system:masters\n");
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMillis(500), null, new MemoryStorage(), 100);
    SampleServer.configureSecurity(
        builder,
        Map.of(
            "--tls-cert-file", dir.resolve("server.crt").toString(),
            "--tls-private-key-file", dir.resolve("server.key").toString(),
            "--client-ca-file", dir.resolve("ca.crt").toString(),
            "--token-auth-file", dir.resolve("tokens.csv").toString()),
        false,
        "RBAC");
    server = builder.build();
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
    admin = client(base().withOauthToken("tok-admin").build());
    jane = client(certificate("jane").build());
  }

  @AfterAll
  void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {jane, admin, binding}) {
      if (closeable != null) {
        try {
          closeable.close();
        } catch (Exception e) {
          // closing the others matters more
        }
      }
    }
    if (server != null) {
      server.storage().close();
    }
  }

  private ConfigBuilder base() {
    return new ConfigBuilder()
        .withMasterUrl("https://127.0.0.1:" + binding.port())
        .withCaCertFile(dir.resolve("ca.crt").toString())
        .withRequestRetryBackoffLimit(0)
        .withNamespace("default");
  }

  private ConfigBuilder certificate(String user) {
    return base()
        .withClientCertFile(dir.resolve(user + ".crt").toString())
        .withClientKeyFile(dir.resolve(user + ".key").toString())
        .withClientKeyAlgo("RSA");
  }

  private static KubernetesClient client(Config config) {
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static ConfigMap configMap(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withData(Map.of("k", value))
        .build();
  }

  @Test
  void aUserByCertificateWorksWhereRbacLetsHerAndIsRefusedElsewhere() throws Exception {
    String ns = "team-" + httpBinding();
    admin
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    // Before the binding, she may do nothing there.
    KubernetesClientException before =
        assertThrows(
            KubernetesClientException.class, () -> jane.configMaps().inNamespace(ns).list());
    assertEquals(403, before.getCode());
    admin
        .rbac()
        .roleBindings()
        .inNamespace(ns)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("jane-edit")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "edit")
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName("jane")
                .endSubject()
                .build())
        .create();

    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    Watch watch =
        jane.configMaps()
            .inNamespace(ns)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap resource) {
                    if (action == Action.BOOKMARK) {
                      return;
                    }
                    events.add(
                        action + " " + resource.getMetadata().getName() + " " + resource.getData());
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    events.add("closed " + cause);
                  }
                });
    try {
      ConfigMap created = jane.configMaps().inNamespace(ns).resource(configMap("a", "1")).create();
      assertNotNull(created.getMetadata().getUid());
      assertEquals("1", jane.configMaps().inNamespace(ns).withName("a").get().getData().get("k"));
      assertEquals(
          List.of("a"),
          jane.configMaps().inNamespace(ns).list().getItems().stream()
              .map(c -> c.getMetadata().getName())
              .filter(n -> !n.equals("kube-root-ca.crt"))
              .toList());
      jane.configMaps()
          .inNamespace(ns)
          .withName("a")
          .edit(c -> new ConfigMapBuilder(c).addToData("k", "2").build());
      assertEquals("ADDED a {k=1}", events.poll(30, TimeUnit.SECONDS));
      assertEquals("MODIFIED a {k=2}", events.poll(30, TimeUnit.SECONDS));
      assertTrue(jane.configMaps().inNamespace(ns).withName("a").delete().size() == 1);
      assertEquals("DELETED a {k=2}", events.poll(30, TimeUnit.SECONDS));
    } finally {
      watch.close();
    }

    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class, () -> jane.configMaps().inNamespace("default").list());
    assertEquals(403, refused.getCode());
    assertTrue(
        refused
            .getMessage()
            .contains(
                "User \"jane\" cannot list resource \"configmaps\" in API group \"\" in the"
                    + " namespace \"default\""),
        refused.getMessage());
    KubernetesClientException escalation =
        assertThrows(
            KubernetesClientException.class,
            () ->
                jane.rbac()
                    .roleBindings()
                    .inNamespace(ns)
                    .resource(
                        new RoleBindingBuilder()
                            .withNewMetadata()
                            .withName("jane-admin")
                            .endMetadata()
                            .withNewRoleRef(
                                "rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                            .addNewSubject()
                            .withApiGroup("rbac.authorization.k8s.io")
                            .withKind("User")
                            .withName("jane")
                            .endSubject()
                            .build())
                    .create());
    assertEquals(403, escalation.getCode());
  }

  @Test
  void aCertificateFromAnotherCaIsUnauthorizedAndAClientTrustingAnotherCaConnectsNowhere()
      throws Exception {
    try (KubernetesClient mallory = client(certificate("mallory").build())) {
      KubernetesClientException refused =
          assertThrows(
              KubernetesClientException.class,
              () -> mallory.configMaps().inNamespace("default").list());
      assertEquals(401, refused.getCode());
    }
    try (KubernetesClient lost =
        client(
            base()
                .withCaCertFile(dir.resolve("rogue-ca.crt").toString())
                .withOauthToken("tok-admin")
                .build())) {
      KubernetesClientException refused =
          assertThrows(
              KubernetesClientException.class,
              () -> lost.configMaps().inNamespace("default").list());
      assertNull(refused.getStatus(), "no answer from a server it does not trust");
    }
  }
}
