package dev.machinery.cluster.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.cluster.ClientFactory;
import dev.machinery.cluster.ControllerDescriptor;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controller manager against a real server: each controller's client is its own service
 * account, its events are core v1 Events that fabric8 (and kubectl) list, and of two replicas with
 * leader election exactly one runs the controllers, the other taking over when the first stops.
 */
class ControllerManagerServerTest {
  private static TestApiServer server;
  private static KubernetesClient fabric8;
  private static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();

  @BeforeAll
  static void start() {
    server = TestApiServer.builder().controllers(List.of()).nodes(0).start();
    fabric8 =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(server.kubeconfigYaml()))
            .build();
  }

  @AfterAll
  static void stop() {
    fabric8.close();
    server.close();
  }

  private static ClientFactory clients(List<String> users) {
    return (user, groups) -> {
      users.add(user + " " + groups);
      List<String> all = new ArrayList<>(groups);
      all.add("system:authenticated");
      return Client.builder(
              InProcessTransport.as(server.apiServer()::handleAs, UserInfo.of(user, all)))
          .scheme(SCHEME)
          .build();
    };
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  /**
   * A controller that copies each ConfigMap labelled {@code copy=yes} to {@code <name>-copy}, and
   * records an event about it.
   */
  private static ControllerDescriptor copier(List<String> seen) {
    return new ControllerDescriptor(
        "copy-controller",
        List.of("copy"),
        false,
        context -> {
          SharedIndexInformer<ConfigMap> configMaps = context.informer(ConfigMap.class);
          Client client = context.client("copy-controller");
          EventRecorder events = context.eventRecorder("copy-controller");
          context.add(
              Controller.builder(
                      "copy",
                      request -> {
                        ConfigMap source =
                            configMaps
                                .lister()
                                .namespace(request.namespace())
                                .get(request.name())
                                .orElse(null);
                        if (source == null
                            || configMaps
                                .lister()
                                .namespace(request.namespace())
                                .get(request.name() + "-copy")
                                .isPresent()
                            || source.getMetadata().getLabels() == null
                            || !"yes".equals(source.getMetadata().getLabels().get("copy"))) {
                          return Result.done();
                        }
                        ConfigMap copy = new ConfigMap();
                        ObjectMeta meta = new ObjectMeta();
                        meta.setName(request.name() + "-copy");
                        copy.setMetadata(meta);
                        copy.setData(source.getData());
                        client
                            .resources(ConfigMap.class)
                            .inNamespace(request.namespace())
                            .create(copy);
                        seen.add(context.instance() + " copied " + request.name());
                        events.eventf(
                            source,
                            null,
                            Event.TYPE_NORMAL,
                            "Copied",
                            "Copy",
                            "copied to %s",
                            meta.getName());
                        return Result.done();
                      })
                  .watches(configMaps, EventHandlers.enqueueRequestForObject())
                  .build());
        });
  }

  @Test
  void controllerActsAsItsServiceAccountAndItsEventsAreCoreEvents() throws Exception {
    List<String> users = new CopyOnWriteArrayList<>();
    List<String> seen = new CopyOnWriteArrayList<>();
    try (ControllerManager manager =
        ControllerManager.builder(clients(users))
            .add(copier(seen))
            .controllers(List.of("copy"))
            .build()) {
      assertEquals(List.of("copy-controller"), manager.enabledControllers());
      manager.start();
      assertTrue(manager.isLeading());
      fabric8
          .configMaps()
          .inNamespace("default")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("settings")
                  .withLabels(Map.of("copy", "yes"))
                  .endMetadata()
                  .withData(Map.of("colour", "blue"))
                  .build())
          .create();
      await(
          "the copy",
          () ->
              fabric8.configMaps().inNamespace("default").withName("settings-copy").get() != null);
      assertEquals(
          "blue",
          fabric8
              .configMaps()
              .inNamespace("default")
              .withName("settings-copy")
              .get()
              .getData()
              .get("colour"));
      await(
          "the event",
          () ->
              fabric8.v1().events().inNamespace("default").list().getItems().stream()
                  .anyMatch(e -> "Copied".equals(e.getReason())));
      io.fabric8.kubernetes.api.model.Event event =
          fabric8.v1().events().inNamespace("default").list().getItems().stream()
              .filter(e -> "Copied".equals(e.getReason()))
              .findFirst()
              .orElseThrow();
      assertEquals("copied to settings-copy", event.getMessage());
      assertEquals("settings", event.getInvolvedObject().getName());
      assertEquals("ConfigMap", event.getInvolvedObject().getKind());
      assertEquals("copy-controller", event.getSource().getComponent());
      assertEquals(1, event.getCount());
    }
    assertTrue(
        users.contains(
            "system:serviceaccount:kube-system:copy-controller [system:serviceaccounts,"
                + " system:serviceaccounts:kube-system]"),
        users.toString());
    assertTrue(users.contains("system:kube-controller-manager []"), users.toString());
  }

  @Test
  void ofTwoReplicasOneLeadsAndTheOtherTakesOver() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    Duration lease = Duration.ofSeconds(2);
    Duration renew = Duration.ofMillis(1500);
    Duration retry = Duration.ofMillis(200);
    ControllerManager first =
        ControllerManager.builder(clients(new CopyOnWriteArrayList<>()))
            .add(copier(seen))
            .controllers(List.of("copy"))
            .leaderElection("replica-a", lease, renew, retry)
            .build();
    ControllerManager second =
        ControllerManager.builder(clients(new CopyOnWriteArrayList<>()))
            .add(copier(seen))
            .controllers(List.of("copy"))
            .leaderElection("replica-b", lease, renew, retry)
            .build();
    try (first;
        second) {
      first.start();
      await("replica-a leading", first::isLeading);
      second.start();
      fabric8
          .configMaps()
          .inNamespace("default")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("one")
                  .withLabels(Map.of("copy", "yes"))
                  .endMetadata()
                  .build())
          .create();
      await("the first copy", () -> seen.contains("replica-a copied one"));
      assertFalse(second.isLeading());
      assertEquals(
          "replica-a",
          fabric8
              .leases()
              .inNamespace("kube-system")
              .withName(ControllerManager.LEASE_NAME)
              .get()
              .getSpec()
              .getHolderIdentity());
      first.close();
      await("replica-b leading", second::isLeading);
      fabric8
          .configMaps()
          .inNamespace("default")
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("two")
                  .withLabels(Map.of("copy", "yes"))
                  .endMetadata()
                  .build())
          .create();
      await("the second copy", () -> seen.contains("replica-b copied two"));
      // Each object was copied once, by one replica.
      assertEquals(2, seen.size(), seen.toString());
    }
  }
}
