package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code AdmissionPlugin.initialize}: each plugin is handed the server's in-process handler once,
 * when the server is built, and may write through it then (the write is admitted like any other, as
 * {@code system:apiserver}) and read through it while it admits.
 */
class AdmissionPluginInitializeTest {
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";

  private static ApiRequest request(String method, String path, String body) {
    return new ApiRequest(
        method,
        path,
        Map.of(),
        Map.of("Content-Type", List.of("application/json")),
        new ByteArrayInputStream(
            body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8)));
  }

  private static String role(String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[]}";
  }

  /** Makes the Role {@code seed} at startup; refuses a Role named after one that exists. */
  private static final class Seeder implements ValidatingAdmissionPlugin {
    final List<String> seen = new CopyOnWriteArrayList<>();
    volatile ApiHandler loopback;
    int initialized;

    @Override
    public String name() {
      return "Seeder";
    }

    @Override
    public void initialize(ApiHandler server) {
      initialized++;
      loopback = server;
      ApiResponse created = server.handle(request("POST", ROLES, role("seed")));
      seen.add("seed " + created.status());
    }

    @Override
    public void validate(AdmissionAttributes a) {
      seen.add("validate " + a.name() + " by " + a.user().name());
      if (a.name().startsWith("copy-of-")) {
        ApiResponse original =
            loopback.handle(request("GET", ROLES + "/" + a.name().substring(8), null));
        if (original.status() == 200) {
          throw new AdmissionException("a copy of " + a.name().substring(8) + " exists");
        }
      }
    }
  }

  @Test
  void pluginsAreInitializedOnceWithTheServersLoopback() {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    Seeder seeder = new Seeder();
    ApiServer server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .admission(seeder)
            .build();
    assertEquals(1, seeder.initialized);
    // The write at startup went through admission, as the server's own user.
    assertEquals(List.of("validate seed by system:apiserver", "seed 201"), seeder.seen);
    assertEquals(200, server.handle(request("GET", ROLES + "/seed", null)).status());
    ApiResponse refused = server.handle(request("POST", ROLES, role("copy-of-seed")));
    assertEquals(403, refused.status());
    assertTrue(
        new String(refused.body(), StandardCharsets.UTF_8).contains("a copy of seed exists"));
    assertEquals(201, server.handle(request("POST", ROLES, role("copy-of-other"))).status());
  }
}
