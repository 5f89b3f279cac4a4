package dev.machinery.examples.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.examples.server.SampleServer;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Java Operator SDK 5 operator with its default settings against the sample server: its primary
 * kind is the server's {@code sites.example.dev/v1} Site, its dependents a Deployment (applied
 * server-side, JOSDK's default) and a ConfigMap (server-side apply switched on); it patches the
 * status by server-side apply, and adds its finalizer and removes it after its cleanup. Every call
 * goes through fabric8's client, which the test shares with the operator (the one setting given:
 * where the server is). The dependents outlive their Site: the server has no garbage collector.
 */
class SiteOperatorTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String FINALIZER = "sites.sites.example.dev/finalizer";
  private static final String MANAGER = "sitereconciler";

  private ApiServer server;
  private JdkHttpBinding binding;
  private KubernetesClient client;
  private Operator operator;
  private SiteReconciler reconciler;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all(), Duration.ofMillis(500));
    SampleServer.loadSamples(server);
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    operator = new Operator(o -> o.withKubernetesClient(client));
    reconciler = new SiteReconciler();
    operator.register(reconciler);
    operator.start();
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
    client.close();
    binding.close();
    server.storage().close();
  }

  private static SiteResource site(String name, String image, int replicas, String content) {
    SiteResource site = new SiteResource();
    site.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
    SiteResource.Spec spec = new SiteResource.Spec();
    spec.setImage(image);
    spec.setReplicas(replicas);
    spec.setContent(content);
    site.setSpec(spec);
    return site;
  }

  /** Polls until the value satisfies the condition, failing with the last value seen. */
  private static <T> T await(String what, Supplier<T> value, Predicate<T> condition)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    T last = value.get();
    while (!condition.test(last)) {
      if (Instant.now().isAfter(deadline)) {
        fail("never saw " + what + "; last seen: " + last);
      }
      Thread.sleep(50);
      last = value.get();
    }
    return last;
  }

  private static boolean hasApplyEntry(HasMetadata object, String subresource) {
    List<ManagedFieldsEntry> entries = object.getMetadata().getManagedFields();
    return entries != null
        && entries.stream()
            .anyMatch(
                e ->
                    MANAGER.equals(e.getManager())
                        && "Apply".equals(e.getOperation())
                        && Objects.equals(subresource, e.getSubresource()));
  }

  private static boolean ownedBy(HasMetadata object, SiteResource site) {
    List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
    return owners != null
        && owners.stream()
            .anyMatch(
                o ->
                    o.getUid().equals(site.getMetadata().getUid())
                        && "Site".equals(o.getKind())
                        && "sites.example.dev/v1".equals(o.getApiVersion()));
  }

  private Deployment deployment(String name) {
    return client.apps().deployments().inNamespace("default").withName(name).get();
  }

  private ConfigMap configMap(String name) {
    return client.configMaps().inNamespace("default").withName(name).get();
  }

  private SiteResource getSite(String name) {
    return client.resources(SiteResource.class).inNamespace("default").withName(name).get();
  }

  private static boolean serves(Deployment d, String image, int replicas) {
    return d != null
        && d.getSpec().getReplicas() == replicas
        && d.getSpec().getTemplate().getSpec().getContainers().size() == 1
        && image.equals(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
  }

  private static boolean holds(ConfigMap c, String content) {
    return c != null && Map.of("index.html", content).equals(c.getData());
  }

  @Test
  void reconcilesDependentsPatchesStatusAndRunsItsFinalizer() throws Exception {
    SiteResource created =
        client
            .resources(SiteResource.class)
            .resource(site("shop", "nginx:1.27", 2, "<h1>open</h1>"))
            .create();
    assertEquals(1L, created.getMetadata().getGeneration());

    Deployment deployment =
        await("the Deployment", () -> deployment("shop"), d -> serves(d, "nginx:1.27", 2));
    assertTrue(ownedBy(deployment, created), deployment.getMetadata().toString());
    await("the Deployment applied", () -> deployment("shop"), d -> hasApplyEntry(d, null));
    ConfigMap configMap =
        await("the ConfigMap", () -> configMap("shop-content"), c -> holds(c, "<h1>open</h1>"));
    assertTrue(ownedBy(configMap, created), configMap.getMetadata().toString());
    await("the ConfigMap applied", () -> configMap("shop-content"), c -> hasApplyEntry(c, null));
    SiteResource site =
        await(
            "the status and the finalizer",
            () -> getSite("shop"),
            s ->
                s.getStatus() != null
                    && Long.valueOf(1).equals(s.getStatus().getObservedGeneration())
                    && s.getMetadata().getFinalizers().contains(FINALIZER));
    assertEquals("serving nginx:1.27 on 2 replica(s)", site.getStatus().getMessage());
    assertTrue(hasApplyEntry(site, "status"), site.getMetadata().getManagedFields().toString());
    assertTrue(hasApplyEntry(site, null), site.getMetadata().getManagedFields().toString());
    assertEquals(1L, site.getMetadata().getGeneration());

    client
        .apps()
        .deployments()
        .inNamespace("default")
        .withName("shop")
        .edit(
            d -> {
              d.getSpec().setReplicas(5);
              return d;
            });
    Deployment takenBack =
        await(
            "the Deployment's replicas taken back from another manager",
            () -> deployment("shop"),
            d -> serves(d, "nginx:1.27", 2));
    // The editor owned only the replicas: once the operator forces them back, its entry goes.
    assertEquals(
        List.of(MANAGER + " Apply"),
        takenBack.getMetadata().getManagedFields().stream()
            .map(e -> e.getManager() + " " + e.getOperation())
            .toList(),
        takenBack.getMetadata().getManagedFields().toString());

    client
        .resources(SiteResource.class)
        .inNamespace("default")
        .withName("shop")
        .edit(
            s -> {
              s.getSpec().setImage("nginx:1.28");
              s.getSpec().setReplicas(3);
              s.getSpec().setContent("<h1>still open</h1>");
              return s;
            });
    await("the Deployment changed", () -> deployment("shop"), d -> serves(d, "nginx:1.28", 3));
    await(
        "the ConfigMap changed",
        () -> configMap("shop-content"),
        c -> holds(c, "<h1>still open</h1>"));
    site =
        await(
            "the status of generation 2",
            () -> getSite("shop"),
            s -> Long.valueOf(2).equals(s.getStatus().getObservedGeneration()));
    assertEquals("serving nginx:1.28 on 3 replica(s)", site.getStatus().getMessage());
    assertEquals(2L, site.getMetadata().getGeneration());

    client.resources(SiteResource.class).inNamespace("default").withName("shop").delete();
    await("the Site gone", () -> getSite("shop"), Objects::isNull);
    assertEquals(List.of("shop"), reconciler.cleanedUp);
    assertNull(getSite("shop"));
  }
}
