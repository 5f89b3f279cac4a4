package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.ResourceClient;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.NoKindMatchException;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A kind a CustomResourceDefinition defines after the client read discovery: the client's mapper
 * misses it, reads discovery again and finds it, as client-go's deferred discovery mapper does; its
 * objects are validated by the definition's schema, and a refusal is Invalid with causes.
 */
class CustomResourceClientTest {
  private static final Scheme SCHEME =
      ApiextensionsV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  private static final GroupVersionKind CRONTAB =
      GroupVersionKind.of("stable.example.com", "v1", "CronTab");

  private static Unstructured crd() {
    Unstructured crd = new Unstructured();
    crd.setApiVersion("apiextensions.k8s.io/v1");
    crd.setKind("CustomResourceDefinition");
    crd.setName("crontabs.stable.example.com");
    crd.setNested("stable.example.com", "spec", "group");
    crd.setNested("Namespaced", "spec", "scope");
    crd.setNested(
        Map.of("plural", "crontabs", "singular", "crontab", "kind", "CronTab"), "spec", "names");
    crd.setNested(
        List.of(
            Map.of(
                "name",
                "v1",
                "served",
                true,
                "storage",
                true,
                "schema",
                Map.of(
                    "openAPIV3Schema",
                    Map.of(
                        "type",
                        "object",
                        "properties",
                        Map.of(
                            "spec",
                            Map.of(
                                "type",
                                "object",
                                "properties",
                                Map.of(
                                    "replicas",
                                    Map.of("type", "integer", "minimum", 1, "maximum", 10)))))))),
        "spec",
        "versions");
    return crd;
  }

  @Test
  void aKindDefinedAfterDiscoveryIsFoundByReadingItAgain() throws Exception {
    ApiServer server = ApiServer.builder(SCHEME).customResourceDefinitions().build();
    try (Client client =
        Client.builder(InProcessTransport.of(server::handleAs))
            .scheme(SCHEME)
            .rateLimiter(RateLimiter.unlimited())
            .discoveryRefreshInterval(Duration.ZERO)
            .build()) {
      ResourceClient<Unstructured> crontabs = client.resources(CRONTAB).inNamespace("default");
      assertThrows(NoKindMatchException.class, () -> crontabs.list(new ListOptions()));

      ResourceClient<Unstructured> crds =
          client.resources(
              GroupVersionResource.of("apiextensions.k8s.io", "v1", "customresourcedefinitions"));
      crds.create(crd());
      awaitEstablished(crds);

      Unstructured tab = new Unstructured();
      tab.setApiVersion("stable.example.com/v1");
      tab.setKind("CronTab");
      tab.setName("every-minute");
      tab.setNested(3L, "spec", "replicas");
      Unstructured created = crontabs.create(tab);
      assertEquals(Optional.of(3L), created.nestedLong("spec", "replicas"));

      tab.setName("too-many");
      tab.setNested(11L, "spec", "replicas");
      StatusException invalid = assertThrows(StatusException.class, () -> crontabs.create(tab));
      assertTrue(ApiErrors.isInvalid(invalid), invalid.getMessage());
      assertEquals("spec.replicas", invalid.status().getDetails().getCauses().get(0).getField());
    } finally {
      server.close();
    }
  }

  private static void awaitEstablished(ResourceClient<Unstructured> crds)
      throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      Optional<List<Object>> conditions =
          crds.get("crontabs.stable.example.com").nestedList("status", "conditions");
      if (conditions.isPresent()
          && conditions.get().stream()
              .anyMatch(
                  c ->
                      c instanceof Map<?, ?> m
                          && "Established".equals(m.get("type"))
                          && "True".equals(m.get("status")))) {
        return;
      }
      Thread.sleep(25);
    }
    throw new AssertionError("the definition was not established");
  }
}
