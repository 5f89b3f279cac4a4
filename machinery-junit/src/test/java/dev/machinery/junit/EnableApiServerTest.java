package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A test class with {@code @EnableApiServer}: its fields and parameters receive the server and a
 * fabric8 client, the class's CustomResourceDefinition is Established before the first test, and
 * built-in kinds are validated and defaulted as Kubernetes does. Every call goes through fabric8.
 */
@EnableApiServer(crds = "crds/foos.yaml")
class EnableApiServerTest {
  static KubernetesClient client;
  TestApiServer server;

  @Test
  void fieldsAndParametersReceiveTheServerAndTheClient(TestApiServer given, KubernetesClient other)
      throws Exception {
    assertNotNull(client);
    assertEquals(given, server);
    assertEquals(client, other, "one client per class");
    assertTrue(server.url().toString().startsWith("http://127.0.0.1:"));
    assertTrue(Files.readString(server.kubeconfig()).contains(server.url().toString()));
    assertEquals(
        server.url().toString() + "/", client.getConfiguration().getMasterUrl(), "the kubeconfig");
    assertNotNull(client.namespaces().withName("kube-system").get());
  }

  @Test
  void configMapsAreCreatedReadListedAndDeleted() {
    client
        .configMaps()
        .inNamespace("default")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .withData(Map.of("colour", "blue"))
                .build())
        .create();
    ConfigMap read = client.configMaps().inNamespace("default").withName("settings").get();
    assertEquals("blue", read.getData().get("colour"));
    assertTrue(
        client.configMaps().inNamespace("default").list().getItems().stream()
            .anyMatch(c -> c.getMetadata().getName().equals("settings")));
    assertEquals(
        1, client.configMaps().inNamespace("default").withName("settings").delete().size());
    assertEquals(null, client.configMaps().inNamespace("default").withName("settings").get());
  }

  @Test
  void aDeploymentReadsBackWithKubernetesDefaults() {
    Deployment created =
        client
            .apps()
            .deployments()
            .inNamespace("default")
            .resource(
                new DeploymentBuilder()
                    .withNewMetadata()
                    .withName("web")
                    .endMetadata()
                    .withNewSpec()
                    .withNewSelector()
                    .addToMatchLabels("app", "web")
                    .endSelector()
                    .withNewTemplate()
                    .withNewMetadata()
                    .addToLabels("app", "web")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("nginx")
                    .withImage("nginx:1.27")
                    .endContainer()
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    assertEquals(1, created.getSpec().getReplicas());
    assertEquals("RollingUpdate", created.getSpec().getStrategy().getType());
    assertEquals(
        "IfNotPresent",
        created.getSpec().getTemplate().getSpec().getContainers().get(0).getImagePullPolicy());
    client.apps().deployments().inNamespace("default").withName("web").scale(3);
    assertEquals(
        3,
        client
            .apps()
            .deployments()
            .inNamespace("default")
            .withName("web")
            .get()
            .getSpec()
            .getReplicas());
  }

  @Test
  void anInvalidDeploymentIsRefusedWithKubernetesMessage() {
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .apps()
                    .deployments()
                    .inNamespace("default")
                    .resource(
                        new DeploymentBuilder()
                            .withNewMetadata()
                            .withName("no-containers")
                            .endMetadata()
                            .withNewSpec()
                            .withNewSelector()
                            .addToMatchLabels("app", "x")
                            .endSelector()
                            .withNewTemplate()
                            .withNewMetadata()
                            .addToLabels("app", "x")
                            .endMetadata()
                            .withNewSpec()
                            .endSpec()
                            .endTemplate()
                            .endSpec()
                            .build())
                    .create());
    assertEquals(422, refused.getCode());
    assertTrue(
        refused.getMessage().contains("spec.template.spec.containers: Required value"),
        refused.getMessage());
  }

  @Test
  void theClassesCustomResourceDefinitionIsServed() {
    ResourceDefinitionContext foos =
        new ResourceDefinitionContext.Builder()
            .withGroup("samplecontroller.k8s.io")
            .withVersion("v1alpha1")
            .withPlural("foos")
            .withKind("Foo")
            .withNamespaced(true)
            .build();
    GenericKubernetesResource foo =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("samplecontroller.k8s.io/v1alpha1")
            .withKind("Foo")
            .withNewMetadata()
            .withName("example-foo")
            .endMetadata()
            .withAdditionalProperties(
                Map.of("spec", Map.of("deploymentName", "example-foo", "replicas", 1)))
            .build();
    client.genericKubernetesResources(foos).inNamespace("default").resource(foo).create();
    assertEquals(
        1, client.genericKubernetesResources(foos).inNamespace("default").list().getItems().size());
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .genericKubernetesResources(foos)
                    .inNamespace("default")
                    .resource(
                        new GenericKubernetesResourceBuilder()
                            .withApiVersion("samplecontroller.k8s.io/v1alpha1")
                            .withKind("Foo")
                            .withNewMetadata()
                            .withName("too-many")
                            .endMetadata()
                            .withAdditionalProperties(Map.of("spec", Map.of("replicas", 11)))
                            .build())
                    .create());
    assertEquals(422, refused.getCode());
    assertTrue(refused.getMessage().contains("spec.replicas"), refused.getMessage());
  }
}
