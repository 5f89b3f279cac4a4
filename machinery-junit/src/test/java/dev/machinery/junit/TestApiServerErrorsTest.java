package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test server's refusals of the manifests it is given, each naming the manifest and what was
 * wrong, and its kubeconfig deleted when it stops.
 */
class TestApiServerErrorsTest {
  @Test
  void manifestsItCannotCreateAreRefusedByName(@TempDir Path dir) throws Exception {
    try (TestApiServer server = TestApiServer.start()) {
      IllegalArgumentException missing =
          assertThrows(
              IllegalArgumentException.class,
              () -> server.createCustomResourceDefinitions("no/such/manifest.yaml"));
      assertEquals(
          "no/such/manifest.yaml is neither a class path resource nor a file",
          missing.getMessage());

      Path configMap = dir.resolve("cm.yaml");
      Files.writeString(configMap, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n");
      IllegalArgumentException other =
          assertThrows(
              IllegalArgumentException.class,
              () -> server.createCustomResourceDefinitions(configMap.toString()));
      assertEquals(
          configMap
              + ", document 1: a CustomResourceDefinition is expected, found kind \"ConfigMap\"",
          other.getMessage());

      Path invalid = dir.resolve("invalid.yaml");
      Files.writeString(
          invalid,
          "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
              + "metadata: {name: things.nodot}\nspec:\n  group: nodot\n  scope: Namespaced\n"
              + "  names: {plural: things, kind: Thing}\n  versions:\n  - name: v1\n"
              + "    served: true\n    storage: true\n    schema:\n"
              + "      openAPIV3Schema: {type: object}\n");
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> server.createCustomResourceDefinitions(invalid.toString()));
      assertTrue(
          refused
              .getMessage()
              .startsWith(
                  "POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions was answered 422: "),
          refused.getMessage());
      assertTrue(
          refused.getMessage().contains("should be a domain with at least one dot"),
          refused.getMessage());
    }
  }

  @Test
  void stoppingDeletesTheKubeconfig() throws Exception {
    Path kubeconfig;
    try (TestApiServer server = TestApiServer.start()) {
      kubeconfig = server.kubeconfig();
      assertTrue(Files.readString(kubeconfig).contains("current-context: machinery"));
    }
    assertTrue(Files.notExists(kubeconfig));
  }
}
