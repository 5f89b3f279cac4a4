package dev.machinery.cluster.tests.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.apiserver.testing.Kubectl;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceCondition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The namespace controller alone, on a server whose own namespace cleanup is off: the facts of
 * Kubernetes' test/e2e/apimachinery/namespace.go (a deleted namespace's pods, services and custom
 * resources are removed; it stays Terminating, refusing new content in NamespaceLifecycle's words,
 * while finalizers hold content) and the conditions of namespaced_resources_deleter.go, through
 * fabric8 and kubectl.
 */
class NamespaceControllerTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final ResourceDefinitionContext OWNERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("gc.example.com")
          .withVersion("v1")
          .withPlural("owners")
          .withKind("Owner")
          .withNamespaced(true)
          .build();

  private static NamespaceCluster cluster;
  private static KubernetesClient client;

  @BeforeAll
  static void start() throws Exception {
    cluster = new NamespaceCluster(List.of("namespace-controller"));
    client = cluster.client;
    try (InputStream crds =
        NamespaceControllerTest.class.getClassLoader().getResourceAsStream("crds/gc-owners.yaml")) {
      for (Object item : client.load(crds).items()) {
        client.resource((CustomResourceDefinition) item).create();
      }
    }
    await(
        "the custom resources served",
        () ->
            client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                    .allMatch(
                        d ->
                            d.getStatus() != null
                                && d.getStatus().getConditions().stream()
                                    .anyMatch(
                                        c ->
                                            c.getType().equals("Established")
                                                && c.getStatus().equals("True")))
                ? true
                : null);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static <T> T await(String what, Supplier<T> probe) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      T seen = probe.get();
      if (seen != null) {
        return seen;
      }
      Thread.sleep(50);
    }
    return fail("within " + DEADLINE + " never: " + what);
  }

  private static void awaitGone(String ns) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    Namespace last = null;
    while (System.nanoTime() < end) {
      last = client.namespaces().withName(ns).get();
      if (last == null) {
        return;
      }
      Thread.sleep(50);
    }
    fail("within " + DEADLINE + " namespace " + ns + " was never removed; last seen: " + last);
  }

  private static void createNamespace(String ns) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  private static void configMap(String ns, String name, String... finalizers) {
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withFinalizers(finalizers)
                .endMetadata()
                .withData(Map.of("k", "v"))
                .build())
        .create();
  }

  private static Map<String, NamespaceCondition> conditions(Namespace namespace) {
    return namespace.getStatus().getConditions().stream()
        .collect(Collectors.toMap(NamespaceCondition::getType, c -> c));
  }

  @Test
  void deletesEveryKindOfContentThenRemovesTheNamespace() throws Exception {
    String ns = "nsdelete";
    createNamespace(ns);
    for (int i = 0; i < 5; i++) {
      configMap(ns, "map-" + i);
    }
    client
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("secret")
                .endMetadata()
                .withStringData(Map.of("a", "b"))
                .build())
        .create();
    client
        .pods()
        .inNamespace(ns)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("test-pod")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .build())
        .create();
    GenericKubernetesResource owner = new GenericKubernetesResource();
    owner.setApiVersion("gc.example.com/v1");
    owner.setKind("Owner");
    owner.setMetadata(new ObjectMetaBuilder().withName("custom").build());
    client.genericKubernetesResources(OWNERS).inNamespace(ns).resource(owner).create();

    client.namespaces().withName(ns).delete();
    Namespace terminating = client.namespaces().withName(ns).get();
    assertNotNull(terminating.getMetadata().getDeletionTimestamp());
    assertEquals("Terminating", terminating.getStatus().getPhase());
    assertEquals(List.of("kubernetes"), terminating.getSpec().getFinalizers());

    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () -> configMap(ns, "too-late"),
            "NamespaceLifecycle refuses new content");
    assertEquals(403, refused.getCode());
    assertTrue(
        refused
            .getMessage()
            .contains(
                "unable to create new content in namespace nsdelete because it is being"
                    + " terminated"),
        refused.getMessage());

    awaitGone(ns);
    assertTrue(client.configMaps().inNamespace(ns).list().getItems().isEmpty());
    assertTrue(client.secrets().inNamespace(ns).list().getItems().isEmpty());
    assertTrue(client.pods().inNamespace(ns).list().getItems().isEmpty());
    assertTrue(
        client.genericKubernetesResources(OWNERS).inNamespace(ns).list().getItems().isEmpty());
  }

  @Test
  void staysTerminatingWithKubesConditionsWhileFinalizersHoldContent() throws Exception {
    String ns = "nsheld";
    createNamespace(ns);
    configMap(ns, "held", "example.com/hold");
    configMap(ns, "free");
    client.namespaces().withName(ns).delete();

    Namespace held =
        await(
            "the namespace's conditions say what remains",
            () -> {
              Namespace n = client.namespaces().withName(ns).get();
              return n != null
                      && n.getStatus().getConditions() != null
                      && n.getStatus().getConditions().size() == 5
                  ? n
                  : null;
            });
    assertEquals("Terminating", held.getStatus().getPhase());
    Map<String, NamespaceCondition> conditions = conditions(held);
    List<String> seen = new ArrayList<>();
    for (String[] row :
        new String[][] {
          {
            "NamespaceDeletionDiscoveryFailure",
            "False",
            "ResourcesDiscovered",
            "All resources successfully discovered"
          },
          {
            "NamespaceDeletionGroupVersionParsingFailure",
            "False",
            "ParsedGroupVersions",
            "All legacy kube types successfully parsed"
          },
          {
            "NamespaceDeletionContentFailure",
            "False",
            "ContentDeleted",
            "All content successfully deleted, may be waiting on finalization"
          },
          {
            "NamespaceContentRemaining",
            "True",
            "SomeResourcesRemain",
            "Some resources are remaining: configmaps. has 1 resource instances"
          },
          {
            "NamespaceFinalizersRemaining",
            "True",
            "SomeFinalizersRemain",
            "Some content in the namespace has finalizers remaining: example.com/hold in 1"
                + " resource instances"
          }
        }) {
      NamespaceCondition condition = conditions.get(row[0]);
      assertNotNull(condition, row[0] + " in " + conditions.keySet());
      assertEquals(row[1], condition.getStatus(), row[0]);
      assertEquals(row[2], condition.getReason(), row[0]);
      assertEquals(row[3], condition.getMessage(), row[0]);
      assertNotNull(condition.getLastTransitionTime(), row[0]);
      seen.add(row[0]);
    }
    assertEquals(5, seen.size());
    assertEquals(
        List.of("held"),
        client.configMaps().inNamespace(ns).list().getItems().stream()
            .map(m -> m.getMetadata().getName())
            .collect(Collectors.toList()),
        "the free map is deleted, the held one waits");

    client
        .configMaps()
        .inNamespace(ns)
        .withName("held")
        .edit(m -> new ConfigMapBuilder(m).editMetadata().withFinalizers().endMetadata().build());
    awaitGone(ns);
  }

  @Test
  void kubectlIsRefusedInATerminatingNamespaceAndWaitsForItsDeletion() throws Exception {
    Map<String, Path> builds = Kubectl.requireInstalled("NamespaceControllerTest");
    List<Map.Entry<String, Path>> chosen = new ArrayList<>(builds.entrySet());
    // The oldest and the newest build.
    List<Map.Entry<String, Path>> ends =
        chosen.size() <= 2 ? chosen : List.of(chosen.get(0), chosen.get(chosen.size() - 2));
    int i = 0;
    for (Map.Entry<String, Path> build : ends) {
      String ns = "kubectl-ns-" + (++i);
      Kubectl kubectl = Kubectl.of(build.getKey(), build.getValue(), cluster.url);
      assertEquals(0, kubectl.run("create", "namespace", ns).exitCode());
      configMap(ns, "held", "example.com/hold");
      Kubectl.Result delete = kubectl.run("delete", "namespace", ns, "--wait=false");
      assertEquals(0, delete.exitCode(), delete.all());
      Kubectl.Result refused = kubectl.run("create", "configmap", "new", "-n", ns);
      assertTrue(refused.exitCode() != 0, refused.all());
      assertTrue(
          refused
              .err()
              .contains(
                  "unable to create new content in namespace "
                      + ns
                      + " because it is being terminated"),
          build.getKey() + ": " + refused.all());
      Kubectl.Result phase = kubectl.run("get", "namespace", ns, "-o", "jsonpath={.status.phase}");
      assertEquals("Terminating", phase.out(), build.getKey() + ": " + phase.all());
      client
          .configMaps()
          .inNamespace(ns)
          .withName("held")
          .edit(m -> new ConfigMapBuilder(m).editMetadata().withFinalizers().endMetadata().build());
      Kubectl.Result waited =
          kubectl.run("wait", "--for=delete", "namespace/" + ns, "--timeout=60s");
      assertEquals(0, waited.exitCode(), build.getKey() + ": " + waited.all());
      assertEquals(null, client.namespaces().withName(ns).get());
    }
  }
}
