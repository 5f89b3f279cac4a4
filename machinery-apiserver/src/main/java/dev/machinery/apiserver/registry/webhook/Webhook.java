package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One webhook of a MutatingWebhookConfiguration or ValidatingWebhookConfiguration, read from its
 * JSON with {@code admissionregistration.k8s.io/v1}'s defaults: {@code failurePolicy: Fail}, {@code
 * matchPolicy: Equivalent}, selectors that select everything, {@code timeoutSeconds: 10} (at most
 * 30), {@code reinvocationPolicy: Never}. A webhook that cannot be called as written (no URL or
 * service, a CA bundle that is not PEM) keeps the problem in {@link #problem}, naming the field; a
 * call to it fails under its failure policy. Immutable.
 *
 * @param configuration the configuration's name
 * @param index the webhook's index in the configuration
 * @param name the webhook's name
 * @param mutating whether it is a mutating webhook
 * @param rules its rules
 * @param exactMatch {@code matchPolicy: Exact}
 * @param namespaceSelector the namespace selector
 * @param objectSelector the object selector
 * @param failOpen {@code failurePolicy: Ignore}
 * @param sideEffects {@code None}, {@code NoneOnDryRun}, {@code Some} or {@code Unknown}
 * @param timeout the call's timeout
 * @param reviewVersions the {@code admissionReviewVersions}
 * @param reinvokeIfNeeded {@code reinvocationPolicy: IfNeeded}
 * @param url the URL, or {@code null} for a service reference
 * @param service the service reference ({@code namespace}, {@code name}, {@code path}, {@code
 *     port}), or {@code null}
 * @param caBundle the PEM certificates to trust, or {@code null} for the JDK's authorities
 * @param conditions the match conditions
 * @param problem why the webhook cannot be called, or {@code null}
 */
public record Webhook(
    String configuration,
    int index,
    String name,
    boolean mutating,
    List<Rule> rules,
    boolean exactMatch,
    Selector namespaceSelector,
    Selector objectSelector,
    boolean failOpen,
    String sideEffects,
    Duration timeout,
    List<String> reviewVersions,
    boolean reinvokeIfNeeded,
    String url,
    ServiceRef service,
    String caBundle,
    List<MatchConditions.Condition> conditions,
    String problem) {

  /** The most seconds a webhook may be waited for. */
  public static final int MAX_TIMEOUT_SECONDS = 30;

  /** The seconds a webhook is waited for when its configuration names none. */
  public static final int DEFAULT_TIMEOUT_SECONDS = 10;

  /**
   * A {@code clientConfig.service}. Immutable.
   *
   * @param namespace the namespace
   * @param name the name
   * @param path the path, {@code ""} for none
   * @param port the port, 443 by default
   */
  public record ServiceRef(String namespace, String name, String path, int port) {}

  /**
   * Reads the webhooks of a configuration.
   *
   * @param configuration the configuration's JSON
   * @param mutating whether it is a MutatingWebhookConfiguration
   * @return its webhooks, in order
   */
  public static List<Webhook> read(JsonNode configuration, boolean mutating) {
    String configName = configuration.path("metadata").path("name").asText("");
    List<Webhook> webhooks = new ArrayList<>();
    JsonNode list = configuration.path("webhooks");
    for (int i = 0; i < list.size(); i++) {
      webhooks.add(one(configName, i, list.get(i), mutating));
    }
    return List.copyOf(webhooks);
  }

  private static Webhook one(String configName, int index, JsonNode hook, boolean mutating) {
    String at = "webhooks[" + index + "]";
    List<String> problems = new ArrayList<>();
    List<Rule> rules = new ArrayList<>();
    JsonNode ruleList = hook.path("rules");
    for (int i = 0; i < ruleList.size(); i++) {
      JsonNode rule = ruleList.get(i);
      rules.add(
          new Rule(
              strings(rule.path("operations")),
              strings(rule.path("apiGroups")),
              strings(rule.path("apiVersions")),
              strings(rule.path("resources")),
              rule.path("scope").asText("*")));
    }
    Selector namespaceSelector =
        selector(hook.get("namespaceSelector"), at + ".namespaceSelector", problems);
    Selector objectSelector =
        selector(hook.get("objectSelector"), at + ".objectSelector", problems);
    String failurePolicy = hook.path("failurePolicy").asText("Fail");
    if (!failurePolicy.equals("Fail") && !failurePolicy.equals("Ignore")) {
      problems.add(
          at
              + ".failurePolicy: Unsupported value: \""
              + failurePolicy
              + "\": supported values: \"Fail\", \"Ignore\"");
    }
    String matchPolicy = hook.path("matchPolicy").asText("Equivalent");
    int seconds = hook.path("timeoutSeconds").asInt(DEFAULT_TIMEOUT_SECONDS);
    if (seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) {
      problems.add(
          at
              + ".timeoutSeconds: Invalid value: "
              + seconds
              + ": the timeout value must be between 1 and 30 seconds");
      seconds = Math.max(1, Math.min(MAX_TIMEOUT_SECONDS, seconds));
    }
    List<String> versions = strings(hook.path("admissionReviewVersions"));
    if (versions.isEmpty()) {
      versions = List.of("v1");
    }
    JsonNode client = hook.path("clientConfig");
    String url = client.hasNonNull("url") ? client.get("url").asText() : null;
    ServiceRef service = null;
    if (client.hasNonNull("service")) {
      JsonNode s = client.get("service");
      service =
          new ServiceRef(
              s.path("namespace").asText(""),
              s.path("name").asText(""),
              s.path("path").asText(""),
              s.path("port").asInt(443));
    }
    if ((url == null) == (service == null)) {
      problems.add(at + ".clientConfig: Required value: exactly one of url or service is required");
    }
    String caBundle = null;
    if (client.hasNonNull("caBundle") && !client.get("caBundle").asText().isEmpty()) {
      try {
        caBundle =
            new String(
                Base64.getDecoder().decode(client.get("caBundle").asText()),
                java.nio.charset.StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        problems.add(at + ".clientConfig.caBundle: Invalid value: not base64: " + e.getMessage());
      }
    }
    List<MatchConditions.Condition> conditions = new ArrayList<>();
    JsonNode conditionList = hook.path("matchConditions");
    for (int i = 0; i < conditionList.size(); i++) {
      conditions.add(
          new MatchConditions.Condition(
              conditionList.get(i).path("name").asText(""),
              conditionList.get(i).path("expression").asText("")));
    }
    return new Webhook(
        configName,
        index,
        hook.path("name").asText(""),
        mutating,
        rules,
        matchPolicy.equals("Exact"),
        namespaceSelector,
        objectSelector,
        failurePolicy.equals("Ignore"),
        hook.path("sideEffects").asText("Unknown"),
        Duration.ofSeconds(seconds),
        versions,
        hook.path("reinvocationPolicy").asText("Never").equals("IfNeeded"),
        url,
        service,
        caBundle,
        List.copyOf(conditions),
        problems.isEmpty() ? null : String.join("; ", problems));
  }

  /** kube-apiserver's {@code LabelSelectorAsSelector}: absent is everything here (defaulted). */
  private static Selector selector(JsonNode node, String at, List<String> problems) {
    if (node == null || node.isNull()) {
      return Selector.everything();
    }
    try {
      LabelSelector selector = Json.MAPPER.treeToValue(node, LabelSelector.class);
      return LabelSelectors.toSelector(selector);
    } catch (Exception e) {
      problems.add(at + ": Invalid value: " + e.getMessage());
      return Selector.nothing();
    }
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (JsonNode each : node) {
      out.add(each.asText());
    }
    return out;
  }
}
