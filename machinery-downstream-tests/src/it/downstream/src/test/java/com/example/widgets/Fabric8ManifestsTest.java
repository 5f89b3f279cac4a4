package com.example.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** fabric8's classes, registered as they are, decode real manifests in JSON and YAML. */
class Fabric8ManifestsTest {
  private static final Scheme SCHEME =
      Scheme.builder()
          .addKnownTypes(GroupVersion.of("", "v1"), ConfigMap.class)
          .addKnownTypes(GroupVersion.of("apps", "v1"), Deployment.class)
          .addKnownTypes(
              GroupVersion.of("extensions", "v1beta1"),
              io.fabric8.kubernetes.api.model.extensions.Deployment.class)
          .build();
  private static final CodecFactory CODECS = CodecFactory.create(SCHEME);

  private static String deployment(String apiVersion) {
    return "apiVersion: " + apiVersion + "\n"
        + "kind: Deployment\n"
        + "metadata: {name: web, labels: {app: web}}\n"
        + "spec:\n"
        + "  replicas: 3\n"
        + "  selector: {matchLabels: {app: web}}\n"
        + "  strategy:\n"
        + "    type: RollingUpdate\n"
        + "    rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}\n"
        + "  template:\n"
        + "    metadata: {labels: {app: web}}\n"
        + "    spec:\n"
        + "      containers:\n"
        + "      - name: web\n"
        + "        image: nginx:1.27\n"
        + "        ports: [{containerPort: 8080, name: http}]\n"
        + "        resources:\n"
        + "          requests: {cpu: 500m, memory: 1Gi}\n"
        + "        livenessProbe: {httpGet: {path: /healthz, port: 8080}}\n"
        + "        readinessProbe: {httpGet: {path: /ready, port: http}}\n";
  }

  @Test
  void decodesAnAppsV1DeploymentFromYamlAndJson() {
    Deployment fromYaml = CODECS.yaml().decode(deployment("apps/v1"), Deployment.class).object();
    String json = CODECS.json().encodeToString(fromYaml);
    Deployment fromJson = CODECS.json().decode(json, Deployment.class).object();
    assertEquals(fromYaml, fromJson);
    var container = fromJson.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(new Quantity("500m"), container.getResources().getRequests().get("cpu"));
    assertEquals(new Quantity("1Gi"), container.getResources().getRequests().get("memory"));
    assertEquals(
        new IntOrString("25%"), fromJson.getSpec().getStrategy().getRollingUpdate().getMaxSurge());
    assertEquals(
        new IntOrString(0),
        fromJson.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());
    assertEquals(new IntOrString(8080), container.getLivenessProbe().getHttpGet().getPort());
    assertEquals(new IntOrString("http"), container.getReadinessProbe().getHttpGet().getPort());
    assertEquals(8080, container.getPorts().get(0).getContainerPort());
  }

  @Test
  void decodesAnExtensionsV1beta1DeploymentAndAConfigMapFromAStream() {
    List<Decoded<Object>> all =
        CODECS
            .yaml()
            .decodeAll(
                deployment("extensions/v1beta1")
                    + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
                    + "data: {port: \"8080\"}\n");
    var extensions = (io.fabric8.kubernetes.api.model.extensions.Deployment) all.get(0).object();
    assertEquals(3, extensions.getSpec().getReplicas());
    assertEquals(
        new IntOrString(0),
        extensions.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());
    assertEquals("8080", ((ConfigMap) all.get(1).object()).getData().get("port"));
  }

  @Test
  void aTypoIsCaughtDespiteFabric8sCatchAll() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                CODECS
                    .yaml()
                    .decode(deployment("apps/v1").replace("replicas: 3", "replcias: 3")));
    assertEquals("strict decoding error: unknown field \"spec.replcias\"", e.getMessage());
  }
}
