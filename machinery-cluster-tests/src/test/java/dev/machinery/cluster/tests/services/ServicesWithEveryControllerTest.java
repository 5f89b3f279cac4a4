package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service controllers with every controller on ({@code *}) and three simulated nodes: a new
 * namespace gets its account and root CA, a Pod is admitted with the {@code default} account and
 * the projected token volume (the ServiceAccount admission plugin runs with the controller), the
 * token a kubelet would ask for that volume authenticates as the pod's account, the Pod's Service
 * gets endpoints, and its budget lets it be evicted.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@EnableApiServer
class ServicesWithEveryControllerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  KubernetesClient client;
  TestApiServer server;

  @Test
  void aNamespaceAPodAServiceAndABudget() throws Exception {
    assertTrue(
        server
            .controllerManager()
            .enabledControllers()
            .containsAll(
                java.util.List.of(
                    "serviceaccount-controller",
                    "root-ca-certificate-publisher-controller",
                    "endpoints-controller",
                    "endpointslice-controller",
                    "disruption-controller")),
        server.controllerManager().enabledControllers().toString());
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("shop").endMetadata().build())
        .create();
    Poll.until(
        "kube-root-ca.crt",
        () -> client.configMaps().inNamespace("shop").withName("kube-root-ca.crt").get(),
        m -> m != null);

    // Admitted with the default account, which the controller made, and the token volume.
    Pod pod =
        client
            .pods()
            .inNamespace("shop")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("cart")
                    .withLabels(Map.of("app", "cart"))
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("c")
                    .withImage("nginx")
                    .addNewPort()
                    .withName("http")
                    .withContainerPort(8080)
                    .endPort()
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    assertEquals("default", pod.getSpec().getServiceAccountName());
    Volume volume =
        pod.getSpec().getVolumes().stream()
            .filter(v -> v.getName().startsWith("kube-api-access-"))
            .findFirst()
            .orElseThrow();
    var projection = volume.getProjected().getSources();
    assertEquals(3607L, projection.get(0).getServiceAccountToken().getExpirationSeconds());
    assertEquals("kube-root-ca.crt", projection.get(1).getConfigMap().getName());

    // The token a kubelet asks for that volume: bound to the pod, accepted as its account.
    String token =
        client
            .serviceAccounts()
            .inNamespace("shop")
            .withName("default")
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(3607L)
                    .withNewBoundObjectRef()
                    .withApiVersion("v1")
                    .withKind("Pod")
                    .withName("cart")
                    .withUid(pod.getMetadata().getUid())
                    .endBoundObjectRef()
                    .endSpec()
                    .build())
            .getStatus()
            .getToken();
    HttpResponse<String> review =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.url() + "/apis/authentication.k8s.io/v1/selfsubjectreviews"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + token)
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"apiVersion\":\"authentication.k8s.io/v1\","
                                + "\"kind\":\"SelfSubjectReview\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    JsonNode user = JSON.readTree(review.body()).path("status").path("userInfo");
    assertEquals("system:serviceaccount:shop:default", user.path("username").asText());
    assertEquals(
        "cart", user.path("extra").path("authentication.kubernetes.io/pod-name").get(0).asText());

    // Scheduled and run by the simulated nodes: Running, ready, with an IP of its node's range.
    Pod running =
        Poll.until(
            "the pod running",
            () -> client.pods().inNamespace("shop").withName("cart").get(),
            p ->
                p != null
                    && p.getStatus() != null
                    && "Running".equals(p.getStatus().getPhase())
                    && p.getStatus().getPodIP() != null
                    && p.getStatus().getConditions().stream()
                        .anyMatch(
                            c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    String podIp = running.getStatus().getPodIP();
    client
        .services()
        .inNamespace("shop")
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("cart")
                .endMetadata()
                .withNewSpec()
                .withSelector(Map.of("app", "cart"))
                .addNewPort()
                .withName("http")
                .withPort(80)
                .withTargetPort(new IntOrString("http"))
                .endPort()
                .endSpec()
                .build())
        .create();
    Poll.until(
        "the Endpoints",
        () -> client.endpoints().inNamespace("shop").withName("cart").get(),
        e ->
            e != null
                && e.getSubsets() != null
                && e.getSubsets().size() == 1
                && podIp.equals(e.getSubsets().get(0).getAddresses().get(0).getIp())
                && e.getSubsets().get(0).getPorts().get(0).getPort() == 8080);
    Poll.until(
        "the EndpointSlice",
        () ->
            client
                .discovery()
                .v1()
                .endpointSlices()
                .inNamespace("shop")
                .withLabel("kubernetes.io/service-name", "cart")
                .list()
                .getItems(),
        slices ->
            slices.size() == 1
                && slices.get(0).getEndpoints() != null
                && slices.get(0).getEndpoints().size() == 1);

    // A budget of minAvailable 0 allows one disruption: the eviction goes through.
    client
        .policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace("shop")
        .resource(
            new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName("cart")
                .endMetadata()
                .withNewSpec()
                .withMinAvailable(new IntOrString(0))
                .withNewSelector()
                .withMatchLabels(Map.of("app", "cart"))
                .endSelector()
                .endSpec()
                .build())
        .create();
    Poll.until(
        "one disruption allowed",
        () -> client.policy().v1().podDisruptionBudget().inNamespace("shop").withName("cart").get(),
        p ->
            p.getStatus() != null
                && p.getStatus().getDisruptionsAllowed() != null
                && p.getStatus().getDisruptionsAllowed() == 1);
    assertTrue(client.pods().inNamespace("shop").withName("cart").evict());
    Poll.until(
        "the pod evicted",
        () -> Optional.ofNullable(client.pods().inNamespace("shop").withName("cart").get()),
        p -> p.isEmpty() || p.get().getMetadata().getDeletionTimestamp() != null);
    assertNotNull(client.serviceAccounts().inNamespace("shop").withName("default").get());
  }
}
