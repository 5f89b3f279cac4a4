package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reviews the server answers itself, as discovery lists them, compared with kube-apiserver's
 * own documents: {@code authorization.k8s.io/v1} in full, {@code authentication.k8s.io/v1} but its
 * {@code tokenreviews} (not served here), legacy and aggregated, with and without RBAC.
 */
class ReviewDiscoveryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String AGGREGATED =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

  private static ApiServer server(boolean rbac) {
    Scheme scheme =
        rbac
            ? RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build()
            : MetaV1.addToScheme(Scheme.builder()).build();
    ApiServer.Builder builder = ApiServer.builder(scheme);
    return (rbac ? builder.rbac() : builder).build();
  }

  private static JsonNode get(ApiServer server, String path, String accept) throws IOException {
    ApiResponse response =
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            new ApiRequest(
                "GET",
                path,
                Map.of(),
                accept == null ? Map.of() : Map.of("Accept", List.of(accept)),
                new ByteArrayInputStream(new byte[0])));
    assertEquals(200, response.status(), () -> path + ": " + new String(response.body()));
    return JSON.readTree(response.body());
  }

  private static JsonNode kubeApiserver(String name) throws IOException {
    try (InputStream in = ReviewDiscoveryTest.class.getResourceAsStream("/discovery/" + name)) {
      return JSON.readTree(in);
    }
  }

  /** kube-apiserver's document without the resources this server does not serve. */
  private static JsonNode withoutTokenReviews(JsonNode document, String field, String name) {
    JsonNode copy = document.deepCopy();
    ArrayNode resources = (ArrayNode) copy.get(field);
    for (int i = resources.size() - 1; i >= 0; i--) {
      if (resources.get(i).get(name).asText().equals("tokenreviews")) {
        resources.remove(i);
      }
    }
    return copy;
  }

  @ParameterizedTest(name = "rbac={0}")
  @ValueSource(booleans = {false, true})
  void theResourceListsAreKubeApiserversButWhatIsNotServed(boolean rbac) throws IOException {
    ApiServer server = server(rbac);
    assertEquals(
        kubeApiserver("apis__authorization.k8s.io__v1.json"),
        get(server, "/apis/authorization.k8s.io/v1", null));
    assertEquals(
        withoutTokenReviews(
            kubeApiserver("apis__authentication.k8s.io__v1.json"), "resources", "name"),
        get(server, "/apis/authentication.k8s.io/v1", null));
    assertEquals(
        kubeApiserver("apis__authorization.k8s.io.json"),
        get(server, "/apis/authorization.k8s.io", null));
    // kube-apiserver serves authentication.k8s.io/v1 alone by default (the copy still lists
    // v1beta1, of an older release); the v1beta1 and v1alpha1 SelfSubjectReviews kubectl 1.27
    // falls back to are answered, not listed.
    JsonNode authentication = kubeApiserver("apis__authentication.k8s.io.json").deepCopy();
    ((ArrayNode) authentication.get("versions")).remove(1);
    assertEquals(authentication, get(server, "/apis/authentication.k8s.io", null));

    List<String> groups = new ArrayList<>();
    get(server, "/apis", null).get("groups").forEach(g -> groups.add(g.get("name").asText()));
    assertTrue(groups.contains("authorization.k8s.io"), groups::toString);
    assertTrue(groups.contains("authentication.k8s.io"), groups::toString);
  }

  @ParameterizedTest(name = "rbac={0}")
  @ValueSource(booleans = {false, true})
  void theAggregatedGroupsAreKubeApiserversButWhatIsNotServed(boolean rbac) throws IOException {
    ApiServer server = server(rbac);
    JsonNode ours = get(server, "/apis", AGGREGATED);
    JsonNode theirs = kubeApiserver("aggregated_v2.json");
    assertEquals(
        group(theirs, "authorization.k8s.io"),
        responseKindsByKind(group(ours, "authorization.k8s.io")));
    ObjectNode authentication = group(theirs, "authentication.k8s.io").deepCopy();
    ArrayNode versions = (ArrayNode) authentication.get("versions");
    // v1 alone, as kube-apiserver by default; the copy has its alpha and beta versions enabled.
    while (versions.size() > 1) {
      versions.remove(1);
    }
    versions.set(0, withoutTokenReviews(versions.get(0), "resources", "resource"));
    assertEquals(authentication, responseKindsByKind(group(ours, "authentication.k8s.io")));
  }

  private static ObjectNode group(JsonNode list, String name) {
    for (JsonNode item : list.get("items")) {
      if (item.at("/metadata/name").asText().equals(name)) {
        return (ObjectNode) item;
      }
    }
    throw new AssertionError(name + " is not listed: " + list);
  }

  /**
   * The group with each resource's responseKind as the copy writes it, group and version empty:
   * this server writes them in full (the same kind either way; a difference of all its resources,
   * not of these).
   */
  private static JsonNode responseKindsByKind(ObjectNode group) {
    ObjectNode copy = group.deepCopy();
    for (JsonNode version : copy.get("versions")) {
      for (JsonNode resource : version.get("resources")) {
        ((ObjectNode) resource.get("responseKind")).put("group", "").put("version", "");
      }
    }
    return copy;
  }
}
