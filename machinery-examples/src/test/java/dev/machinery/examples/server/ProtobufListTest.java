package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A list in Kubernetes' protobuf is joined from its items' bytes, each written once per object: the
 * answer is byte for byte the list Kubernetes' messages write whole from the same list's JSON, the
 * same when asked again, and a change in it is in the next answer.
 */
class ProtobufListTest {
  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaProtobufCodec MESSAGES =
      SchemaProtobufCodec.create(KubeProtos.v1_33());

  private static ApiResponse call(
      ApiServer server, String method, String path, String accept, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of(
                "Accept",
                List.of(accept),
                "Content-Type",
                List.of(
                    method.equals("PATCH") ? "application/merge-patch+json" : "application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String pod(String name, int i) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{\"app\":\"a"
        + (i % 3)
        + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1."
        + i
        + "\",\"ports\":[{\"containerPort\":"
        + (8000 + i)
        + "}],\"resources\":{\"requests\":{\"cpu\":\""
        + (100 + i)
        + "m\"}}}]}}";
  }

  /** The protobuf list and, read at the same revision, the bytes Kubernetes' messages give it. */
  private static byte[][] listBoth(ApiServer server) throws Exception {
    ApiResponse protobuf = call(server, "GET", PODS, PROTOBUF, "");
    assertEquals(200, protobuf.status());
    assertEquals(PROTOBUF, protobuf.header("Content-Type"));
    ApiResponse json = call(server, "GET", PODS, "application/json", "");
    assertEquals(200, json.status());
    Map<String, Object> tree =
        JSON.readValue(json.body(), new TypeReference<Map<String, Object>>() {});
    byte[] whole = MESSAGES.encodeList(GroupVersionKind.of("", "v1", "PodList"), tree);
    return new byte[][] {protobuf.body(), whole};
  }

  @Test
  void aProtobufListIsTheListWrittenWholeAndFollowsChanges() throws Exception {
    ApiServer server =
        SampleServer.build(Enablement.all(), Duration.ofSeconds(60), null, new MemoryStorage());
    SampleServer.loadSamples(server);
    for (int i = 0; i < 25; i++) {
      assertEquals(201, call(server, "POST", PODS, "application/json", pod("p" + i, i)).status());
    }
    byte[][] first = listBoth(server);
    assertArrayEquals(first[1], first[0], "joined from the items' bytes");
    byte[][] again = listBoth(server);
    assertArrayEquals(first[0], again[0], "asked again with nothing changed");

    assertEquals(
        200,
        call(
                server,
                "PATCH",
                PODS + "/p7",
                "application/json",
                "{\"metadata\":{\"labels\":{\"app\":\"changed\"}}}")
            .status());
    assertEquals(201, call(server, "POST", PODS, "application/json", pod("p-late", 99)).status());
    byte[][] changed = listBoth(server);
    assertNotEquals(
        new String(first[0], StandardCharsets.ISO_8859_1),
        new String(changed[0], StandardCharsets.ISO_8859_1));
    assertArrayEquals(changed[1], changed[0], "the changed list, joined");
  }

  @Test
  void aListLargerThanKeptWholeIsStreamedWithTheBytesOfTheListWrittenWhole() throws Exception {
    ApiServer server =
        SampleServer.build(Enablement.all(), Duration.ofSeconds(60), null, new MemoryStorage());
    SampleServer.loadSamples(server);
    String configMaps = "/api/v1/namespaces/default/configmaps";
    String filler = "x".repeat(8_000);
    for (int i = 0; i < 600; i++) {
      ApiResponse created =
          call(
              server,
              "POST",
              configMaps,
              "application/json",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c"
                  + i
                  + "\"},\"data\":{\"filler\":\""
                  + filler
                  + "\"}}");
      assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
    }
    ApiResponse streamed = call(server, "GET", configMaps, PROTOBUF, "");
    assertEquals(200, streamed.status());
    assertEquals(PROTOBUF, streamed.header("Content-Type"));
    assertTrue(streamed.isStreaming(), "a list of about 4.8 MB is written item by item");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    streamed.writeBody(bytes);
    assertTrue(bytes.size() > 4 << 20, "size " + bytes.size());

    ApiResponse json = call(server, "GET", configMaps, "application/json", "");
    assertEquals(200, json.status());
    java.io.ByteArrayOutputStream jsonBytes = new java.io.ByteArrayOutputStream();
    json.writeBody(jsonBytes);
    Map<String, Object> tree =
        JSON.readValue(jsonBytes.toByteArray(), new TypeReference<Map<String, Object>>() {});
    assertTrue(((List<?>) tree.get("items")).size() > 600, "the samples' and the 600 written");
    assertArrayEquals(
        MESSAGES.encodeList(GroupVersionKind.of("", "v1", "ConfigMapList"), tree),
        bytes.toByteArray(),
        "the list Kubernetes' messages write whole");
  }
}
