package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionChain;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.AdmissionPlugin;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.rbac.Role;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admission chain on the request path, over a plain resource (Roles served without RBAC): the
 * mutating plugins before the resource's metadata, defaults and validation, in order, each seeing
 * the one before's object; the validating ones after; the operation, old object, user, subresource
 * and dry run they see; refusals as 403s.
 */
class AdmissionServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final UserInfo JANE = UserInfo.of("jane", List.of("system:authenticated"));

  private final List<String> seen = new CopyOnWriteArrayList<>();
  private ApiServer server;

  /** Labels what it admits with its name, and records what it saw. */
  private final class Labeller implements MutatingAdmissionPlugin {
    private final String name;

    Labeller(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Object admit(AdmissionAttributes a) {
      seen.add(
          name
              + " "
              + a.operation()
              + " "
              + a.namespace()
              + "/"
              + a.name()
              + " by "
              + a.user().name()
              + (a.dryRun() ? " dry" : "")
              + (a.subresource().isEmpty() ? "" : " sub=" + a.subresource())
              + " old="
              + (a.oldObject() != null)
              + " uid="
              + (a.object() != null && ((Role) a.object()).getMetadata().getUid() != null));
      if (a.object() instanceof Role role) {
        Map<String, String> labels =
            new HashMap<>(
                role.getMetadata().getLabels() == null ? Map.of() : role.getMetadata().getLabels());
        labels.put("order", labels.getOrDefault("order", "") + name);
        role.getMetadata().setLabels(labels);
      }
      return a.object();
    }
  }

  @BeforeEach
  void start() {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    ValidatingAdmissionPlugin guard =
        new ValidatingAdmissionPlugin() {
          @Override
          public String name() {
            return "Guard";
          }

          @Override
          public boolean handles(Operation operation) {
            return operation != Operation.DELETE;
          }

          @Override
          public void validate(AdmissionAttributes a) {
            Role role = (Role) a.object();
            seen.add(
                "Guard "
                    + a.operation()
                    + " order="
                    + role.getMetadata().getLabels().get("order")
                    + " uid="
                    + (role.getMetadata().getUid() != null));
            if (a.name().startsWith("forbidden-")) {
              throw new AdmissionException("names starting with forbidden- are refused");
            }
          }
        };
    server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .admission(new Labeller("A"))
            .admission(new Labeller("B"))
            .admission(guard)
            .build();
  }

  private ApiResponse call(UserInfo user, String method, String path, String body, String query) {
    return server.handleAs(
        user,
        new ApiRequest(
            method,
            path,
            query == null ? Map.of() : Map.of(query, List.of("All")),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String role(String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[]}";
  }

  @Test
  void mutatingPluginsRunInOrderBeforeTheMetadataAndValidatingOnesAfter() {
    ApiResponse created = call(JANE, "POST", ROLES, role("r"), null);
    assertEquals(201, created.status());
    assertEquals("AB", json(created).path("metadata").path("labels").path("order").asText());
    assertEquals(
        List.of(
            "A CREATE ns/r by jane old=false uid=false",
            "B CREATE ns/r by jane old=false uid=false",
            "Guard CREATE order=AB uid=true"),
        seen);
  }

  @Test
  void updatesSeeTheOldObjectAndDeletesOnlyIt() {
    call(JANE, "POST", ROLES, role("r"), null);
    seen.clear();
    assertEquals(200, call(JANE, "PUT", ROLES + "/r", role("r"), null).status());
    assertEquals(
        List.of(
            "A UPDATE ns/r by jane old=true uid=false",
            "B UPDATE ns/r by jane old=true uid=false",
            "Guard UPDATE order=AB uid=true"),
        seen);
    seen.clear();
    assertEquals(200, call(JANE, "DELETE", ROLES + "/r", null, "dryRun").status());
    assertEquals(
        List.of(
            "A DELETE ns/r by jane dry old=true uid=false",
            "B DELETE ns/r by jane dry old=true uid=false"),
        seen);
  }

  @Test
  void aRefusalIsAForbiddenNamingTheObjectAndNothingIsStored() {
    ApiResponse refused = call(JANE, "POST", ROLES, role("forbidden-1"), null);
    assertEquals(403, refused.status());
    assertEquals(
        "roles.rbac.authorization.k8s.io \"forbidden-1\" is forbidden: names starting with"
            + " forbidden- are refused",
        json(refused).path("message").asText());
    assertEquals(404, call(JANE, "GET", ROLES + "/forbidden-1", null, null).status());
  }

  @Test
  void theChainRefusesPluginsOfNeitherKindAndTwoOfOneName() {
    AdmissionPlugin neither = () -> "Neither";
    assertEquals(
        "admission plugin \"Neither\" ("
            + neither.getClass().getName()
            + ") is neither a MutatingAdmissionPlugin nor a ValidatingAdmissionPlugin",
        assertThrows(IllegalArgumentException.class, () -> AdmissionChain.of(List.of(neither)))
            .getMessage());
    assertEquals(
        "two admission plugins are named \"A\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> AdmissionChain.of(List.of(new Labeller("A"), new Labeller("A"))))
            .getMessage());
    assertTrue(AdmissionChain.of(List.of()).isEmpty());
  }
}
