package dev.machinery.examples.webpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.client.Client;
import dev.machinery.client.config.ClientConfig;
import dev.machinery.client.config.KubeconfigLoader;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The code of docs/controllers-runtime.md's "A sample controller", run: the controller with leader
 * election, its client built from a kubeconfig file as {@link WebPageOperator} builds it.
 */
class SampleControllerGuideTest {
  private static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");

  private static ConfigMap published(Client client, String name) throws InterruptedException {
    return WebPageControllerTest.await(
        "ConfigMap " + name,
        () ->
            WebPageControllerTest.find(
                client.resources(ConfigMap.class).inNamespace("default"), name),
        m -> true);
  }

  @Test
  void runsTheSampleControllerWithLeaderElection() throws Exception {
    try (TestApiServer server = TestApiServer.start()) {
      Path crd = Files.createTempFile("webpages", ".yaml");
      Files.writeString(crd, WebPageController.customResourceDefinition());
      server.createCustomResourceDefinitions(crd.toString());
      Files.delete(crd);
      Path kubeconfig = server.kubeconfig();
      String html;
      boolean leading;
      ClientConfig config = KubeconfigLoader.builder().kubeconfig(kubeconfig).build().load();
      try (Client client = Client.builder(config).scheme(WebPageController.scheme()).build();
          WebPageController controller =
              WebPageController.start(client, "default", "replica-1", Duration.ofSeconds(4))) {
        client.resources(WebPage.class).create(WebPage.of("default", "welcome", "<h1>hi</h1>"));
        ConfigMap content = published(client, "welcome-content"); // made by the leader
        html = content.getData().get(WebPageReconciler.CONTENT_KEY); // "<h1>hi</h1>"
        leading = controller.isRunning(); // true: the only replica holds the Lease
      }
      assertEquals("<h1>hi</h1>", html);
      assertTrue(leading, "the only replica leads");
      try (Client client = Client.builder(config).build()) {
        Unstructured lease =
            client.resources(LEASES).inNamespace("default").get(WebPageController.LEASE_NAME);
        assertEquals(
            "",
            lease.nestedString("spec", "holderIdentity").orElse(""),
            "released on close: " + lease);
      }
    }
  }
}
