package com.example.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The test server as a user's project uses it: machinery-junit and fabric8's client from the
 * published artifacts, a CustomResourceDefinition with a CEL rule, a per-class instance and a
 * nested class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnableApiServer(crds = "crds/gadgets.yaml", requestLog = true)
class TestServerTest {
  static final ResourceDefinitionContext GADGETS =
      new ResourceDefinitionContext.Builder()
          .withGroup("widgets.example.com")
          .withVersion("v1")
          .withPlural("gadgets")
          .withKind("Gadget")
          .withNamespaced(true)
          .build();

  KubernetesClient client;
  TestApiServer server;

  @BeforeAll
  void createANamespace() {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
  }

  static GenericKubernetesResource gadget(String name, int replicas, int maxReplicas) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("widgets.example.com/v1")
        .withKind("Gadget")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(
            Map.of("spec", Map.of("replicas", replicas, "maxReplicas", maxReplicas)))
        .build();
  }

  @Test
  void storesAConfigMapInTheNamespaceBeforeAllMade() {
    client
        .configMaps()
        .inNamespace("team")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("colour", "blue")
                .build())
        .create();
    assertEquals(
        "blue",
        client.configMaps().inNamespace("team").withName("settings").get().getData().get("colour"));
  }

  @Test
  void theDefinitionsCelRuleIsEnforced() {
    client.genericKubernetesResources(GADGETS).inNamespace("team").resource(gadget("ok", 1, 2))
        .create();
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .genericKubernetesResources(GADGETS)
                    .inNamespace("team")
                    .resource(gadget("too-many", 3, 2))
                    .create());
    assertEquals(422, refused.getCode());
    assertTrue(
        refused.getMessage().contains("replicas must not exceed maxReplicas"),
        refused.getMessage());
  }

  @Nested
  class InANestedClass {
    KubernetesClient nestedClient;

    @Test
    void sharesTheServerAndItsDefinitions() {
      assertSame(client, nestedClient);
      assertEquals(
          "team", nestedClient.namespaces().withName("team").get().getMetadata().getName());
      nestedClient.genericKubernetesResources(GADGETS).inNamespace("team").list();
    }
  }
}
