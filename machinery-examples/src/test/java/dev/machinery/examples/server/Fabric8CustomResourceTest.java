package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * fabric8's client with a custom resource, as an operator's tests use one: the CRD (Gateway API's
 * HTTPRoute and sample-controller's Foo, copies under {@code src/test/resources/crds}) loaded and
 * created through its apiextensions API, waited on until {@code Established}, and objects of its
 * kind created, read, listed, updated, their status written and deleted through its generic
 * resource API.
 */
class Fabric8CustomResourceTest {
  private static final Path CRDS = Path.of("src/test/resources/crds");

  private ApiServer server;
  private JdkHttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.storage().close();
  }

  private CustomResourceDefinition install(String file) throws Exception {
    CustomResourceDefinition crd;
    try (InputStream in = Files.newInputStream(CRDS.resolve(file))) {
      crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
    }
    client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    return client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd.getMetadata().getName())
        .waitUntilCondition(
            c ->
                c != null
                    && c.getStatus() != null
                    && c.getStatus().getConditions().stream()
                        .anyMatch(
                            x -> x.getType().equals("Established") && x.getStatus().equals("True")),
            10,
            TimeUnit.SECONDS);
  }

  @Test
  void fooObjectsThroughTheGenericApi() throws Exception {
    CustomResourceDefinition crd = install("sample-controller/crd-status-subresource.yaml");
    assertEquals("FooList", crd.getStatus().getAcceptedNames().getListKind());
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        foos = client.genericKubernetesResources("samplecontroller.k8s.io/v1alpha1", "Foo");
    GenericKubernetesResource foo;
    try (InputStream in =
        Files.newInputStream(CRDS.resolve("sample-controller/example-foo.yaml"))) {
      foo = foos.load(in).item();
    }
    GenericKubernetesResource created = foos.inNamespace("default").resource(foo).create();
    assertEquals(1L, created.getMetadata().getGeneration());
    assertEquals(
        Map.of("deploymentName", "example-foo", "replicas", 1),
        created.getAdditionalProperties().get("spec"));

    GenericKubernetesResource edited =
        foos.inNamespace("default")
            .withName("example-foo")
            .edit(
                f -> {
                  f.setAdditionalProperty(
                      "spec", Map.of("deploymentName", "example-foo", "replicas", 3));
                  f.setAdditionalProperty("status", Map.of("availableReplicas", 9));
                  return f;
                });
    assertEquals(2L, edited.getMetadata().getGeneration());
    assertEquals(
        null, edited.getAdditionalProperties().get("status"), "status is its subresource's");

    edited.setAdditionalProperty("status", Map.of("availableReplicas", 3));
    GenericKubernetesResource status = foos.inNamespace("default").resource(edited).updateStatus();
    assertEquals(Map.of("availableReplicas", 3), status.getAdditionalProperties().get("status"));
    assertEquals(2L, status.getMetadata().getGeneration(), "a status write keeps the generation");

    assertEquals(1, foos.inNamespace("default").list().getItems().size());
    assertEquals(1, foos.inAnyNamespace().list().getItems().size());

    GenericKubernetesResource invalid =
        foos.load(
                new java.io.ByteArrayInputStream(
                    ("{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                            + "\"metadata\":{\"name\":\"zero\"},\"spec\":{\"replicas\":0}}")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
            .item();
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () -> foos.inNamespace("default").resource(invalid).create());
    assertEquals(422, refused.getCode());
    assertEquals(
        "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to"
            + " 1",
        refused.getStatus().getDetails().getCauses().get(0).getField()
            + ": "
            + refused.getStatus().getDetails().getCauses().get(0).getMessage());

    assertTrue(foos.inNamespace("default").withName("example-foo").delete().size() == 1, "deleted");
    assertEquals(0, foos.inNamespace("default").list().getItems().size());
  }

  @Test
  void anInformerOfACustomKindSeesEveryChange() throws Exception {
    install("sample-controller/crd-status-subresource.yaml");
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        foos = client.genericKubernetesResources("samplecontroller.k8s.io/v1alpha1", "Foo");
    List<String> seen = new CopyOnWriteArrayList<>();
    SharedIndexInformer<GenericKubernetesResource> informer =
        foos.inNamespace("default")
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource obj) {
                    seen.add("add " + obj.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
                    if (!oldObj
                        .getMetadata()
                        .getResourceVersion()
                        .equals(newObj.getMetadata().getResourceVersion())) {
                      seen.add("update " + newObj.getMetadata().getName());
                    }
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource obj, boolean unknown) {
                    seen.add("delete " + obj.getMetadata().getName());
                  }
                },
                0);
    try {
      informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
      GenericKubernetesResource foo;
      try (InputStream in =
          Files.newInputStream(CRDS.resolve("sample-controller/example-foo.yaml"))) {
        foo = foos.load(in).item();
      }
      foos.inNamespace("default").resource(foo).create();
      foos.inNamespace("default")
          .withName("example-foo")
          .edit(
              f -> {
                f.setAdditionalProperty(
                    "spec", Map.of("deploymentName", "example-foo", "replicas", 2));
                return f;
              });
      foos.inNamespace("default").withName("example-foo").delete();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!seen.contains("delete example-foo") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(List.of("add example-foo", "update example-foo", "delete example-foo"), seen);
    } finally {
      informer.close();
    }
  }

  @Test
  void deletingANamespaceDeletesTheCustomObjectsInIt() throws Exception {
    install("sample-controller/crd-status-subresource.yaml");
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("team")
                .endMetadata()
                .build())
        .create();
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        foos = client.genericKubernetesResources("samplecontroller.k8s.io/v1alpha1", "Foo");
    GenericKubernetesResource foo;
    try (InputStream in =
        Files.newInputStream(CRDS.resolve("sample-controller/example-foo.yaml"))) {
      foo = foos.load(in).item();
    }
    foos.inNamespace("team").resource(foo).create();
    assertEquals(1, foos.inNamespace("team").list().getItems().size());
    client.namespaces().withName("team").delete();
    assertEquals(0, foos.inNamespace("team").list().getItems().size());
  }

  @Test
  void httpRoutesWithTheirDefaults() throws Exception {
    install("gateway-api/config/crd/standard/gateway.networking.k8s.io_httproutes.yaml");
    MixedOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        routes = client.genericKubernetesResources("gateway.networking.k8s.io/v1", "HTTPRoute");
    GenericKubernetesResource route =
        routes
            .load(
                new java.io.ByteArrayInputStream(
                    ("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\n"
                            + "metadata: {name: r}\nspec:\n  parentRefs: [{name: gw}]\n"
                            + "  rules:\n  - backendRefs: [{name: svc, port: 80}]\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)))
            .item();
    GenericKubernetesResource created = routes.inNamespace("default").resource(route).create();
    Map<?, ?> spec = (Map<?, ?>) created.getAdditionalProperties().get("spec");
    assertEquals(
        List.of(Map.of("group", "gateway.networking.k8s.io", "kind", "Gateway", "name", "gw")),
        spec.get("parentRefs"),
        "the schema's defaults are applied");
    Map<?, ?> rule = (Map<?, ?>) ((List<?>) spec.get("rules")).get(0);
    assertEquals(
        List.of(Map.of("group", "", "kind", "Service", "name", "svc", "port", 80, "weight", 1)),
        rule.get("backendRefs"));
  }
}
