package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One write of a built-in kind reads back the same from the sample server on memory (values kept as
 * JSON) and on etcd in Kubernetes' protobuf, whose values pass through the protobuf messages of
 * Kubernetes' Go types as kube-apiserver's do: zero values Go leaves out, empty lists and maps,
 * nulls in maps and lists, quantities, times and whole numbers written with a fraction all come
 * back in one form, whichever store holds them; and in the form kube-apiserver answers, checked at
 * a few places ({@code FACTS}), on the README's sample server on memory.
 */
@Timeout(120)
class SameAnswerOnMemoryAndEtcdTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String[]> WRITES =
      List.of(
          new String[] {
            "/api/v1/namespaces/p/pods",
            """
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "zeros", "labels": {"app": null, "tier": "web"}, "annotations": {},
                          "finalizers": []},
             "spec": {"hostNetwork": false, "serviceAccountName": "", "nodeSelector": {},
                      "activeDeadlineSeconds": 30,
                      "containers": [{"name": "c", "image": "nginx", "args": [null, "x"], "stdin": false,
                                      "env": [],
                                      "ports": [{"containerPort": 80, "hostPort": 0}],
                                      "resources": {"requests": {"cpu": 0.5, "memory": "1.5Gi"},
                                                    "limits": {}}}]}}
            """
          },
          new String[] {
            "/api/v1/namespaces/p/configmaps",
            """
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "zeros"},
             "data": {"empty": null, "full": "x"}, "binaryData": {}, "immutable": false}
            """
          },
          new String[] {
            "/apis/coordination.k8s.io/v1/namespaces/p/leases",
            """
            {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "zeros"},
             "spec": {"holderIdentity": "", "leaseDurationSeconds": 15,
                      "renewTime": "2026-11-30T07:00:00.123456+01:00"}}
            """
          });

  /**
   * What kube-apiserver answers for each write, at a few places (a JSON pointer to the value's
   * JSON; an empty text where the field is left out).
   */
  private static final List<Map<String, String>> FACTS =
      List.of(
          Map.of(
              "/metadata/labels", "{\"app\":\"\",\"tier\":\"web\"}",
              "/metadata/annotations", "",
              "/spec/hostNetwork", "",
              "/spec/serviceAccountName", "",
              "/spec/containers/0/args", "[\"\",\"x\"]",
              "/spec/containers/0/ports/0", "{\"containerPort\":80,\"protocol\":\"TCP\"}",
              "/spec/containers/0/resources",
                  "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1536Mi\"}}"),
          Map.of(
              "/data", "{\"empty\":\"\",\"full\":\"x\"}",
              "/binaryData", "",
              "/immutable", "false"),
          Map.of(
              "/spec/holderIdentity", "\"\"", // a pointer: kept
              "/spec/renewTime", "\"2026-11-30T06:00:00.123456Z\""));

  @Test
  void aBuiltInWriteReadsBackTheSameFromEitherStore() throws Exception {
    try (EtcdProcess etcd = EtcdProcess.start()) {
      ApiServer memory = server(new MemoryStorage(), StorageMediaType.JSON);
      EtcdStorage storage = EtcdStorage.builder(etcd.endpoint()).prefix("/registry/").build();
      ApiServer onEtcd = server(storage, StorageMediaType.PROTOBUF);
      try {
        for (int i = 0; i < WRITES.size(); i++) {
          String[] write = WRITES.get(i);
          JsonNode fromMemory = written(memory, write[0], write[1]);
          JsonNode fromEtcd = written(onEtcd, write[0], write[1]);
          assertEquals(fromEtcd, fromMemory, write[1]);
          for (Map.Entry<String, String> fact : FACTS.get(i).entrySet()) {
            assertEquals(fact.getValue(), fromMemory.at(fact.getKey()).toString(), fact.getKey());
          }
        }
      } finally {
        memory.close();
        onEtcd.close();
        storage.close();
      }
    }
  }

  private static ApiServer server(
      dev.machinery.apiserver.storage.Storage storage, StorageMediaType type) throws IOException {
    ApiServer server =
        SampleServer.builder(
                Enablement.all(),
                Duration.ofMillis(500),
                null,
                storage,
                ApiServer.DEFAULT_WATCH_CACHE_SIZE)
            .storageMediaType(type)
            .build();
    ok(
        call(
            server,
            "POST",
            "/api/v1/namespaces",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"p\"}}"),
        201);
    return server;
  }

  /** What a GET answers after the write, without what the server sets on its own. */
  private static JsonNode written(ApiServer server, String collection, String body)
      throws IOException {
    JsonNode created = ok(call(server, "POST", collection, body), 201);
    String name = created.at("/metadata/name").asText();
    ObjectNode read = (ObjectNode) ok(call(server, "GET", collection + "/" + name, null), 200);
    ObjectNode metadata = (ObjectNode) read.get("metadata");
    metadata.remove(List.of("uid", "creationTimestamp", "resourceVersion", "managedFields"));
    return read;
  }

  private static ApiResponse call(ApiServer server, String method, String path, String body) {
    return server.handle(
        new ApiRequest(
            method,
            path,
            Map.of(),
            body == null ? Map.of() : Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode ok(ApiResponse response, int status) throws IOException {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.status(), text);
    return JSON.readTree(text);
  }
}
