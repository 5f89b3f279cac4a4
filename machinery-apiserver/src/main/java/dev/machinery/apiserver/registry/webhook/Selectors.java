package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import java.util.HashMap;
import java.util.Map;

/**
 * kube-apiserver's {@code predicates/object} and {@code predicates/namespace} matchers: a webhook's
 * object selector matches the labels of the new object or of the old one; its namespace selector
 * matches the labels of the request's namespace (read from storage; the new object's own for a
 * create or update of a Namespace) and every request on other cluster-scoped resources.
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
   * @throws dev.machinery.unversioned.errors.StatusException {@code 404} when the request's
   *     namespace does not exist, as kube-apiserver answers
   */
  static boolean namespaceMatches(
      Selector selector, WebhookAdmission.Request request, WebhookAdmission.Source source) {
    String namespace = WebhookAdmission.requestNamespace(request);
    if (namespace.isEmpty() && !request.resource().equals("namespaces")) {
      // A cluster-scoped resource other than Namespaces is never exempted.
      return true;
    }
    if (selector.isEmpty()) {
      return true;
    }
    if (request.resource().equals("namespaces")
        && request.subresource().isEmpty()
        && (request.operation() == Operation.CREATE || request.operation() == Operation.UPDATE)) {
      // The Namespace being created or updated: its own (new) labels.
      return selector.matches(request.object() == null ? Map.of() : labels(request.object()));
    }
    Map<String, String> labels =
        source
            .namespaceLabels(namespace)
            .orElseThrow(
                () -> ApiErrors.newNotFound(GroupResource.of("", "namespaces"), namespace));
    return selector.matches(labels);
  }

  static Map<String, String> labels(JsonNode object) {
    Map<String, String> labels = new HashMap<>();
    for (Map.Entry<String, JsonNode> e : object.path("metadata").path("labels").properties()) {
      labels.put(e.getKey(), e.getValue().asText());
    }
    return labels;
  }
}
