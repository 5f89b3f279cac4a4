package dev.machinery.examples.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Java Operator SDK 5 operator with its default settings against the JUnit test server (every
 * built-in kind from Kubernetes' own description, and the Site CustomResourceDefinition): it
 * reconciles a Deployment, a Service and a ConfigMap dependent by server-side apply, follows a
 * change of its Site, and patches the status. Every call goes through fabric8's client, shared with
 * the operator. The test server runs Kubernetes' controllers and three simulated nodes, so the
 * Deployment the operator makes rolls out to available pods, and deleting the Site takes its
 * dependents with it through their owner references (the garbage collector).
 */
@EnableApiServer(crds = "crds/sites/sites.example.dev.yaml")
class SiteOperatorOnTestServerTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  KubernetesClient client;
  private Operator operator;

  @BeforeEach
  void start() {
    // The client is the test class's, shared by its tests: the operator leaves it open on stop.
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new SiteWithServiceReconciler());
    operator.start();
  }

  @AfterEach
  void stop() {
    operator.stop();
  }

  @Test
  void reconcilesADeploymentAServiceAndAConfigMap() throws Exception {
    SiteResource site = new SiteResource();
    site.setMetadata(new ObjectMetaBuilder().withName("shop").withNamespace("default").build());
    SiteResource.Spec spec = new SiteResource.Spec();
    spec.setImage("nginx:1.27");
    spec.setReplicas(2);
    spec.setContent("<h1>open</h1>");
    site.setSpec(spec);
    client.resources(SiteResource.class).resource(site).create();

    Deployment deployment =
        await(
            "the Deployment",
            () -> client.apps().deployments().inNamespace("default").withName("shop").get(),
            d -> d != null && d.getSpec().getReplicas() == 2);
    assertEquals("RollingUpdate", deployment.getSpec().getStrategy().getType(), "defaulted");
    Service service =
        await(
            "the Service",
            () -> client.services().inNamespace("default").withName("shop").get(),
            s -> s != null);
    assertEquals("ClusterIP", service.getSpec().getType());
    assertTrue(service.getSpec().getClusterIP().startsWith("10."), service.toString());
    assertEquals("http", service.getSpec().getPorts().get(0).getTargetPort().getStrVal());
    await(
        "the ConfigMap",
        () -> client.configMaps().inNamespace("default").withName("shop-content").get(),
        c -> c != null && Map.of("index.html", "<h1>open</h1>").equals(c.getData()));
    await(
        "the status",
        () -> client.resources(SiteResource.class).inNamespace("default").withName("shop").get(),
        s ->
            s.getStatus() != null
                && "serving nginx:1.27 on 2 replica(s)".equals(s.getStatus().getMessage()));

    client
        .resources(SiteResource.class)
        .inNamespace("default")
        .withName("shop")
        .edit(
            s -> {
              s.getSpec().setReplicas(3);
              s.getSpec().setImage("nginx:1.28");
              return s;
            });
    await(
        "the Deployment changed",
        () -> client.apps().deployments().inNamespace("default").withName("shop").get(),
        d ->
            d.getSpec().getReplicas() == 3
                && "nginx:1.28"
                    .equals(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()));
    Service after = client.services().inNamespace("default").withName("shop").get();
    assertEquals(
        service.getSpec().getClusterIP(), after.getSpec().getClusterIP(), "the cluster IP stays");
  }

  @Test
  void itsDeploymentBecomesAvailableAndGoesWithItsSite() throws Exception {
    SiteResource site = new SiteResource();
    site.setMetadata(new ObjectMetaBuilder().withName("blog").withNamespace("default").build());
    SiteResource.Spec spec = new SiteResource.Spec();
    spec.setImage("nginx:1.27");
    spec.setReplicas(2);
    spec.setContent("<h1>posts</h1>");
    site.setSpec(spec);
    client.resources(SiteResource.class).resource(site).create();

    Deployment available =
        await(
            "the Deployment available",
            () -> client.apps().deployments().inNamespace("default").withName("blog").get(),
            d ->
                d != null
                    && d.getStatus() != null
                    && Integer.valueOf(2).equals(d.getStatus().getAvailableReplicas())
                    && d.getStatus().getConditions().stream()
                        .anyMatch(
                            c -> c.getType().equals("Available") && c.getStatus().equals("True")));
    assertEquals(2, available.getStatus().getReadyReplicas());
    await(
        "two running pods",
        () ->
            client
                .pods()
                .inNamespace("default")
                .withLabel("app.kubernetes.io/instance", "blog")
                .list()
                .getItems(),
        pods ->
            pods.size() == 2
                && pods.stream()
                    .allMatch(
                        p ->
                            "Running".equals(p.getStatus().getPhase())
                                && p.getSpec().getNodeName() != null
                                && p.getStatus().getPodIP() != null));

    client.resources(SiteResource.class).inNamespace("default").withName("blog").delete();
    await(
        "the Deployment gone",
        () -> client.apps().deployments().inNamespace("default").withName("blog").get() == null,
        gone -> gone);
    await(
        "the Service and ConfigMap gone",
        () ->
            client.services().inNamespace("default").withName("blog").get() == null
                && client.configMaps().inNamespace("default").withName("blog-content").get()
                    == null,
        gone -> gone);
    await(
        "its ReplicaSets and pods gone",
        () ->
            client
                    .apps()
                    .replicaSets()
                    .inNamespace("default")
                    .withLabel("app.kubernetes.io/instance", "blog")
                    .list()
                    .getItems()
                    .isEmpty()
                && client
                    .pods()
                    .inNamespace("default")
                    .withLabel("app.kubernetes.io/instance", "blog")
                    .list()
                    .getItems()
                    .isEmpty(),
        gone -> gone);
  }

  private static <T> T await(String what, Supplier<T> value, Predicate<T> condition)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    T last = value.get();
    while (last == null || !condition.test(last)) {
      if (Instant.now().isAfter(deadline)) {
        fail("never saw " + what + "; last seen: " + last);
      }
      Thread.sleep(50);
      last = value.get();
    }
    return last;
  }
}
