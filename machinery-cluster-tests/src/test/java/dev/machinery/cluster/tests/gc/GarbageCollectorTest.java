package dev.machinery.cluster.tests.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector driven through fabric8, with only it running: the facts of Kubernetes'
 * test/e2e/apimachinery/garbage_collector.go (background, orphan and foreground deletion, owners
 * waiting for their dependents, dependency circles, custom resource owners) and of its integration
 * tests (dangling references, cluster-scoped owners, owners named in another namespace).
 */
@EnableApiServer(
    controllers = {"garbage-collector-controller"},
    nodes = 0,
    crds = "crds/gc-owners.yaml")
class GarbageCollectorTest {
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  KubernetesClient client;
  TestApiServer server;

  private String namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  private static <T> T await(String what, Supplier<T> probe) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    T seen = null;
    while (System.nanoTime() < end) {
      seen = probe.get();
      if (seen != null) {
        return seen;
      }
      Thread.sleep(20);
    }
    return fail("within " + DEADLINE + " never: " + what);
  }

  private static void awaitTrue(String what, Supplier<Object> seen, Supplier<Boolean> condition)
      throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      if (condition.get()) {
        return;
      }
      Thread.sleep(20);
    }
    fail("within " + DEADLINE + " never: " + what + "; last seen: " + seen.get());
  }

  private ReplicationController rc(String ns, String name, String... finalizers) {
    return client
        .replicationControllers()
        .inNamespace(ns)
        .resource(
            new ReplicationControllerBuilder()
                .withNewMetadata()
                .withName(name)
                .withFinalizers(finalizers)
                .endMetadata()
                .withNewSpec()
                .withReplicas(0)
                .withSelector(Map.of("app", name))
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Map.of("app", name))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
  }

  private static OwnerReference ref(
      String apiVersion, String kind, String name, String uid, Boolean block) {
    return new OwnerReferenceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withName(name)
        .withUid(uid)
        .withController(true)
        .withBlockOwnerDeletion(block)
        .build();
  }

  private static OwnerReference refTo(ReplicationController rc, Boolean block) {
    return ref(
        "v1",
        "ReplicationController",
        rc.getMetadata().getName(),
        rc.getMetadata().getUid(),
        block);
  }

  private Pod pod(String ns, String name, List<String> finalizers, OwnerReference... owners) {
    return client
        .pods()
        .inNamespace(ns)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withFinalizers(finalizers)
                .withOwnerReferences(owners)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("nginx")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  private List<String> podNames(String ns) {
    return client.pods().inNamespace(ns).list().getItems().stream()
        .map(p -> p.getMetadata().getName())
        .sorted()
        .collect(Collectors.toList());
  }

  @Test
  void deletesPodsCreatedByAnRcWhenNotOrphaning() throws Exception {
    String ns = namespace("gc-background");
    ReplicationController rc = rc(ns, "simpletest.rc");
    for (int i = 0; i < 5; i++) {
      pod(ns, "simpletest.rc-" + i, List.of(), refTo(rc, null));
    }
    client.replicationControllers().inNamespace(ns).withName("simpletest.rc").delete();
    awaitTrue("the rc's pods deleted", () -> podNames(ns), () -> podNames(ns).isEmpty());
  }

  @Test
  void orphansPodsCreatedByAnRcWhenTheDeleteOptionsSaySo() throws Exception {
    String ns = namespace("gc-orphan");
    ReplicationController rc = rc(ns, "simpletest.rc");
    for (int i = 0; i < 3; i++) {
      pod(ns, "simpletest.rc-" + i, List.of(), refTo(rc, true));
    }
    client
        .replicationControllers()
        .inNamespace(ns)
        .withName("simpletest.rc")
        .withPropagationPolicy(DeletionPropagation.ORPHAN)
        .delete();
    awaitTrue(
        "the rc gone after its pods were orphaned",
        () -> client.replicationControllers().inNamespace(ns).withName("simpletest.rc").get(),
        () ->
            client.replicationControllers().inNamespace(ns).withName("simpletest.rc").get()
                == null);
    List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
    assertEquals(3, pods.size(), "every pod stays");
    for (Pod pod : pods) {
      assertTrue(
          pod.getMetadata().getOwnerReferences().isEmpty(),
          "no owner reference left on " + pod.getMetadata().getName());
    }
  }

  @Test
  void keepsTheRcUntilAllItsPodsAreDeletedInTheForeground() throws Exception {
    String ns = namespace("gc-foreground");
    ReplicationController rc = rc(ns, "simpletest.rc");
    pod(ns, "held", List.of("example.com/hold"), refTo(rc, true));
    pod(ns, "free", List.of(), refTo(rc, true));
    client
        .replicationControllers()
        .inNamespace(ns)
        .withName("simpletest.rc")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    awaitTrue(
        "the pod without finalizers deleted",
        () -> podNames(ns),
        () -> client.pods().inNamespace(ns).withName("free").get() == null);
    Pod held =
        await(
            "the held pod marked deleted",
            () -> {
              Pod p = client.pods().inNamespace(ns).withName("held").get();
              return p != null && p.getMetadata().getDeletionTimestamp() != null ? p : null;
            });
    assertNotNull(held);
    ReplicationController waiting =
        client.replicationControllers().inNamespace(ns).withName("simpletest.rc").get();
    assertNotNull(waiting, "the rc waits for its blocking pod");
    assertEquals(List.of("foregroundDeletion"), waiting.getMetadata().getFinalizers());
    client
        .pods()
        .inNamespace(ns)
        .withName("held")
        .edit(p -> new PodBuilder(p).editMetadata().withFinalizers().endMetadata().build());
    awaitTrue(
        "the rc deleted once its pods are gone",
        () -> client.replicationControllers().inNamespace(ns).withName("simpletest.rc").get(),
        () ->
            client.replicationControllers().inNamespace(ns).withName("simpletest.rc").get()
                == null);
    assertTrue(podNames(ns).isEmpty());
  }

  @Test
  void doesNotDeleteDependentsThatHaveAValidOwnerAndAnOwnerWaitingForDependents() throws Exception {
    String ns = namespace("gc-two-owners");
    ReplicationController toBeDeleted = rc(ns, "simpletest-rc-to-be-deleted");
    ReplicationController stays = rc(ns, "simpletest-rc-to-stay");
    for (int i = 0; i < 4; i++) {
      List<OwnerReference> owners = new ArrayList<>();
      owners.add(refTo(toBeDeleted, true));
      if (i % 2 == 0) {
        OwnerReference valid = refTo(stays, null);
        valid.setController(null);
        owners.add(valid);
      }
      pod(ns, "pod-" + i, List.of(), owners.toArray(new OwnerReference[0]));
    }
    client
        .replicationControllers()
        .inNamespace(ns)
        .withName("simpletest-rc-to-be-deleted")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    awaitTrue(
        "the waiting rc deleted",
        () -> podNames(ns),
        () ->
            client
                    .replicationControllers()
                    .inNamespace(ns)
                    .withName("simpletest-rc-to-be-deleted")
                    .get()
                == null);
    awaitTrue(
        "only the pods with the staying owner left",
        () -> podNames(ns),
        () -> podNames(ns).equals(List.of("pod-0", "pod-2")));
    for (String name : List.of("pod-0", "pod-2")) {
      Pod pod = client.pods().inNamespace(ns).withName(name).get();
      assertEquals(
          List.of(stays.getMetadata().getUid()),
          pod.getMetadata().getOwnerReferences().stream()
              .map(OwnerReference::getUid)
              .collect(Collectors.toList()),
          "only the valid owner is left on " + name);
    }
  }

  @Test
  void isNotBlockedByADependencyCircle() throws Exception {
    String ns = namespace("gc-circle");
    Pod pod1 = pod(ns, "pod1", List.of());
    Pod pod2 =
        pod(ns, "pod2", List.of(), ref("v1", "Pod", "pod1", pod1.getMetadata().getUid(), true));
    Pod pod3 =
        pod(ns, "pod3", List.of(), ref("v1", "Pod", "pod2", pod2.getMetadata().getUid(), true));
    client
        .pods()
        .inNamespace(ns)
        .withName("pod1")
        .edit(
            p ->
                new PodBuilder(p)
                    .editMetadata()
                    .withOwnerReferences(
                        ref("v1", "Pod", "pod3", pod3.getMetadata().getUid(), true))
                    .endMetadata()
                    .build());
    client
        .pods()
        .inNamespace(ns)
        .withName("pod1")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    awaitTrue("every pod of the circle deleted", () -> podNames(ns), () -> podNames(ns).isEmpty());
  }

  @Test
  void deletesDependentsOfCustomResourceOwners() throws Exception {
    String ns = namespace("gc-custom");
    ResourceDefinitionContext owners =
        new ResourceDefinitionContext.Builder()
            .withGroup("gc.example.com")
            .withVersion("v1")
            .withPlural("owners")
            .withKind("Owner")
            .withNamespaced(true)
            .build();
    ResourceDefinitionContext dependents =
        new ResourceDefinitionContext.Builder()
            .withGroup("gc.example.com")
            .withVersion("v1")
            .withPlural("dependents")
            .withKind("Dependent")
            .withNamespaced(true)
            .build();
    GenericKubernetesResource owner = new GenericKubernetesResource();
    owner.setApiVersion("gc.example.com/v1");
    owner.setKind("Owner");
    owner.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("owner").build());
    owner = client.genericKubernetesResources(owners).inNamespace(ns).resource(owner).create();
    GenericKubernetesResource dependent = new GenericKubernetesResource();
    dependent.setApiVersion("gc.example.com/v1");
    dependent.setKind("Dependent");
    dependent.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("dependent")
            .withOwnerReferences(
                ref("gc.example.com/v1", "Owner", "owner", owner.getMetadata().getUid(), null))
            .build());
    client.genericKubernetesResources(dependents).inNamespace(ns).resource(dependent).create();
    ConfigMap map =
        client
            .configMaps()
            .inNamespace(ns)
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("owned-by-owner")
                    .withOwnerReferences(
                        ref(
                            "gc.example.com/v1",
                            "Owner",
                            "owner",
                            owner.getMetadata().getUid(),
                            null))
                    .endMetadata()
                    .build())
            .create();
    assertNotNull(map);
    client.genericKubernetesResources(owners).inNamespace(ns).withName("owner").delete();
    awaitTrue(
        "the custom resource's dependents deleted",
        () -> client.genericKubernetesResources(dependents).inNamespace(ns).list().getItems(),
        () ->
            client
                        .genericKubernetesResources(dependents)
                        .inNamespace(ns)
                        .withName("dependent")
                        .get()
                    == null
                && client.configMaps().inNamespace(ns).withName("owned-by-owner").get() == null);
  }

  @Test
  void deletesADependentWhoseOwnerNeverExisted() throws Exception {
    String ns = namespace("gc-dangling");
    pod(
        ns,
        "dangling",
        List.of(),
        ref("v1", "ReplicationController", "gone", "00000000-0000-0000-0000-00000000dead", null));
    pod(ns, "unowned", List.of());
    awaitTrue(
        "the dangling dependent deleted",
        () -> podNames(ns),
        () -> podNames(ns).equals(List.of("unowned")));
  }

  @Test
  void deletesNamespacedDependentsOfAClusterScopedOwner() throws Exception {
    String ns = namespace("gc-cluster-owner");
    ClusterRole role =
        client
            .rbac()
            .clusterRoles()
            .resource(
                new ClusterRoleBuilder()
                    .withNewMetadata()
                    .withName("gc-owner")
                    .endMetadata()
                    .build())
            .create();
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("owned")
                .withOwnerReferences(
                    ref(
                        "rbac.authorization.k8s.io/v1",
                        "ClusterRole",
                        "gc-owner",
                        role.getMetadata().getUid(),
                        null))
                .endMetadata()
                .build())
        .create();
    Thread.sleep(200);
    assertNotNull(
        client.configMaps().inNamespace(ns).withName("owned").get(),
        "a dependent of an existing owner stays");
    client.rbac().clusterRoles().withName("gc-owner").delete();
    awaitTrue(
        "the dependent of the cluster-scoped owner deleted",
        () -> client.configMaps().inNamespace(ns).withName("owned").get(),
        () -> client.configMaps().inNamespace(ns).withName("owned").get() == null);
  }

  @Test
  void reportsAndDeletesADependentNamingAnOwnerInAnotherNamespace() throws Exception {
    String ownerNs = namespace("gc-owner-ns");
    String dependentNs = namespace("gc-dependent-ns");
    ConfigMap owner =
        client
            .configMaps()
            .inNamespace(ownerNs)
            .resource(
                new ConfigMapBuilder().withNewMetadata().withName("owner").endMetadata().build())
            .create();
    awaitTrue("the owner in the graph", () -> "", () -> true);
    Thread.sleep(200);
    client
        .configMaps()
        .inNamespace(dependentNs)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("dependent")
                .withOwnerReferences(
                    ref("v1", "ConfigMap", "owner", owner.getMetadata().getUid(), null))
                .endMetadata()
                .build())
        .create();
    awaitTrue(
        "the dependent in another namespace deleted",
        () -> client.configMaps().inNamespace(dependentNs).withName("dependent").get(),
        () -> client.configMaps().inNamespace(dependentNs).withName("dependent").get() == null);
    assertNotNull(client.configMaps().inNamespace(ownerNs).withName("owner").get());
    String note =
        "ownerRef [v1/ConfigMap, namespace: gc-dependent-ns, name: owner, uid: "
            + owner.getMetadata().getUid()
            + "] does not exist in namespace \"gc-dependent-ns\"";
    awaitTrue(
        "an OwnerRefInvalidNamespace event",
        () -> client.v1().events().inNamespace(dependentNs).list().getItems(),
        () ->
            client.v1().events().inNamespace(dependentNs).list().getItems().stream()
                .anyMatch(
                    e ->
                        "OwnerRefInvalidNamespace".equals(e.getReason())
                            && "Warning".equals(e.getType())
                            && note.equals(e.getMessage())
                            && "garbage-collector-controller"
                                .equals(e.getSource().getComponent())));
  }

  @Test
  void collectsDependentsOfAKindDefinedAfterItStarted() throws Exception {
    String ns = namespace("gc-late-kind");
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("lates.gc.example.com")
                .endMetadata()
                .withNewSpec()
                .withGroup("gc.example.com")
                .withScope("Namespaced")
                .withNewNames()
                .withPlural("lates")
                .withSingular("late")
                .withKind("Late")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build())
        .create();
    ResourceDefinitionContext lates =
        new ResourceDefinitionContext.Builder()
            .withGroup("gc.example.com")
            .withVersion("v1")
            .withPlural("lates")
            .withKind("Late")
            .withNamespaced(true)
            .build();
    GenericKubernetesResource owner =
        await(
            "the new kind served",
            () -> {
              GenericKubernetesResource late = new GenericKubernetesResource();
              late.setApiVersion("gc.example.com/v1");
              late.setKind("Late");
              late.setMetadata(
                  new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                      .withName("owner")
                      .build());
              try {
                return client
                    .genericKubernetesResources(lates)
                    .inNamespace(ns)
                    .resource(late)
                    .create();
              } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                return null;
              }
            });
    GenericKubernetesResource dependent = new GenericKubernetesResource();
    dependent.setApiVersion("gc.example.com/v1");
    dependent.setKind("Late");
    dependent.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("dependent")
            .withOwnerReferences(
                ref("gc.example.com/v1", "Late", "owner", owner.getMetadata().getUid(), true))
            .build());
    client.genericKubernetesResources(lates).inNamespace(ns).resource(dependent).create();
    client
        .genericKubernetesResources(lates)
        .inNamespace(ns)
        .withName("owner")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    awaitTrue(
        "the new kind's owner and dependent deleted in the foreground",
        () -> client.genericKubernetesResources(lates).inNamespace(ns).list().getItems(),
        () -> client.genericKubernetesResources(lates).inNamespace(ns).list().getItems().isEmpty());
  }
}
