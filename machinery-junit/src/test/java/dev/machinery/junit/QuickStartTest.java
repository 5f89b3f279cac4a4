package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

/** The README's quick start of the test server, as a user writes it. */
@EnableApiServer(crds = "crds/foos.yaml")
class QuickStartTest {
  KubernetesClient client; // fabric8's client for this class's server

  @Test
  void storesAConfigMap() {
    client
        .configMaps()
        .inNamespace("default")
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
        client
            .configMaps()
            .inNamespace("default")
            .withName("settings")
            .get()
            .getData()
            .get("colour"));
  }
}
