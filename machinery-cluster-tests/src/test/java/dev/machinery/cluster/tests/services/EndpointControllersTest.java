package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Endpoints and EndpointSlice controllers, driven through fabric8: pods made with an IP and a
 * readiness by hand (their status written as a kubelet does), Services selecting them.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@EnableApiServer(
    controllers = {"endpoints-controller", "endpointslice"},
    nodes = 0)
class EndpointControllersTest {
  /** A readiness change newer than any Service here: the trigger time the Endpoints carry. */
  static final String READY_SINCE = "2099-01-02T03:04:05Z";

  KubernetesClient client;

  private void namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  /**
   * A pod of app {@code app} with a container port named {@code http} (or none), then its status.
   */
  private Pod pod(
      String ns, String name, String app, Integer httpPort, String ip, boolean ready, String node) {
    PodBuilder builder =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(Map.of("app", app))
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .addNewContainer()
            .withName("c")
            .withImage("nginx")
            .endContainer()
            .endSpec();
    Pod pod = builder.build();
    if (httpPort != null) {
      pod.getSpec()
          .getContainers()
          .get(0)
          .setPorts(
              List.of(
                  new io.fabric8.kubernetes.api.model.ContainerPortBuilder()
                      .withName("http")
                      .withContainerPort(httpPort)
                      .build()));
    }
    Pod created = client.pods().inNamespace(ns).resource(pod).create();
    return setStatus(created, ip, ready);
  }

  private Pod setStatus(Pod pod, String ip, boolean ready) {
    pod.setStatus(
        new PodStatusBuilder()
            .withPhase("Running")
            .withPodIP(ip)
            .addNewPodIP()
            .withIp(ip)
            .endPodIP()
            .addNewCondition()
            .withType("Ready")
            .withStatus(ready ? "True" : "False")
            .withLastTransitionTime(READY_SINCE)
            .endCondition()
            .build());
    return client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).updateStatus();
  }

  private void service(String ns, String name, boolean headless, boolean publishNotReady) {
    ServiceBuilder builder =
        new ServiceBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(Map.of("tier", "front"))
            .endMetadata()
            .withNewSpec()
            .withSelector(Map.of("app", name))
            .withPublishNotReadyAddresses(publishNotReady)
            .addNewPort()
            .withName("http")
            .withPort(80)
            .withTargetPort(new IntOrString("http"))
            .endPort()
            .endSpec();
    if (headless) {
      builder.editSpec().withClusterIP("None").endSpec();
    }
    client.services().inNamespace(ns).resource(builder.build()).create();
  }

  private List<EndpointSlice> slices(String ns, String service) {
    return client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace(ns)
        .withLabel("kubernetes.io/service-name", service)
        .list()
        .getItems();
  }

  private static List<Endpoint> endpointsOf(List<EndpointSlice> slices) {
    List<Endpoint> all = new ArrayList<>();
    for (EndpointSlice slice : slices) {
      if (slice.getEndpoints() != null) {
        all.addAll(slice.getEndpoints());
      }
    }
    all.sort(Comparator.comparing(e -> e.getAddresses().get(0)));
    return all;
  }

  private static String summary(Endpoints endpoints) {
    if (endpoints == null || endpoints.getSubsets() == null) {
      return "";
    }
    return endpoints.getSubsets().stream()
        .map(
            s ->
                (s.getAddresses() == null
                        ? "[]"
                        : s.getAddresses().stream()
                            .map(a -> a.getIp())
                            .collect(Collectors.toList())
                            .toString())
                    + (s.getNotReadyAddresses() == null
                        ? "[]"
                        : s.getNotReadyAddresses().stream()
                            .map(a -> a.getIp())
                            .collect(Collectors.toList())
                            .toString())
                    + ":"
                    + s.getPorts().stream()
                        .map(p -> p.getName() + "=" + p.getPort() + "/" + p.getProtocol())
                        .collect(Collectors.joining(",")))
        .sorted()
        .collect(Collectors.joining(" "));
  }

  @Test
  void legacyEndpointsFollowReadinessAndNamedPorts() throws Exception {
    namespace("ep-one");
    pod("ep-one", "web-1", "web", 8080, "10.244.1.5", true, "node-1");
    pod("ep-one", "web-2", "web", 9090, "10.244.1.6", false, "node-2");
    pod("ep-one", "web-3", "web", null, "10.244.1.7", true, null);
    pod("ep-one", "other", "other", 8080, "10.244.1.8", true, null);
    service("ep-one", "web", false, false);
    Endpoints endpoints =
        Poll.until(
            "the Endpoints of web",
            () -> client.endpoints().inNamespace("ep-one").withName("web").get(),
            e -> summary(e).equals("[10.244.1.5][]:http=8080/TCP [][10.244.1.6]:http=9090/TCP"));
    assertEquals("front", endpoints.getMetadata().getLabels().get("tier"));
    assertEquals(
        READY_SINCE,
        endpoints
            .getMetadata()
            .getAnnotations()
            .get("endpoints.kubernetes.io/last-change-trigger-time"));
    var address =
        endpoints.getSubsets().stream()
            .filter(s -> s.getAddresses() != null && !s.getAddresses().isEmpty())
            .findFirst()
            .orElseThrow()
            .getAddresses()
            .get(0);
    assertEquals("node-1", address.getNodeName());
    assertEquals("Pod", address.getTargetRef().getKind());
    assertEquals("web-1", address.getTargetRef().getName());
    assertNull(address.getHostname());

    // web-2 turns ready: both addresses in their own port's subset.
    Pod web2 = client.pods().inNamespace("ep-one").withName("web-2").get();
    setStatus(web2, "10.244.1.6", true);
    Poll.until(
        "web-2 ready",
        () -> client.endpoints().inNamespace("ep-one").withName("web").get(),
        e -> summary(e).equals("[10.244.1.5][]:http=8080/TCP [10.244.1.6][]:http=9090/TCP"));

    // A deleted pod leaves; a deleted Service takes its Endpoints with it.
    client.pods().inNamespace("ep-one").withName("web-1").delete();
    Poll.until(
        "web-1 gone",
        () -> client.endpoints().inNamespace("ep-one").withName("web").get(),
        e -> summary(e).equals("[10.244.1.6][]:http=9090/TCP"));
    client.services().inNamespace("ep-one").withName("web").delete();
    Poll.gone(
        "the Endpoints deleted",
        () -> client.endpoints().inNamespace("ep-one").withName("web").get());
  }

  @Test
  void headlessAndPublishNotReady() throws Exception {
    namespace("ep-two");
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("db-0")
            .withLabels(Map.of("app", "db"))
            .endMetadata()
            .withNewSpec()
            .withHostname("db-0")
            .withSubdomain("db")
            .addNewContainer()
            .withName("c")
            .withImage("pg")
            .addNewPort()
            .withName("http")
            .withContainerPort(5432)
            .endPort()
            .endContainer()
            .endSpec()
            .build();
    setStatus(client.pods().inNamespace("ep-two").resource(pod).create(), "10.244.2.9", false);
    service("ep-two", "db", true, true);
    Endpoints endpoints =
        Poll.until(
            "the Endpoints of db",
            () -> client.endpoints().inNamespace("ep-two").withName("db").get(),
            e -> summary(e).equals("[10.244.2.9][]:http=5432/TCP"));
    assertEquals("db-0", endpoints.getSubsets().get(0).getAddresses().get(0).getHostname());
    assertEquals("", endpoints.getMetadata().getLabels().get("service.kubernetes.io/headless"));

    List<EndpointSlice> slices =
        Poll.until(
            "the slice of db", () -> slices("ep-two", "db"), s -> endpointsOf(s).size() == 1);
    EndpointSlice slice = slices.get(0);
    assertEquals("", slice.getMetadata().getLabels().get("service.kubernetes.io/headless"));
    Endpoint endpoint = slice.getEndpoints().get(0);
    assertEquals("db-0", endpoint.getHostname());
    assertTrue(endpoint.getConditions().getReady(), "publishNotReadyAddresses: ready");
    assertEquals(false, endpoint.getConditions().getServing());
    assertEquals(false, endpoint.getConditions().getTerminating());
  }

  @Test
  void endpointSlicesCarryConditionsPortsAndOwner() throws Exception {
    namespace("es-one");
    service("es-one", "api", false, false);
    // No pods: one empty placeholder slice.
    List<EndpointSlice> placeholder =
        Poll.until("the placeholder slice", () -> slices("es-one", "api"), s -> s.size() == 1);
    assertTrue(
        placeholder.get(0).getEndpoints() == null || placeholder.get(0).getEndpoints().isEmpty());
    pod("es-one", "api-1", "api", 8080, "10.244.3.1", true, "node-1");
    pod("es-one", "api-2", "api", 8080, "10.244.3.2", false, "node-2");
    List<EndpointSlice> slices =
        Poll.until(
            "two endpoints",
            () -> slices("es-one", "api"),
            s -> s.size() == 1 && endpointsOf(s).size() == 2);
    EndpointSlice slice = slices.get(0);
    assertEquals("IPv4", slice.getAddressType());
    assertTrue(slice.getMetadata().getName().startsWith("api-"), slice.getMetadata().getName());
    assertEquals(
        "endpointslice-controller.k8s.io",
        slice.getMetadata().getLabels().get("endpointslice.kubernetes.io/managed-by"));
    assertEquals("front", slice.getMetadata().getLabels().get("tier"));
    assertNotNull(
        slice
            .getMetadata()
            .getAnnotations()
            .get("endpoints.kubernetes.io/last-change-trigger-time"));
    var owner = slice.getMetadata().getOwnerReferences().get(0);
    assertEquals("Service", owner.getKind());
    assertEquals("api", owner.getName());
    assertTrue(owner.getController());
    assertTrue(owner.getBlockOwnerDeletion());
    assertEquals(1, slice.getPorts().size());
    assertEquals("http", slice.getPorts().get(0).getName());
    assertEquals(8080, slice.getPorts().get(0).getPort());
    assertEquals("TCP", slice.getPorts().get(0).getProtocol());
    List<Endpoint> endpoints = endpointsOf(slices);
    assertEquals(true, endpoints.get(0).getConditions().getReady());
    assertEquals(true, endpoints.get(0).getConditions().getServing());
    assertEquals(false, endpoints.get(1).getConditions().getReady());
    assertEquals(false, endpoints.get(1).getConditions().getServing());
    assertEquals("node-1", endpoints.get(0).getNodeName());
    assertEquals("api-1", endpoints.get(0).getTargetRef().getName());

    // A pod being deleted (a finalizer holds it) stays, terminating and not ready.
    Pod api1 = client.pods().inNamespace("es-one").withName("api-1").get();
    api1.getMetadata().setFinalizers(List.of("example.com/hold"));
    client.pods().inNamespace("es-one").resource(api1).update();
    client.pods().inNamespace("es-one").withName("api-1").withGracePeriod(0).delete();
    Poll.until(
        "api-1 terminating",
        () -> endpointsOf(slices("es-one", "api")),
        e ->
            e.size() == 2
                && Boolean.TRUE.equals(e.get(0).getConditions().getTerminating())
                && Boolean.FALSE.equals(e.get(0).getConditions().getReady())
                && Boolean.TRUE.equals(e.get(0).getConditions().getServing()));
    // Legacy Endpoints leave a terminating pod out.
    Poll.until(
        "Endpoints without api-1",
        () -> client.endpoints().inNamespace("es-one").withName("api").get(),
        e -> summary(e).equals("[][10.244.3.2]:http=8080/TCP"));
    Pod held = client.pods().inNamespace("es-one").withName("api-1").get();
    if (held != null) {
      held.getMetadata().setFinalizers(List.of());
      client.pods().inNamespace("es-one").resource(held).update();
    }
  }

  @Test
  void slicesHoldAtMostAHundredEndpoints() throws Exception {
    namespace("es-many");
    service("es-many", "many", false, false);
    for (int i = 1; i <= 130; i++) {
      pod("es-many", "many-" + i, "many", 8080, "10.244.4." + i, true, null);
    }
    List<EndpointSlice> slices =
        Poll.until(
            "130 endpoints in two slices",
            () -> slices("es-many", "many"),
            s -> endpointsOf(s).size() == 130 && s.size() == 2);
    for (EndpointSlice slice : slices) {
      assertTrue(slice.getEndpoints().size() <= 100, "at most 100: " + slice.getEndpoints().size());
    }
    // Legacy Endpoints hold all of them in one subset.
    Poll.until(
        "Endpoints with 130 addresses",
        () -> client.endpoints().inNamespace("es-many").withName("many").get(),
        e ->
            e != null
                && e.getSubsets() != null
                && e.getSubsets().size() == 1
                && e.getSubsets().get(0).getAddresses().size() == 130);
  }
}
