package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.unversioned.labels.Selector;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's {@code predicates/object} and {@code predicates/namespace} matchers: a webhook's
 * object selector matches the labels of the new object or of the old one; its namespace selector
 * matches the labels of the request's namespace, of the Namespace itself for a request on
 * Namespaces, and every request on other cluster-scoped resources.
 */
final class Selectors {
  private Selectors() {}

  /**
   * Whether the object selector matches.
   *
   * @param selector the selector
   * @param object the new object, or {@code null}
   * @param old the old object, or {@code null}
   * @return whether the webhook is called
   */
  static boolean objectMatches(Selector selector, ObjectNode object, ObjectNode old) {
    if (selector.isEmpty()) {
      return true;
    }
    return object != null && selector.matches(labels(object))
        || old != null && selector.matches(labels(old));
  }

  /**
   * Whether the namespace selector matches.
   *
   * @param selector the selector
   * @param request the write
   * @param source the namespaces
   * @return whether the webhook is called
   * @throws IllegalStateException when the request's namespace does not exist
   */
  static Optional<Boolean> namespaceMatches(
      Selector selector, WebhookAdmission.Request request, WebhookAdmission.Source source) {
    boolean namespaceItself =
        request.kind().group().isEmpty() && request.resource().equals("namespaces");
    if (request.namespace().isEmpty() && !namespaceItself) {
      return Optional.of(true);
    }
    if (selector.isEmpty()) {
      return Optional.of(true);
    }
    if (namespaceItself) {
      ObjectNode object =
          request.operation() == Operation.DELETE || request.object() == null
              ? request.oldObject()
              : request.object();
      return Optional.of(selector.matches(object == null ? Map.of() : labels(object)));
    }
    Map<String, String> labels =
        source
            .namespaceLabels(request.namespace())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "namespaces \"" + request.namespace() + "\" not found"));
    return Optional.of(selector.matches(labels));
  }

  static Map<String, String> labels(JsonNode object) {
    Map<String, String> labels = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : object.path("metadata").path("labels").properties()) {
      labels.put(e.getKey(), e.getValue().asText());
    }
    return labels;
  }
}
