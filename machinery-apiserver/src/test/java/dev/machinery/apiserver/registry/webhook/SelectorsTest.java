package dev.machinery.apiserver.registry.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.labels.Selector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The namespace and object selectors, with the cases of Kubernetes' {@code
 * predicates/namespace/matcher_test.go} and {@code predicates/object/matcher_test.go}.
 */
class SelectorsTest {
  private static final Map<String, String> NAMESPACE_1 = Map.of("runlevel", "1");
  private static final Map<String, String> NAMESPACE_2 = Map.of("runlevel", "2");

  /** Only namespace "1" is stored. */
  private static final WebhookAdmission.Source SOURCE =
      new WebhookAdmission.Source() {
        @Override
        public List<Webhook> webhooks(boolean mutating) {
          return List.of();
        }

        @Override
        public Optional<Map<String, String>> namespaceLabels(String namespace) {
          return namespace.equals("1") ? Optional.of(NAMESPACE_1) : Optional.empty();
        }
      };

  private static ObjectNode withLabels(String name, Map<String, String> labels) {
    ObjectNode object = Json.MAPPER.createObjectNode();
    ObjectNode metadata = object.putObject("metadata");
    metadata.put("name", name);
    if (labels != null) {
      ObjectNode l = metadata.putObject("labels");
      labels.forEach(l::put);
    }
    return object;
  }

  private static WebhookAdmission.Request request(
      String resource,
      String subresource,
      String namespace,
      String name,
      Operation operation,
      ObjectNode object,
      ObjectNode old) {
    String kind = resource.equals("namespaces") ? "Namespace" : "Thing";
    return new WebhookAdmission.Request(
        operation,
        GroupVersionKind.of("", "v1", kind),
        resource,
        subresource,
        namespace,
        name,
        new UserInfo("u", "", List.of(), Map.of()),
        false,
        object,
        old,
        List.of("v1"),
        (tree, to) -> tree,
        w -> {},
        (k, v) -> {});
  }

  /** The labels the namespace selector is matched against, found by a selector of each. */
  private static boolean seesRunlevel(String level, WebhookAdmission.Request request) {
    return Selectors.namespaceMatches(Selector.parse("runlevel=" + level), request, SOURCE);
  }

  @Test
  void namespaceLabels() {
    ObjectNode namespace2 = withLabels("2", NAMESPACE_2);
    // Creating a namespace: the object's own labels.
    assertTrue(
        seesRunlevel("2", request("namespaces", "", "", "2", Operation.CREATE, namespace2, null)));
    // Updating a namespace: the new object's labels.
    assertTrue(
        seesRunlevel(
            "2", request("namespaces", "", "2", "2", Operation.UPDATE, namespace2, namespace2)));
    // Deleting a namespace: the stored namespace's labels.
    assertTrue(
        seesRunlevel("1", request("namespaces", "", "1", "1", Operation.DELETE, null, namespace2)));
    // A subresource of a namespace: the stored namespace's labels.
    assertTrue(
        seesRunlevel(
            "1",
            request("namespaces", "finalizers", "1", "mock-name", Operation.CREATE, null, null)));
    // A pod: its namespace's labels.
    assertTrue(
        seesRunlevel("1", request("pods", "", "1", "mock-name", Operation.CREATE, null, null)));
    assertFalse(
        seesRunlevel("2", request("pods", "", "1", "mock-name", Operation.CREATE, null, null)));
  }

  @Test
  void clusterScopedResourcesAreNeverExempted() {
    assertTrue(
        Selectors.namespaceMatches(
            Selector.parse("runlevel=9"),
            request("nodes", "", "", "mock-name", Operation.CREATE, null, null),
            SOURCE));
  }

  @Test
  void anAbsentNamespaceIsNotFound() {
    StatusException e =
        assertThrows(
            StatusException.class,
            () ->
                seesRunlevel("1", request("pods", "", "gone", "p", Operation.CREATE, null, null)));
    assertTrue(ApiErrors.isNotFound(e));
    assertEquals("namespaces \"gone\" not found", e.status().getMessage());
    // An empty selector asks nothing of the namespace.
    assertTrue(
        Selectors.namespaceMatches(
            Selector.everything(),
            request("pods", "", "gone", "p", Operation.CREATE, null, null),
            SOURCE));
  }

  @Test
  void objectSelector() {
    Selector runLevel1Excluder = Selector.parse("runlevel notin (1)");
    ObjectNode level1 = withLabels("n", Map.of("runlevel", "1"));
    ObjectNode level2 = withLabels("n", Map.of("runlevel", "2"));
    // An empty selector matches everything, even without an object.
    assertTrue(Selectors.objectMatches(Selector.everything(), null, null));
    assertTrue(Selectors.objectMatches(runLevel1Excluder, level2, null));
    assertTrue(Selectors.objectMatches(runLevel1Excluder, null, level2));
    assertFalse(Selectors.objectMatches(runLevel1Excluder, level1, null));
    assertFalse(Selectors.objectMatches(runLevel1Excluder, null, level1));
    // Without an object (Kubernetes: one that is not an Object) a selector matches nothing.
    assertFalse(Selectors.objectMatches(runLevel1Excluder, null, null));
  }
}
