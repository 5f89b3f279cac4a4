package dev.machinery.apiserver.registry.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.unversioned.validation.FieldError;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What a webhook configuration is refused for when written, with the cases and texts of Kubernetes'
 * {@code pkg/apis/admissionregistration/validation/validation_test.go}.
 */
class WebhookValidationTest {
  /** A valid webhook, changed by the case. */
  private static String problems(Consumer<ObjectNode> change) {
    ObjectNode configuration = Json.MAPPER.createObjectNode();
    configuration.putObject("metadata").put("name", "config");
    ObjectNode hook = configuration.putArray("webhooks").addObject();
    hook.put("name", "webhook.k8s.io");
    hook.putObject("clientConfig").put("url", "https://example.com");
    ObjectNode rule = hook.putArray("rules").addObject();
    rule.putArray("operations").add("CREATE");
    rule.putArray("apiGroups").add("a");
    rule.putArray("apiVersions").add("a");
    rule.putArray("resources").add("a");
    hook.put("sideEffects", "None");
    hook.putArray("admissionReviewVersions").add("v1");
    change.accept(hook);
    List<FieldError> errors = WebhookValidation.validate(configuration, false, Optional.empty());
    return String.join(", ", errors.stream().map(FieldError::toString).toList());
  }

  private static ObjectNode client(ObjectNode hook) {
    return (ObjectNode) hook.get("clientConfig");
  }

  @Test
  void valid() {
    assertEquals("", problems(h -> {}));
    assertEquals("", problems(h -> h.put("timeoutSeconds", 30)));
    assertEquals(
        "",
        problems(
            h ->
                client(h)
                    .removeAll()
                    .putObject("service")
                    .put("namespace", "ns")
                    .put("name", "n")
                    .put("path", "/")
                    .put("port", 443)));
    assertEquals(
        "",
        problems(
            h ->
                client(h)
                    .removeAll()
                    .putObject("service")
                    .put("namespace", "ns")
                    .put("name", "n")
                    .put("path", "/foo")));
  }

  @Test
  void clientConfig() {
    assertEquals(
        "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
        problems(h -> client(h).remove("url")));
    assertEquals(
        "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
        problems(h -> client(h).putObject("service").put("namespace", "ns").put("name", "n")));
    assertEquals(
        "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL"
            + " scheme",
        problems(h -> client(h).put("url", "http://example.com")));
    assertEquals(
        "webhooks[0].clientConfig.url: Invalid value: \"\": host must be specified",
        problems(h -> client(h).put("url", "https:///fancy/webhook")));
    assertEquals(
        "webhooks[0].clientConfig.url: Invalid value: \"bookmark\": fragments are not permitted in"
            + " the URL",
        problems(h -> client(h).put("url", "https://example.com/#bookmark")));
    assertEquals(
        "webhooks[0].clientConfig.url: Invalid value: \"arg=value\": query parameters are not"
            + " permitted in the URL",
        problems(h -> client(h).put("url", "https://example.com?arg=value")));
    assertEquals(
        "webhooks[0].clientConfig.url: Invalid value: \"harry.potter\": user information is not"
            + " permitted in the URL",
        problems(h -> client(h).put("url", "https://harry.potter@example.com/")));
    ObjectNode service = Json.MAPPER.createObjectNode().put("namespace", "ns").put("name", "n");
    assertEquals(
        "webhooks[0].clientConfig.service.path: Invalid value: \"foo/\": must start with a '/'",
        problems(
            h -> client(h).removeAll().set("service", service.deepCopy().put("path", "foo/"))));
    assertEquals(
        "webhooks[0].clientConfig.service.path: Invalid value: \"//\": segment[0] may not be empty",
        problems(h -> client(h).removeAll().set("service", service.deepCopy().put("path", "//"))));
    assertEquals(
        "webhooks[0].clientConfig.service.path: Invalid value: \"/foo//bar/\": segment[1] may not"
            + " be empty",
        problems(
            h ->
                client(h)
                    .removeAll()
                    .set("service", service.deepCopy().put("path", "/foo//bar/"))));
    assertEquals(
        "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be"
            + " between 1 and 65535, inclusive",
        problems(h -> client(h).removeAll().set("service", service.deepCopy().put("port", 0))));
    assertEquals(
        "webhooks[0].clientConfig.service.port: Invalid value: 65536: port is not valid: must be"
            + " between 1 and 65535, inclusive",
        problems(h -> client(h).removeAll().set("service", service.deepCopy().put("port", 65536))));
  }

  @Test
  void policiesAndTimeouts() {
    for (int seconds : new int[] {31, 0, -1}) {
      assertEquals(
          "webhooks[0].timeoutSeconds: Invalid value: "
              + seconds
              + ": the timeout value must be between 1 and 30 seconds",
          problems(h -> h.put("timeoutSeconds", seconds)));
    }
    assertEquals(
        "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
        problems(h -> h.remove("sideEffects")));
    assertEquals(
        "webhooks[0].sideEffects: Unsupported value: \"other\": supported values: \"None\","
            + " \"NoneOnDryRun\"",
        problems(h -> h.put("sideEffects", "other")));
    assertEquals(
        "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
        problems(h -> h.remove("admissionReviewVersions")));
    assertEquals(
        "webhooks[0].failurePolicy: Unsupported value: \"fail\": supported values: \"Fail\","
            + " \"Ignore\"",
        problems(h -> h.put("failurePolicy", "fail")));
  }

  @Test
  void matchConditions() {
    assertEquals(
        "webhooks[0].matchConditions[0].name: Required value",
        problems(h -> h.putArray("matchConditions").addObject().put("expression", "true")));
    assertEquals(
        "webhooks[0].matchConditions[0].name: Invalid value: \"-hello\": name part must consist of"
            + " alphanumeric characters, '-', '_' or '.', and must start and end with an"
            + " alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used"
            + " for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        problems(
            h ->
                h.putArray("matchConditions")
                    .addObject()
                    .put("name", "-hello")
                    .put("expression", "true")));
    assertEquals(
        "webhooks[0].matchConditions[0].expression: Required value",
        problems(h -> h.putArray("matchConditions").addObject().put("name", "webhook.k8s.io")));
    assertEquals(
        "webhooks[0].matchConditions[1].name: Duplicate value: \"webhook.k8s.io\"",
        problems(
            h -> {
              ArrayNode list = h.putArray("matchConditions");
              list.addObject().put("name", "webhook.k8s.io").put("expression", "true");
              list.addObject().put("name", "webhook.k8s.io").put("expression", "true");
            }));
    assertEquals(
        "webhooks[0].matchConditions: Too many: 65: must have at most 64 items",
        problems(
            h -> {
              ArrayNode list = h.putArray("matchConditions");
              for (int i = 0; i < 65; i++) {
                list.addObject().put("name", "c" + i).put("expression", "true");
              }
            }));
  }
}
