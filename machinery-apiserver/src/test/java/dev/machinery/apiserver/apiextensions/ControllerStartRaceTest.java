package dev.machinery.apiserver.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A CustomResourceDefinition created right after the server is built, before the controller's
 * thread has started watching, is still reconciled: on an empty storage (revision 0, which a watch
 * takes as "from now") the controller used to miss it for good. The storage here holds the
 * controller thread's watch back until the definition is created.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ControllerStartRaceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aDefinitionCreatedBeforeTheControllerWatchesIsEstablished() throws Exception {
    CountDownLatch created = new CountDownLatch(1);
    MemoryStorage memory = new MemoryStorage();
    Storage storage =
        (Storage)
            Proxy.newProxyInstance(
                Storage.class.getClassLoader(),
                new Class<?>[] {Storage.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("watch")
                      && Thread.currentThread()
                          .getName()
                          .equals("customresourcedefinitions controller")) {
                    created.await(30, TimeUnit.SECONDS);
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    ApiServer server =
        ApiServer.builder(CustomResourceDefinitionsTest.SCHEME)
            .customResourceDefinitions()
            .storage(storage)
            .watchCacheSize(0)
            .build();
    try {
      assertEquals(
          201,
          request(
                  server,
                  "POST",
                  "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                  CustomResourceDefinitionsTest.CRONTAB_CRD)
              .status());
      created.countDown();
      String established = "";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!established.equals("True") && System.nanoTime() < deadline) {
        Thread.sleep(10);
        JsonNode crd =
            JSON.readTree(
                request(
                        server,
                        "GET",
                        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
                            + "crontabs.stable.example.com",
                        null)
                    .body());
        for (JsonNode condition : crd.at("/status/conditions")) {
          if (condition.path("type").asText().equals("Established")) {
            established = condition.path("status").asText();
          }
        }
      }
      assertEquals("True", established, "the definition's Established condition");
    } finally {
      server.close();
    }
  }

  private static ApiResponse request(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }
}
