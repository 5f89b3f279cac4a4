package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks kube-apiserver makes of a MutatingWebhookConfiguration or
 * ValidatingWebhookConfiguration when it is written (its {@code admissionregistration} validation):
 * a configuration the server could not call as written is refused {@code 422 Invalid}, each problem
 * at its field, in kube-apiserver's words. Stateless.
 */
public final class WebhookValidation {
  private static final Pattern QUALIFIED_NAME =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final String QUALIFIED_NAME_MESSAGE =
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end"
          + " with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex"
          + " used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  private static final int MAX_MATCH_CONDITIONS = 64;

  private WebhookValidation() {}

  /**
   * Checks a configuration.
   *
   * @param configuration the configuration's JSON
   * @param mutating whether it is a MutatingWebhookConfiguration
   * @param conditions compiles match conditions, if the server has an implementation
   * @return every problem, empty when it may be stored
   */
  public static List<FieldError> validate(
      JsonNode configuration, boolean mutating, Optional<MatchConditions> conditions) {
    List<FieldError> errors = new ArrayList<>();
    JsonNode webhooks = configuration.path("webhooks");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < webhooks.size(); i++) {
      FieldPath at = FieldPath.of("webhooks").index(i);
      JsonNode hook = webhooks.get(i);
      String name = hook.path("name").asText("");
      if (name.isEmpty()) {
        errors.add(FieldError.required(at.child("name"), ""));
      } else if (!names.add(name)) {
        errors.add(FieldError.duplicate(at.child("name"), name));
      }
      rules(hook.path("rules"), at.child("rules"), errors);
      clientConfig(hook.path("clientConfig"), at.child("clientConfig"), errors);
      oneOf(hook, "failurePolicy", at, List.of("Fail", "Ignore"), errors);
      oneOf(hook, "matchPolicy", at, List.of("Equivalent", "Exact"), errors);
      if (mutating) {
        oneOf(hook, "reinvocationPolicy", at, List.of("IfNeeded", "Never"), errors);
      }
      JsonNode sideEffects = hook.get("sideEffects");
      if (sideEffects == null || sideEffects.isNull()) {
        errors.add(
            FieldError.required(at.child("sideEffects"), "must specify one of None, NoneOnDryRun"));
      } else if (!List.of("None", "NoneOnDryRun").contains(sideEffects.asText())) {
        errors.add(
            FieldError.notSupported(
                at.child("sideEffects"), sideEffects.asText(), List.of("None", "NoneOnDryRun")));
      }
      JsonNode timeout = hook.get("timeoutSeconds");
      if (timeout != null && !timeout.isNull()) {
        int seconds = timeout.asInt();
        if (seconds < 1 || seconds > Webhook.MAX_TIMEOUT_SECONDS) {
          errors.add(
              FieldError.invalid(
                  at.child("timeoutSeconds"),
                  seconds,
                  "the timeout value must be between 1 and 30 seconds"));
        }
      }
      reviewVersions(hook.path("admissionReviewVersions"), at, errors);
      matchConditions(
          hook.path("matchConditions"), at.child("matchConditions"), conditions, errors);
    }
    return errors;
  }

  private static void oneOf(
      JsonNode hook, String field, FieldPath at, List<String> supported, List<FieldError> errors) {
    JsonNode value = hook.get(field);
    if (value != null && !value.isNull() && !supported.contains(value.asText())) {
      errors.add(FieldError.notSupported(at.child(field), value.asText(), supported));
    }
  }

  private static void rules(JsonNode rules, FieldPath at, List<FieldError> errors) {
    for (int i = 0; i < rules.size(); i++) {
      JsonNode rule = rules.get(i);
      FieldPath path = at.index(i);
      JsonNode operations = rule.path("operations");
      if (operations.isEmpty()) {
        errors.add(FieldError.required(path.child("operations"), ""));
      }
      for (int j = 0; j < operations.size(); j++) {
        String operation = operations.get(j).asText();
        List<String> supported = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
        if (!supported.contains(operation)) {
          errors.add(
              FieldError.notSupported(path.child("operations").index(j), operation, supported));
        }
      }
      for (String list : List.of("apiGroups", "apiVersions", "resources")) {
        if (rule.path(list).isEmpty()) {
          errors.add(FieldError.required(path.child(list), ""));
        }
      }
      oneOf(rule, "scope", path, List.of("*", "Cluster", "Namespaced"), errors);
    }
  }

  private static void clientConfig(JsonNode config, FieldPath at, List<FieldError> errors) {
    boolean url = config.hasNonNull("url");
    boolean service = config.hasNonNull("service");
    if (url == service) {
      errors.add(FieldError.required(at, "exactly one of url or service is required"));
      return;
    }
    if (url) {
      String text = config.get("url").asText();
      FieldPath path = at.child("url");
      URI uri;
      try {
        uri = new URI(text);
      } catch (URISyntaxException e) {
        errors.add(FieldError.invalid(path, text, "host must be specified"));
        return;
      }
      if (!"https".equals(uri.getScheme())) {
        errors.add(
            FieldError.invalid(
                path,
                uri.getScheme() == null ? "" : uri.getScheme(),
                "'https' is the only allowed URL scheme"));
      }
      if (uri.getRawAuthority() == null || uri.getRawAuthority().isEmpty()) {
        errors.add(FieldError.invalid(path, "", "host must be specified"));
      }
      if (uri.getRawUserInfo() != null) {
        errors.add(
            FieldError.invalid(
                path, uri.getRawUserInfo(), "user information is not permitted in the URL"));
      }
      if (uri.getRawFragment() != null) {
        errors.add(
            FieldError.invalid(
                path, uri.getRawFragment(), "fragments are not permitted in the URL"));
      }
      if (uri.getRawQuery() != null) {
        errors.add(
            FieldError.invalid(
                path, uri.getRawQuery(), "query parameters are not permitted in the URL"));
      }
    } else {
      JsonNode ref = config.get("service");
      FieldPath path = at.child("service");
      if (ref.path("namespace").asText("").isEmpty()) {
        errors.add(FieldError.required(path.child("namespace"), "service namespace is required"));
      }
      if (ref.path("name").asText("").isEmpty()) {
        errors.add(FieldError.required(path.child("name"), "service name is required"));
      }
      String servicePath = ref.path("path").asText("");
      if (ref.hasNonNull("path")) {
        if (!servicePath.startsWith("/")) {
          errors.add(FieldError.invalid(path.child("path"), servicePath, "must start with a '/'"));
        } else if (!servicePath.equals("/")) {
          String[] segments = servicePath.substring(1).split("/", -1);
          for (int i = 0; i < segments.length; i++) {
            if (segments[i].isEmpty() && i < segments.length - 1) {
              errors.add(
                  FieldError.invalid(
                      path.child("path"), servicePath, "segment[" + i + "] may not be empty"));
              break;
            }
          }
        }
      }
      int port = ref.path("port").asInt(443);
      if (port < 1 || port > 65535) {
        errors.add(
            FieldError.invalid(
                path.child("port"),
                port,
                "port is not valid: must be between 1 and 65535, inclusive"));
      }
    }
  }

  private static void reviewVersions(JsonNode versions, FieldPath at, List<FieldError> errors) {
    boolean known = false;
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < versions.size(); i++) {
      String version = versions.get(i).asText();
      if (!seen.add(version)) {
        errors.add(FieldError.duplicate(at.child("admissionReviewVersions").index(i), version));
      }
      known |= version.equals("v1") || version.equals("v1beta1");
    }
    if (!known) {
      errors.add(
          FieldError.required(
              at.child("admissionReviewVersions"), "must specify one of v1, v1beta1"));
    }
  }

  private static void matchConditions(
      JsonNode list,
      FieldPath at,
      Optional<MatchConditions> implementation,
      List<FieldError> errors) {
    if (list.size() > MAX_MATCH_CONDITIONS) {
      errors.add(FieldError.tooMany(at, list.size(), MAX_MATCH_CONDITIONS));
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      FieldPath path = at.index(i);
      String name = list.get(i).path("name").asText("");
      String expression = list.get(i).path("expression").asText("");
      if (name.isEmpty()) {
        errors.add(FieldError.required(path.child("name"), ""));
      } else if (!QUALIFIED_NAME.matcher(name).matches() || name.length() > 63) {
        errors.add(FieldError.invalid(path.child("name"), name, QUALIFIED_NAME_MESSAGE));
      } else if (!names.add(name)) {
        errors.add(FieldError.duplicate(path.child("name"), name));
      }
      if (expression.isEmpty()) {
        errors.add(FieldError.required(path.child("expression"), ""));
      } else if (implementation.isPresent()) {
        try {
          implementation.get().compile(List.of(new MatchConditions.Condition(name, expression)));
        } catch (IllegalArgumentException e) {
          String prefix = "matchConditions[0].expression: Invalid value: \"" + expression + "\": ";
          String message = e.getMessage() == null ? "" : e.getMessage();
          errors.add(
              FieldError.invalid(
                  path.child("expression"),
                  expression,
                  message.startsWith(prefix) ? message.substring(prefix.length()) : message));
        }
      }
    }
  }
}
