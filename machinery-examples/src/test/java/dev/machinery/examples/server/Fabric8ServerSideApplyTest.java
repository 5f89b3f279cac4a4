package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * fabric8's {@code serverSideApply()} against the sample server: applies that create and update a
 * ConfigMap and a Deployment, a second field manager's conflict as the {@code 409} a real server
 * sends (its {@code Status} with one {@code FieldManagerConflict} cause a field), {@code
 * forceConflicts()} taking the field, and the {@code managedFields} the client reads back. Every
 * call goes through the client.
 */
class Fabric8ServerSideApplyTest {
  private ApiServer server;
  private JdkHttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    server = SampleServer.build(Enablement.all(), Duration.ofMillis(500));
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

  private static ConfigMap configMap(Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("applied")
        .endMetadata()
        .withData(data)
        .build();
  }

  private static Deployment deployment(String image) {
    Map<String, String> labels = Map.of("app", "web");
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .endMetadata()
        .withNewSpec()
        .withReplicas(2)
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage(image)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Each manager's entry as "operation apiVersion fieldsV1", by manager, in the object's order. */
  private static Map<String, String> managers(HasMetadata object) {
    Map<String, String> managers = new LinkedHashMap<>();
    for (ManagedFieldsEntry e : object.getMetadata().getManagedFields()) {
      managers.put(
          e.getManager(),
          e.getOperation()
              + " "
              + e.getApiVersion()
              + " "
              + e.getFieldsType()
              + " "
              + e.getFieldsV1().getAdditionalProperties());
      assertNotNull(e.getTime(), e.toString());
    }
    return managers;
  }

  private static List<String> causes(Status status) {
    return status.getDetails().getCauses().stream()
        .map(StatusCause::getReason)
        .collect(Collectors.toList());
  }

  @Test
  void configMapAppliesConflictsForceAndManagedFields() {
    ConfigMap created =
        client
            .configMaps()
            .resource(configMap(Map.of("a", "1", "b", "2")))
            .fieldManager("alice")
            .serverSideApply();
    assertNotNull(created.getMetadata().getUid());
    assertEquals(Map.of("a", "1", "b", "2"), created.getData());
    assertEquals(Map.of("alice", "Apply v1 FieldsV1 {f:data={f:a={}, f:b={}}}"), managers(created));

    ConfigMap updated =
        client
            .configMaps()
            .resource(configMap(Map.of("a", "1", "b", "3")))
            .fieldManager("alice")
            .serverSideApply();
    assertEquals(Map.of("a", "1", "b", "3"), updated.getData());
    assertEquals(created.getMetadata().getUid(), updated.getMetadata().getUid());
    assertNotEquals(
        created.getMetadata().getResourceVersion(), updated.getMetadata().getResourceVersion());
    ConfigMap unchanged =
        client
            .configMaps()
            .resource(configMap(Map.of("a", "1", "b", "3")))
            .fieldManager("alice")
            .serverSideApply();
    assertEquals(
        updated.getMetadata().getResourceVersion(), unchanged.getMetadata().getResourceVersion());
    assertEquals(
        updated.getMetadata().getManagedFields(), unchanged.getMetadata().getManagedFields());

    KubernetesClientException conflict =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .configMaps()
                    .resource(configMap(Map.of("b", "4")))
                    .fieldManager("bob")
                    .serverSideApply());
    assertEquals(409, conflict.getCode());
    Status status = conflict.getStatus();
    assertEquals("Conflict", status.getReason());
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"alice\": .data.b", status.getMessage());
    assertEquals(List.of("FieldManagerConflict"), causes(status));
    StatusCause cause = status.getDetails().getCauses().get(0);
    assertEquals(".data.b", cause.getField());
    assertEquals("conflict with \"alice\"", cause.getMessage());
    assertEquals("3", client.configMaps().withName("applied").get().getData().get("b"));

    ConfigMap forced =
        client
            .configMaps()
            .resource(configMap(Map.of("b", "4")))
            .fieldManager("bob")
            .forceConflicts()
            .serverSideApply();
    assertEquals(Map.of("a", "1", "b", "4"), forced.getData());
    assertEquals(
        Map.of(
            "alice", "Apply v1 FieldsV1 {f:data={f:a={}}}",
            "bob", "Apply v1 FieldsV1 {f:data={f:b={}}}"),
        managers(forced));

    client
        .configMaps()
        .withName("applied")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("carol")
                .build(),
            "{\"data\":{\"c\":\"5\"}}");
    ConfigMap bobLetGo =
        client.configMaps().resource(configMap(Map.of())).fieldManager("bob").serverSideApply();
    assertEquals(Map.of("a", "1", "c", "5"), bobLetGo.getData());
    assertEquals(
        Map.of(
            "alice", "Apply v1 FieldsV1 {f:data={f:a={}}}",
            "carol", "Update v1 FieldsV1 {f:data={f:c={}}}"),
        managers(bobLetGo));
  }

  @Test
  void withoutAFieldManagerTheClientsOwnIsUsed() {
    ConfigMap applied =
        client
            .configMaps()
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("defaulted")
                    .endMetadata()
                    .withData(Map.of("k", "v"))
                    .build())
            .serverSideApply();
    assertEquals(Map.of("fabric8", "Apply v1 FieldsV1 {f:data={f:k={}}}"), managers(applied));
  }

  @Test
  void anObjectReadBackIsNotAnApplyConfiguration() {
    client
        .configMaps()
        .resource(configMap(Map.of("a", "1")))
        .fieldManager("alice")
        .serverSideApply();
    ConfigMap readBack = client.configMaps().withName("applied").get();
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () -> client.configMaps().resource(readBack).fieldManager("alice").serverSideApply());
    assertEquals(400, refused.getCode());
    assertEquals("metadata.managedFields must be nil", refused.getStatus().getMessage());
  }

  @Test
  void deploymentAppliesConflictsAndForce() {
    Deployment created =
        client
            .apps()
            .deployments()
            .resource(deployment("nginx:1.27"))
            .fieldManager("alice")
            .serverSideApply();
    assertEquals(1L, created.getMetadata().getGeneration());
    assertEquals(List.of("alice"), List.copyOf(managers(created).keySet()));
    String aliceFields = managers(created).get("alice");
    assertEquals(true, aliceFields.contains("f:replicas={}"), aliceFields);

    Deployment updated =
        client
            .apps()
            .deployments()
            .resource(deployment("nginx:1.28"))
            .fieldManager("alice")
            .serverSideApply();
    assertEquals(2L, updated.getMetadata().getGeneration());
    assertEquals(
        "nginx:1.28", updated.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());

    Deployment scale =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .endMetadata()
            .withNewSpec()
            .withReplicas(3)
            .endSpec()
            .build();
    KubernetesClientException conflict =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client.apps().deployments().resource(scale).fieldManager("bob").serverSideApply());
    assertEquals(409, conflict.getCode());
    assertEquals(
        "Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas",
        conflict.getStatus().getMessage());
    assertEquals(List.of("FieldManagerConflict"), causes(conflict.getStatus()));
    assertEquals(".spec.replicas", conflict.getStatus().getDetails().getCauses().get(0).getField());
    assertEquals(2, client.apps().deployments().withName("web").get().getSpec().getReplicas());

    Deployment forced =
        client
            .apps()
            .deployments()
            .resource(scale)
            .fieldManager("bob")
            .forceConflicts()
            .serverSideApply();
    assertEquals(3, forced.getSpec().getReplicas());
    assertEquals(
        "nginx:1.28", forced.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    Map<String, String> managers = managers(forced);
    assertEquals(List.of("alice", "bob"), List.copyOf(managers.keySet()));
    assertEquals(false, managers.get("alice").contains("f:replicas"), managers.get("alice"));
    assertEquals("Apply apps/v1 FieldsV1 {f:spec={f:replicas={}}}", managers.get("bob"));
  }
}
