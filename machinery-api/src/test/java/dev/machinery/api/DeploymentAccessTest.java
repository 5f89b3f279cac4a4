package dev.machinery.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.api.apps.v1.Deployment;
import dev.machinery.api.apps.v1.DeploymentList;
import dev.machinery.api.apps.v1.DeploymentSpec;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.ContainerPort;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.api.core.v1.ResourceRequirements;
import dev.machinery.api.core.v1.Secret;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.patch.StrategicMergePatch;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.resource.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a controller does with the models: build, encode, decode, read. */
class DeploymentAccessTest {
  static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();
  static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  static final Codec JSON = CODECS.json();
  static final KubernetesProtobuf PROTOBUF = KubernetesProtobuf.create(CODECS);

  static Deployment deployment() {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("web");
    meta.setNamespace("shop");
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(Map.of("app", "web"));
    ContainerPort port = new ContainerPort();
    port.setContainerPort(8080);
    port.setName("http");
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(Map.of("cpu", Quantity.parse("500m")));
    Container container = new Container();
    container.setName("web");
    container.setImage("nginx:1.27");
    container.setPorts(List.of(port));
    container.setResources(resources);
    PodSpec pod = new PodSpec();
    pod.setContainers(List.of(container));
    PodTemplateSpec template = new PodTemplateSpec();
    ObjectMeta templateMeta = new ObjectMeta();
    templateMeta.setLabels(Map.of("app", "web"));
    template.setMetadata(templateMeta);
    template.setSpec(pod);
    DeploymentSpec spec = new DeploymentSpec();
    spec.setReplicas(3);
    spec.setSelector(selector);
    spec.setTemplate(template);
    Deployment deployment = new Deployment();
    deployment.setMetadata(meta);
    deployment.setSpec(spec);
    return deployment;
  }

  @Test
  void aDeploymentBuiltEncodedAndDecodedReadsItsReplicas() {
    Deployment built = deployment();
    String json = JSON.encodeToString(built);
    assertTrue(json.startsWith("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\""), json);
    // Fields not set are left out; ObjectMeta writes a zero creationTimestamp as null, as Go does.
    assertFalse(
        json.replace("\"creationTimestamp\":null", "").contains("null"),
        "fields not set are left out: " + json);
    // Properties in Go's order (by the field numbers of Kubernetes' generated.proto).
    assertTrue(
        json.contains(
            "\"containers\":[{\"name\":\"web\",\"image\":\"nginx:1.27\",\"ports\":[{\"name\":\"http\","
                + "\"containerPort\":8080}],\"resources\":{\"requests\":{\"cpu\":\"500m\"}}}]"),
        json);
    assertTrue(json.contains("\"spec\":{\"replicas\":3,\"selector\":"), json);

    Deployment decoded = JSON.decode(json, Deployment.class).object();
    assertEquals(3, decoded.getSpec().getReplicas());
    assertEquals("web", decoded.getMetadata().getName());
    assertEquals(
        8080,
        decoded
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0)
            .getPorts()
            .get(0)
            .getContainerPort());
    assertNull(decoded.getStatus());
    assertEquals(GroupVersionKind.of("apps", "v1", "Deployment"), decoded.groupVersionKind());
    built.setApiVersion("apps/v1");
    built.setKind("Deployment");
    assertEquals(built, decoded);
    assertEquals(built.hashCode(), decoded.hashCode());

    Deployment fromProtobuf = PROTOBUF.decode(PROTOBUF.encode(built), Deployment.class).object();
    assertEquals(3, fromProtobuf.getSpec().getReplicas());
    assertEquals(decoded, fromProtobuf);
  }

  @Test
  void aListEncodesAsKubernetesListsInBothEncodings() {
    DeploymentList list = new DeploymentList();
    list.setMetadata(new ListMeta());
    list.getMetadata().setResourceVersion("42");
    list.setItems(List.of(deployment(), deployment()));
    byte[] bytes = PROTOBUF.encode(list);
    DeploymentList back = PROTOBUF.decode(bytes, DeploymentList.class).object();
    assertEquals(2, back.getItems().size());
    assertEquals(3, back.getItems().get(1).getSpec().getReplicas());
    assertEquals("42", back.getMetadata().getResourceVersion());
    DeploymentList fromJson = JSON.decode(JSON.encode(list), DeploymentList.class).object();
    assertEquals(back.getItems().get(0).getSpec(), fromJson.getItems().get(0).getSpec());
  }

  @Test
  void valueTypesAndBytesAreTheLibrarysOwn() {
    String json =
        "{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
            + "\"metadata\":{\"name\":\"s\",\"creationTimestamp\":null},"
            + "\"data\":{\"password\":\"aHVudGVyMg==\"},\"type\":\"Opaque\"}";
    Secret secret = JSON.decode(json, Secret.class).object();
    assertArrayEquals("hunter2".getBytes(StandardCharsets.UTF_8), secret.getData().get("password"));
    assertEquals(json, JSON.encodeToString(secret));
    Secret again = JSON.decode(json, Secret.class).object();
    assertEquals(secret, again, "byte values compare by content");

    String service =
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"spec\":{\"ports\":[{\"port\":80,"
            + "\"targetPort\":\"http\"}]}}";
    dev.machinery.api.core.v1.Service s =
        JSON.decode(service, dev.machinery.api.core.v1.Service.class).object();
    assertEquals(IntOrString.ofString("http"), s.getSpec().getPorts().get(0).getTargetPort());
  }

  @Test
  void unknownFieldsAndWrongTypesAreTypedErrorsNamingTheField() {
    StrictDecodingException unknown =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                        + "\"spec\":{\"replica\":3}}"));
    assertTrue(unknown.getMessage().contains("spec.replica"), unknown.getMessage());
    Exception wrongType =
        assertThrows(
            dev.machinery.core.codec.DecodeException.class,
            () ->
                JSON.decode(
                    "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                        + "\"spec\":{\"replicas\":\"three\"}}"));
    assertTrue(wrongType.getMessage().contains("spec.replicas"), wrongType.getMessage());
  }

  /** The models carry Kubernetes' merge keys: a strategic merge patch merges containers by name. */
  @Test
  void strategicMergePatchesMergeListsByTheModelsMergeKeys() throws Exception {
    Deployment d = deployment();
    Container sidecar = new Container();
    sidecar.setName("log");
    sidecar.setImage("busybox:1");
    d.getSpec()
        .getTemplate()
        .getSpec()
        .setContainers(
            List.of(d.getSpec().getTemplate().getSpec().getContainers().get(0), sidecar));
    ObjectMapper mapper = new ObjectMapper();
    JsonNode original = mapper.readTree(JSON.encode(d));
    JsonNode patch =
        mapper.readTree(
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"log\",\"image\":\"busybox:2\"}]}}}}");
    JsonNode patched = StrategicMergePatch.apply(original, patch, Deployment.class);
    Deployment result = JSON.decode(mapper.writeValueAsBytes(patched), Deployment.class).object();
    List<Container> containers = result.getSpec().getTemplate().getSpec().getContainers();
    assertEquals(List.of("web", "log"), containers.stream().map(Container::getName).toList());
    assertEquals("nginx:1.27", containers.get(0).getImage());
    assertEquals("busybox:2", containers.get(1).getImage());
    // And metadata through the library's accessor, as generic code reaches it.
    assertEquals("web", Accessor.of(result).getName());
  }

  /** A manifest as people write it, in YAML: quantities, int-or-strings, probes, a strategy. */
  @Test
  void aYamlManifestDecodesIntoTheModels() {
    String yaml =
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          labels: {app: web}
        spec:
          replicas: 2
          strategy:
            type: RollingUpdate
            rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}
          selector:
            matchLabels: {app: web}
          template:
            metadata:
              labels: {app: web}
            spec:
              containers:
              - name: web
                image: nginx:1.27
                ports:
                - {name: http, containerPort: 80}
                readinessProbe:
                  httpGet: {path: /healthz, port: http}
                resources:
                  limits: {cpu: "1", memory: 256Mi}
        """;
    Deployment d = CODECS.yaml().decode(yaml, Deployment.class).object();
    assertEquals(2, d.getSpec().getReplicas());
    assertEquals(
        IntOrString.ofString("25%"), d.getSpec().getStrategy().getRollingUpdate().getMaxSurge());
    assertEquals(
        IntOrString.ofInt(1), d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(IntOrString.ofString("http"), c.getReadinessProbe().getHttpGet().getPort());
    assertEquals(Quantity.parse("256Mi"), c.getResources().getLimits().get("memory"));
    assertEquals(d, CODECS.yaml().decode(CODECS.yaml().encode(d), Deployment.class).object());
  }
}
