package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.client.Client;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.examples.webpage.WebPageController;
import dev.machinery.examples.webpage.WebPageReconciler;
import dev.machinery.junit.TestApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every kubectl build on the machine creates a WebPage with {@code kubectl apply} and reads the
 * ConfigMap the sample controller (running over HTTP against the same test server) made of it.
 */
class WebPageKubectlTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static TestApiServer server;
  private static Client client;
  private static WebPageController controller;

  @BeforeAll
  static void start() throws Exception {
    server = TestApiServer.start();
    Path crd = Files.createTempFile("webpages", ".yaml");
    Files.writeString(crd, WebPageController.customResourceDefinition());
    server.createCustomResourceDefinitions(crd.toString());
    Files.delete(crd);
    client =
        Client.builder(HttpTransport.builder(server.url()).build())
            .scheme(WebPageController.scheme())
            .build();
    controller = WebPageController.start(client, "default", "kubectl-suite");
  }

  @AfterAll
  static void stop() {
    if (controller != null) {
      controller.close();
    }
    if (client != null) {
      client.close();
    }
    server.close();
  }

  @TestFactory
  Stream<DynamicTest> kubectlCreatesAPageAndReadsItsConfigMap() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("the WebPage kubectl suite");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> scenario(Kubectl.of(e.getKey(), e.getValue(), server.url().toString()))));
  }

  private static void scenario(Kubectl kubectl) throws Exception {
    String name = "page-" + kubectl.name.replace('.', '-');
    String content = "<h1>written by " + kubectl.name + "</h1>";
    String manifest =
        """
        apiVersion: web.example.dev/v1
        kind: WebPage
        metadata:
          name: %s
          namespace: default
        spec:
          content: "%s"
        """
            .formatted(name, content);
    Kubectl.Result applied = kubectl.run(Map.of(), manifest, "apply", "-f", "-");
    assertEquals(0, applied.exitCode(), applied.all());
    assertEquals("webpage.web.example.dev/" + name + " created\n", applied.out(), applied.all());

    String mapName = WebPageReconciler.configMapName(name);
    Instant deadline = Instant.now().plus(PATIENCE);
    Kubectl.Result read;
    while (true) {
      read =
          kubectl.run(
              "get",
              "configmap",
              mapName,
              "-n",
              "default",
              "-o",
              "jsonpath={.data.index\\.html}|{.metadata.ownerReferences[0].kind}"
                  + "/{.metadata.ownerReferences[0].name}"
                  + "/{.metadata.ownerReferences[0].controller}");
      if (read.exitCode() == 0) {
        break;
      }
      if (Instant.now().isAfter(deadline)) {
        fail("the ConfigMap never appeared: " + read.all());
      }
      Thread.sleep(200);
    }
    assertEquals(content + "|WebPage/" + name + "/true", read.out(), read.all());

    Instant statusDeadline = Instant.now().plus(PATIENCE);
    Kubectl.Result status;
    do {
      if (Instant.now().isAfter(statusDeadline)) {
        fail("the page never became Ready");
      }
      Thread.sleep(100);
      status =
          kubectl.run(
              "get",
              "webpage",
              name,
              "-n",
              "default",
              "-o",
              "jsonpath={.status.observedGeneration}/{.status.conditions[?(@.type==\"Ready\")].status}");
    } while (!"1/True".equals(status.out()));
  }
}
