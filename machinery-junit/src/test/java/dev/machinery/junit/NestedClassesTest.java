package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code @Nested} classes share the server of their enclosing class: the same server and client in
 * their fields and parameters, the enclosing class's CustomResourceDefinitions served, and the
 * definitions a nested class names itself created on that same server.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@EnableApiServer(crds = "crds/foos.yaml")
class NestedClassesTest {
  static final ResourceDefinitionContext FOOS =
      new ResourceDefinitionContext.Builder()
          .withGroup("samplecontroller.k8s.io")
          .withVersion("v1alpha1")
          .withPlural("foos")
          .withKind("Foo")
          .withNamespaced(true)
          .build();
  static final ResourceDefinitionContext BARS =
      new ResourceDefinitionContext.Builder()
          .withGroup("test.machinery.dev")
          .withVersion("v1")
          .withPlural("bars")
          .withKind("Bar")
          .withNamespaced(true)
          .build();

  static KubernetesClient client;
  TestApiServer server;

  static GenericKubernetesResource foo(String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("samplecontroller.k8s.io/v1alpha1")
        .withKind("Foo")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("replicas", 1)))
        .build();
  }

  static GenericKubernetesResource bar(String name, int min, int max) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("test.machinery.dev/v1")
        .withKind("Bar")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("min", min, "max", max)))
        .build();
  }

  @Test
  void theEnclosingClassHasItsServer() {
    assertEquals(server.url().toString() + "/", client.getConfiguration().getMasterUrl());
    client.genericKubernetesResources(FOOS).inNamespace("default").resource(foo("outer")).create();
  }

  @Nested
  class Inner {
    TestApiServer innerServer;
    KubernetesClient innerClient;

    @Test
    void fieldsAndParametersReceiveTheEnclosingServerAndClient(
        TestApiServer given, KubernetesClient other) {
      assertSame(server, innerServer, "the enclosing instance's server");
      assertSame(server, given);
      assertSame(client, innerClient, "the enclosing class's client");
      assertSame(client, other);
    }

    @Test
    void theEnclosingClassesDefinitionsAreServed() {
      innerClient
          .genericKubernetesResources(FOOS)
          .inNamespace("default")
          .resource(foo("inner"))
          .create();
      assertEquals(
          "inner",
          client
              .genericKubernetesResources(FOOS)
              .inNamespace("default")
              .withName("inner")
              .get()
              .getMetadata()
              .getName());
    }

    @Nested
    class Deeper {
      TestApiServer deepest;

      @Test
      void twoLevelsDownTheServerIsStillTheSame() {
        assertSame(server, deepest);
        assertSame(server, innerServer);
      }
    }
  }

  @Nested
  @EnableApiServer(crds = "crds/bars.yaml")
  class WithDefinitionsOfItsOwn {
    TestApiServer nestedServer;

    @Test
    void itsDefinitionsAreCreatedOnTheSharedServer() {
      assertSame(server, nestedServer);
      client
          .genericKubernetesResources(BARS)
          .inNamespace("default")
          .resource(bar("ok", 1, 2))
          .create();
      KubernetesClientException refused =
          assertThrows(
              KubernetesClientException.class,
              () ->
                  client
                      .genericKubernetesResources(BARS)
                      .inNamespace("default")
                      .resource(bar("inverted", 3, 2))
                      .create());
      assertEquals(422, refused.getCode());
      assertTrue(refused.getMessage().contains("min must not exceed max"), refused.getMessage());
      client
          .genericKubernetesResources(FOOS)
          .inNamespace("default")
          .resource(foo("beside-bars"))
          .create();
      assertEquals(
          "beside-bars",
          client
              .genericKubernetesResources(FOOS)
              .inNamespace("default")
              .withName("beside-bars")
              .get()
              .getMetadata()
              .getName(),
          "the enclosing class's definition is still served");
    }
  }
}
