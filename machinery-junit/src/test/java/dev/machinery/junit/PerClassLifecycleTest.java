package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code @TestInstance(PER_CLASS)} class: its instance's fields are set before its {@code
 * BeforeAll} instance methods run, and stay set until its {@code AfterAll} ones.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnableApiServer(crds = "crds/foos.yaml")
class PerClassLifecycleTest {
  KubernetesClient client;
  TestApiServer server;
  String namespaceUid;

  @BeforeAll
  void createANamespace(TestApiServer given) {
    assertNotNull(client, "the client field is set before @BeforeAll");
    assertSame(server, given);
    namespaceUid =
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName("per-class")
                    .endMetadata()
                    .build())
            .create()
            .getMetadata()
            .getUid();
  }

  @Test
  void testsSeeWhatBeforeAllMade() {
    assertEquals(
        namespaceUid, client.namespaces().withName("per-class").get().getMetadata().getUid());
  }

  @Test
  void theClassesDefinitionIsServed() {
    assertEquals(
        0,
        client
            .genericKubernetesResources(NestedClassesTest.FOOS)
            .inNamespace("per-class")
            .list()
            .getItems()
            .size());
  }

  @AfterAll
  void deleteTheNamespace() {
    assertEquals(1, client.namespaces().withName("per-class").delete().size());
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class NestedPerClass {
    TestApiServer nestedServer;

    @BeforeAll
    void fieldsAreSetHereToo() {
      assertSame(server, nestedServer);
    }

    @Test
    void sharesTheServer() {
      assertSame(server, nestedServer);
      assertNotNull(client.namespaces().withName("per-class").get());
    }
  }
}
