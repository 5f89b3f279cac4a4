package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * What the extension does around test classes, seen from outside them: the classes below are run by
 * JUnit's launcher, and each records the servers it was given. One server serves a class and all
 * its {@code @Nested} classes, it is started once, stops after the enclosing class only, and is
 * closed then (its kubeconfig deleted, its requests no longer answered over HTTP).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExtensionLifecycleTest {
  static final List<TestApiServer> SEEN = Collections.synchronizedList(new ArrayList<>());

  @Test
  void oneServerServesAClassAndItsNestedClassesAndStopsAfterTheEnclosingClass() throws Exception {
    SEEN.clear();
    TestExecutionSummary summary = run(Enclosing.class);
    assertEquals(0, summary.getTotalFailureCount(), () -> failures(summary));
    assertEquals(5, summary.getTestsSucceededCount());
    assertEquals(1, SEEN.stream().distinct().count(), "one server: " + SEEN);
    assertClosed(SEEN.get(0));
  }

  @Test
  void aPerClassInstanceHasItsFieldsInBeforeAllAndTheServerStopsAfterAll() throws Exception {
    SEEN.clear();
    TestExecutionSummary summary = run(PerClass.class);
    assertEquals(0, summary.getTotalFailureCount(), () -> failures(summary));
    assertEquals(2, summary.getTestsSucceededCount());
    assertEquals(1, SEEN.stream().distinct().count(), "one server: " + SEEN);
    assertClosed(SEEN.get(0));
  }

  @Test
  void theExtensionRegisteredWithoutTheAnnotationServesTheOutermostClass() throws Exception {
    SEEN.clear();
    TestExecutionSummary summary = run(ExtendedWithoutAnnotation.class);
    assertEquals(0, summary.getTotalFailureCount(), () -> failures(summary));
    assertEquals(2, summary.getTestsSucceededCount());
    assertEquals(1, SEEN.stream().distinct().count(), "one server: " + SEEN);
    assertClosed(SEEN.get(0));
  }

  private static TestExecutionSummary run(Class<?> testClass) {
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(DiscoverySelectors.selectClass(testClass))
            .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    return listener.getSummary();
  }

  private static String failures(TestExecutionSummary summary) {
    return summary.getFailures().stream()
        .map(f -> f.getTestIdentifier().getDisplayName() + ": " + f.getException())
        .collect(Collectors.joining("\n"));
  }

  private static void assertClosed(TestApiServer server) throws Exception {
    assertFalse(Files.exists(server.kubeconfig()), "the kubeconfig is deleted");
    var connection = (HttpURLConnection) server.url().resolve("/version").toURL().openConnection();
    connection.setConnectTimeout(5_000);
    connection.setReadTimeout(5_000);
    assertThrows(IOException.class, connection::getResponseCode, "nothing listens");
  }

  static int namespaces(TestApiServer server) {
    return server
        .apiServer()
        .handle(
            new ApiRequest(
                "GET",
                "/api/v1/namespaces",
                Map.of(),
                Map.of(),
                new ByteArrayInputStream(new byte[0])))
        .status();
  }

  /** A class and two levels of nested classes; the enclosing class checks its server last. */
  @EnableApiServer(crds = "crds/foos.yaml")
  static class Enclosing {
    static TestApiServer atStart;
    TestApiServer server;
    KubernetesClient client;

    @BeforeAll
    static void start(TestApiServer given) {
      atStart = given;
      SEEN.add(given);
    }

    @Test
    void outer() {
      SEEN.add(server);
      assertNotNull(client);
    }

    @AfterAll
    static void stillServingAfterTheNestedClasses() throws Exception {
      assertTrue(Files.exists(atStart.kubeconfig()));
      assertEquals(200, namespaces(atStart));
      var connection =
          (HttpURLConnection) atStart.url().resolve("/version").toURL().openConnection();
      assertEquals(200, connection.getResponseCode(), "the nested classes did not stop it");
    }

    @Nested
    class Inner {
      TestApiServer innerServer;

      @Test
      void first() {
        SEEN.add(innerServer);
      }

      @Test
      void second(TestApiServer given) {
        SEEN.add(given);
        assertSame(server, given);
      }

      @Nested
      class Deeper {
        TestApiServer deepest;

        @Test
        void deepest() {
          SEEN.add(deepest);
        }
      }
    }

    @Nested
    class Sibling {
      @Test
      void sibling(TestApiServer given) {
        SEEN.add(given);
      }
    }
  }

  /** A per-class instance whose {@code @BeforeAll} and {@code @AfterAll} use its fields. */
  @EnableApiServer
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  static class PerClass {
    TestApiServer server;

    @BeforeAll
    void beforeAll() {
      assertNotNull(server, "no server in @BeforeAll");
      SEEN.add(server);
    }

    @Test
    void one() {
      SEEN.add(server);
    }

    @Test
    void two() {
      SEEN.add(server);
    }

    @AfterAll
    void afterAll() {
      assertEquals(200, namespaces(server));
    }
  }

  /** The extension registered by hand, on the enclosing class only. */
  @ExtendWith(ApiServerExtension.class)
  static class ExtendedWithoutAnnotation {
    TestApiServer server;

    @Test
    void outer() {
      SEEN.add(server);
    }

    @Nested
    class Inner {
      TestApiServer innerServer;

      @Test
      void inner() {
        SEEN.add(innerServer);
      }
    }
  }
}
