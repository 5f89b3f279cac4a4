package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.KubernetesProtobuf;
import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.Transport;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' built-in kinds as machinery-api's typed models, written and read by the client in
 * Kubernetes' protobuf ({@code KubernetesProtobuf} as the client's encoding) against the test
 * server: the bodies on the wire are protobuf both ways, and what is read back is what was written.
 */
class BuiltinProtobufClientTest {
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static TestApiServer server;

  @BeforeAll
  static void start() {
    server = TestApiServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A transport that notes the content types of ConfigMaps going out and coming back. */
  private static final class Recording implements Transport {
    final Transport next;
    final List<String> sent = new CopyOnWriteArrayList<>();
    final List<String> received = new CopyOnWriteArrayList<>();

    Recording(Transport next) {
      this.next = next;
    }

    @Override
    public TransportResponse send(TransportRequest request) throws IOException {
      TransportResponse response = next.send(request);
      if (request.path().contains("/configmaps")) {
        if (request.body().length > 0) {
          sent.add(request.method() + " " + request.header("Content-Type"));
        }
        received.add(request.method() + " " + response.header("Content-Type"));
      }
      return response;
    }

    @Override
    public void close() {
      next.close();
    }
  }

  @Test
  void typedConfigMapsTravelAsKubernetesProtobuf() {
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    KubernetesProtobuf protobuf = KubernetesProtobuf.create(CodecFactory.create(scheme));
    assertTrue(protobuf.canEncode(ConfigMap.class));
    Recording transport = new Recording(InProcessTransport.of(server.apiServer()::handleAs));
    try (Client client = Client.builder(transport).scheme(scheme).protobuf(protobuf).build()) {
      ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace("default");
      ConfigMap map = new ConfigMap();
      ObjectMeta metadata = new ObjectMeta();
      metadata.setName("in-protobuf");
      metadata.setLabels(Map.of("app", "shop"));
      map.setMetadata(metadata);
      map.setData(Map.of("index.html", "<h1>open</h1>"));
      map.setBinaryData(Map.of("logo", new byte[] {0, 1, 2, (byte) 0xff}));
      transport.sent.clear();
      transport.received.clear();

      ConfigMap created = maps.create(map, new CreateOptions());
      assertEquals(List.of("POST " + PROTOBUF), transport.sent);
      assertEquals(List.of("POST " + PROTOBUF), transport.received);
      assertFalse(created.getMetadata().getUid().isEmpty());

      ConfigMap read = maps.get("in-protobuf");
      assertEquals("GET " + PROTOBUF, transport.received.get(1));
      assertEquals(Map.of("index.html", "<h1>open</h1>"), read.getData());
      assertArrayEquals(new byte[] {0, 1, 2, (byte) 0xff}, read.getBinaryData().get("logo"));
      assertEquals("shop", read.getMetadata().getLabels().get("app"));

      read.setData(Map.of("index.html", "<h1>closed</h1>"));
      ConfigMap updated = maps.update(read, new UpdateOptions());
      assertEquals("PUT " + PROTOBUF, transport.sent.get(1));
      assertEquals(
          "<h1>closed</h1>",
          new String(
              updated.getData().get("index.html").getBytes(StandardCharsets.UTF_8),
              StandardCharsets.UTF_8));
    }
  }
}
