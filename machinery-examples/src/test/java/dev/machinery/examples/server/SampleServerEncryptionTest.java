package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.MachineryException;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --encryption-provider-config}: the sample server keeps Secrets encrypted with the file's
 * first provider (the value in the storage carries its prefix and not the data), and reads them
 * back; a file that is not a valid configuration names the field.
 */
class SampleServerEncryptionTest {
  private static final UserInfo ROOT = UserInfo.of("root", List.of("system:masters"));

  @TempDir Path dir;

  @Test
  void secretsAreKeptEncryptedWithTheFilesFirstProvider() throws IOException {
    Path config = dir.resolve("encryption.yaml");
    Files.writeString(
        config,
        "apiVersion: apiserver.config.k8s.io/v1\n"
            + "kind: EncryptionConfiguration\n"
            + "resources:\n"
            + "- resources: [secrets]\n"
            + "  providers:\n"
            + "  - secretbox:\n"
            + "      keys:\n"
            + "      - name: key1\n"
            + "        secret: YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=\n"
            + "  - identity: {}\n");
    SampleServerFlags flags =
        SampleServerFlags.parse("--encryption-provider-config", config.toString());
    MemoryStorage storage = new MemoryStorage();
    ApiServer.Builder builder =
        SampleServer.builder(Enablement.all(), Duration.ofMinutes(1), null, storage, 100);
    SampleServer.configureEncryption(
        builder, flags.file("--encryption-provider-config").orElseThrow(), flags.etcdPrefix());
    try (ApiServer server = builder.build()) {
      ApiResponse namespace =
          server.handleAs(
              ROOT,
              new ApiRequest(
                  "POST",
                  "/api/v1/namespaces",
                  Map.of(),
                  Map.of("Content-Type", List.of("application/json")),
                  new ByteArrayInputStream(
                      "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}"
                          .getBytes(StandardCharsets.UTF_8))));
      assertTrue(namespace.status() == 201 || namespace.status() == 409);
      ApiResponse created =
          server.handleAs(
              ROOT,
              new ApiRequest(
                  "POST",
                  "/api/v1/namespaces/default/secrets",
                  Map.of(),
                  Map.of("Content-Type", List.of("application/json")),
                  new ByteArrayInputStream(
                      ("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s1\"},"
                              + "\"stringData\":{\"password\":\"hunter2\"}}")
                          .getBytes(StandardCharsets.UTF_8))));
      assertEquals(201, created.status(), new String(created.body(), StandardCharsets.UTF_8));
      String stored =
          new String(
              storage.get("secrets/default/s1").orElseThrow().value(), StandardCharsets.ISO_8859_1);
      assertTrue(stored.startsWith("k8s:enc:secretbox:v1:key1:"), stored);
      assertFalse(stored.contains("aHVudGVyMg=="), "the data is not kept in the clear");
      ApiResponse got =
          server.handleAs(
              ROOT,
              new ApiRequest(
                  "GET",
                  "/api/v1/namespaces/default/secrets/s1",
                  Map.of(),
                  Map.of(),
                  new ByteArrayInputStream(new byte[0])));
      assertEquals(200, got.status());
      assertTrue(
          new String(got.body(), StandardCharsets.UTF_8).contains("aHVudGVyMg=="),
          "read back in the clear");
    }
  }

  @Test
  void anInvalidFileNamesTheField() throws IOException {
    Path config = dir.resolve("bad.yaml");
    Files.writeString(
        config,
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n"
            + "- resources: [secrets]\n  providers: [{aesgcm: {keys: [{name: k, secret: c2VjcmV0}]}}]\n");
    ApiServer.Builder builder =
        SampleServer.builder(Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 0);
    MachineryException e =
        assertThrows(
            MachineryException.class,
            () -> SampleServer.configureEncryption(builder, config.toString(), "/registry/"));
    assertTrue(
        e.getMessage().contains("resources[0].providers[0].aesgcm.keys[0].secret"), e.getMessage());
  }
}
