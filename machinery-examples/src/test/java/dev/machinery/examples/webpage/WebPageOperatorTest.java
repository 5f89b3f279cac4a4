package dev.machinery.examples.webpage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The command line of the sample controller's main. */
class WebPageOperatorTest {
  @Test
  void defaultsToTheContextsNamespaceWithoutLeaderElection() {
    assertEquals(
        new WebPageOperator.Options(null, false, Duration.ofSeconds(15)),
        WebPageOperator.Options.parse());
  }

  @Test
  void readsEveryFlag() {
    assertEquals(
        new WebPageOperator.Options("web", true, Duration.ofSeconds(30)),
        WebPageOperator.Options.parse("--namespace=web", "--leader-elect", "--lease-duration=30s"));
  }

  @Test
  void refusesBadFlagsNamingThem() {
    assertEquals(
        "unknown flag: --leader-elect=true",
        assertThrows(
                IllegalArgumentException.class,
                () -> WebPageOperator.Options.parse("--leader-elect=true"))
            .getMessage());
    assertEquals(
        "--lease-duration: expected whole seconds such as 15s, got \"15\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> WebPageOperator.Options.parse("--lease-duration=15"))
            .getMessage());
    assertEquals(
        "--namespace: must not be empty",
        assertThrows(
                IllegalArgumentException.class, () -> WebPageOperator.Options.parse("--namespace="))
            .getMessage());
  }

  @Test
  void theControllerRefusesAnEmptyNamespaceOrIdentity() {
    try (dev.machinery.client.Client client =
        dev.machinery.client.Client.builder(
                dev.machinery.client.transport.HttpTransport.builder(
                        java.net.URI.create("http://127.0.0.1:1"))
                    .build())
            .scheme(WebPageController.scheme())
            .build()) {
      assertEquals(
          "namespace: must not be empty",
          assertThrows(
                  IllegalArgumentException.class, () -> WebPageController.start(client, "", "me"))
              .getMessage());
      assertEquals(
          "identity: must not be empty",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> WebPageController.start(client, "default", ""))
              .getMessage());
    }
  }
}
