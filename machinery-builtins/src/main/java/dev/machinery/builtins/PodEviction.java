package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.apiserver.registry.rest.SubresourceCall;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's {@code eviction} subresource (POST a {@code policy/v1} Eviction), as kube-apiserver's
 * {@code EvictionREST}: the pod is deleted with the eviction's {@code deleteOptions} unless that
 * would violate the PodDisruptionBudget selecting it.
 *
 * <ul>
 *   <li>The Eviction's name must be the pod's: {@code 400 name in URL does not match name in
 *       Eviction object}.
 *   <li>A pod that is {@code Pending}, {@code Succeeded}, {@code Failed} or already being deleted
 *       is deleted without looking at budgets; so is one no budget selects (a budget with an empty
 *       selector selects nothing here).
 *   <li>More than one budget: {@code 500 This pod has more than one PodDisruptionBudget, which the
 *       eviction subresource does not support.}
 *   <li>A pod that is not ready is deleted without spending the budget when its {@code
 *       unhealthyPodEvictionPolicy} is {@code AlwaysAllow}, or (the default {@code
 *       IfHealthyBudget}) when {@code currentHealthy >= desiredHealthy > 0}.
 *   <li>Else the budget is checked and spent: {@code observedGeneration} behind the generation is
 *       {@code 429} with the cause {@code DisruptionBudget} ("is still being processed by the
 *       server", retry after 10s); a negative {@code disruptionsAllowed} or more than 2000 {@code
 *       disruptedPods} is {@code 403}; {@code disruptionsAllowed: 0} is {@code 429 Cannot evict pod
 *       as it would violate the pod's disruption budget.} with the cause {@code DisruptionBudget}
 *       ("The disruption budget NAME needs D healthy pods and has C currently"). Otherwise {@code
 *       disruptionsAllowed} is decremented (the {@code DisruptionAllowed} condition turned {@code
 *       False}/{@code InsufficientPods} at 0) and the pod recorded in {@code disruptedPods},
 *       written under compare-and-swap (retried on conflict), before the pod is deleted. A dry run
 *       changes nothing.
 *   <li>Before the delete, the pod gets the condition {@code DisruptionTarget} ({@code True},
 *       {@code EvictionByEvictionAPI}, "Eviction API: evicting"); the answer is {@code 201} with a
 *       {@code Success} Status.
 * </ul>
 *
 * <p>Reads and writes go through the server's loopback handler. Stateless; thread-safe.
 */
final class PodEviction {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** kube's {@code MaxDisruptedPodSize}. */
  static final int MAX_DISRUPTED_POD_SIZE = 2000;

  static final String TOO_MANY =
      "Cannot evict pod as it would violate the pod's disruption budget.";

  private static final int CONFLICT_RETRIES = 20;

  private PodEviction() {}

  /** The subresource's action, for the pods' definition. */
  static SubresourceAction action() {
    return new SubresourceAction(
        GroupVersion.of("policy", "v1").withKind("Eviction"),
        List.of("create"),
        PodEviction::evict);
  }

  static SubresourceAction.Response evict(SubresourceCall call) {
    ObjectNode eviction =
        call.body().orElseThrow(() -> ApiErrors.newBadRequest("an Eviction is expected"));
    String name = eviction.path("metadata").path("name").asText("");
    if (!name.isEmpty() && !name.equals(call.name())) {
      throw ApiErrors.newBadRequest("name in URL does not match name in Eviction object");
    }
    String namespace = call.namespace();
    ObjectNode pod = call.parent();
    JsonNode deleteOptions = eviction.path("deleteOptions");
    ObjectNode options =
        deleteOptions.isObject()
            ? ((ObjectNode) deleteOptions).deepCopy()
            : JSON.createObjectNode();
    boolean dryRun = call.dryRun() || dryRunIn(options);
    ApiHandler loopback = call.loopback();
    if (!canIgnoreBudget(pod)) {
      List<ObjectNode> budgets = budgetsOf(loopback, namespace, pod);
      if (budgets.size() > 1) {
        Status status = new Status();
        status.setStatus("Failure");
        status.setMessage(
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does"
                + " not support.");
        status.setCode(500);
        throw new StatusException(status);
      }
      if (budgets.size() == 1) {
        ObjectNode budget = budgets.get(0);
        if (!mayEvictUnhealthy(pod, budget)) {
          spend(loopback, namespace, call.name(), budget, dryRun);
        }
      }
    }
    if (!dryRun) {
      markDisruptionTarget(loopback, namespace, call.name());
      delete(loopback, namespace, call.name(), options, call.dryRun());
    }
    ObjectNode success = JSON.createObjectNode();
    success.put("kind", "Status");
    success.put("apiVersion", "v1");
    success.putObject("metadata");
    success.put("status", "Success");
    return new SubresourceAction.Response(201, success);
  }

  private static boolean dryRunIn(ObjectNode options) {
    for (JsonNode value : options.path("dryRun")) {
      if ("All".equals(value.asText())) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code canIgnorePDB}. */
  static boolean canIgnoreBudget(JsonNode pod) {
    String phase = pod.path("status").path("phase").asText("");
    return phase.equals("Succeeded")
        || phase.equals("Failed")
        || phase.equals("Pending")
        || !pod.path("metadata").path("deletionTimestamp").asText("").isEmpty();
  }

  static boolean isReady(JsonNode pod) {
    for (JsonNode condition : pod.path("status").path("conditions")) {
      if ("Ready".equals(condition.path("type").asText())) {
        return "True".equals(condition.path("status").asText());
      }
    }
    return false;
  }

  /** Whether an unready pod may go without spending the budget. */
  static boolean mayEvictUnhealthy(JsonNode pod, JsonNode budget) {
    if (isReady(pod)) {
      return false;
    }
    if ("AlwaysAllow".equals(budget.path("spec").path("unhealthyPodEvictionPolicy").asText())) {
      return true;
    }
    JsonNode status = budget.path("status");
    int current = status.path("currentHealthy").asInt(0);
    int desired = status.path("desiredHealthy").asInt(0);
    return current >= desired && desired > 0;
  }

  private static List<ObjectNode> budgetsOf(ApiHandler loopback, String namespace, JsonNode pod) {
    JsonNode list =
        read(
            loopback,
            "GET",
            "/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets",
            null);
    Map<String, String> labels = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> label : pod.path("metadata").path("labels").properties()) {
      labels.put(label.getKey(), label.getValue().asText());
    }
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode budget : list.path("items")) {
      JsonNode selectorNode = budget.path("spec").path("selector");
      if (!selectorNode.isObject()) {
        continue;
      }
      Selector selector;
      try {
        selector = LabelSelectors.toSelector(JSON.treeToValue(selectorNode, LabelSelector.class));
      } catch (IOException | RuntimeException e) {
        continue;
      }
      // A budget with an empty selector matches nothing here, not everything.
      if (selector.isEmpty() || !selector.matches(labels)) {
        continue;
      }
      out.add((ObjectNode) budget);
    }
    return out;
  }

  /** kube's {@code checkAndDecrement}, retried with a fresh read on conflict. */
  private static void spend(
      ApiHandler loopback, String namespace, String podName, ObjectNode budget, boolean dryRun) {
    ObjectNode current = budget;
    for (int attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
      ObjectNode updated = checkAndDecrement(current, podName, Instant.now());
      if (dryRun) {
        return;
      }
      String path =
          "/apis/policy/v1/namespaces/"
              + namespace
              + "/poddisruptionbudgets/"
              + current.path("metadata").path("name").asText()
              + "/status";
      ApiResponse response = send(loopback, "PUT", path, updated);
      if (response.status() / 100 == 2) {
        return;
      }
      Status status = status(response);
      if (status.getCode() != 409) {
        throw new StatusException(status);
      }
      current =
          (ObjectNode)
              read(
                  loopback,
                  "GET",
                  "/apis/policy/v1/namespaces/"
                      + namespace
                      + "/poddisruptionbudgets/"
                      + current.path("metadata").path("name").asText(),
                  null);
    }
    throw ApiErrors.newTimeout(
        "couldn't update PodDisruptionBudget \""
            + budget.path("metadata").path("name").asText()
            + "\" due to conflicts",
        10);
  }

  /**
   * Checks a budget for one more disruption and returns it spent, or throws kube's refusal.
   *
   * @param budget the budget as stored (not changed)
   * @param podName the pod to record in {@code disruptedPods}
   * @param now the time recorded
   * @return the budget with its status spent
   */
  static ObjectNode checkAndDecrement(ObjectNode budget, String podName, Instant now) {
    String name = budget.path("metadata").path("name").asText();
    JsonNode status = budget.path("status");
    long generation = budget.path("metadata").path("generation").asLong(0);
    if (status.path("observedGeneration").asLong(0) < generation) {
      throw tooManyRequests(
          10, "The disruption budget " + name + " is still being processed by the server.");
    }
    int allowed = status.path("disruptionsAllowed").asInt(0);
    GroupResource budgets = new GroupResource("policy", "poddisruptionbudget");
    if (allowed < 0) {
      throw ApiErrors.newForbidden(budgets, name, "pdb disruptions allowed is negative");
    }
    if (status.path("disruptedPods").size() > MAX_DISRUPTED_POD_SIZE) {
      throw ApiErrors.newForbidden(
          budgets,
          name,
          "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
    }
    if (allowed == 0) {
      throw tooManyRequests(
          0,
          "The disruption budget "
              + name
              + " needs "
              + status.path("desiredHealthy").asInt(0)
              + " healthy pods and has "
              + status.path("currentHealthy").asInt(0)
              + " currently");
    }
    ObjectNode spent = budget.deepCopy();
    ObjectNode newStatus = spent.withObject("/status");
    newStatus.put("disruptionsAllowed", allowed - 1);
    if (allowed - 1 == 0) {
      insufficient(newStatus);
    }
    newStatus
        .withObject("/disruptedPods")
        .put(podName, now.truncatedTo(ChronoUnit.SECONDS).toString());
    return spent;
  }

  /** kube's {@code UpdateDisruptionAllowedCondition} at 0 disruptions allowed. */
  private static void insufficient(ObjectNode status) {
    ArrayNode conditions = status.withArray("/conditions");
    long observed = status.path("observedGeneration").asLong(0);
    for (JsonNode condition : conditions) {
      if ("DisruptionAllowed".equals(condition.path("type").asText())) {
        ObjectNode c = (ObjectNode) condition;
        if (!"False".equals(c.path("status").asText())) {
          c.put("lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        }
        c.put("status", "False");
        c.put("reason", "InsufficientPods");
        c.put("message", "");
        c.put("observedGeneration", observed);
        return;
      }
    }
    ObjectNode c = conditions.addObject();
    c.put("type", "DisruptionAllowed");
    c.put("status", "False");
    c.put("reason", "InsufficientPods");
    c.put("message", "");
    c.put("observedGeneration", observed);
    c.put("lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
  }

  private static StatusException tooManyRequests(int retryAfter, String causeMessage) {
    // The exception holds a copy: the causes are added to a Status made from it.
    Status status = ApiErrors.newTooManyRequests(TOO_MANY, retryAfter).status();
    StatusCause cause = new StatusCause();
    cause.setReason("DisruptionBudget");
    cause.setMessage(causeMessage);
    List<StatusCause> causes = new ArrayList<>();
    if (status.getDetails().getCauses() != null) {
      causes.addAll(status.getDetails().getCauses());
    }
    causes.add(cause);
    status.getDetails().setCauses(causes);
    return new StatusException(status);
  }

  /** Adds the {@code DisruptionTarget} condition to the pod's status, as kube before the delete. */
  private static void markDisruptionTarget(ApiHandler loopback, String namespace, String name) {
    String path = "/api/v1/namespaces/" + namespace + "/pods/" + name;
    for (int attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
      ObjectNode pod = (ObjectNode) read(loopback, "GET", path, null);
      ArrayNode conditions = pod.withObject("/status").withArray("/conditions");
      ObjectNode target = null;
      for (JsonNode condition : conditions) {
        if ("DisruptionTarget".equals(condition.path("type").asText())) {
          target = (ObjectNode) condition;
        }
      }
      if (target == null) {
        target = conditions.addObject();
        target.put("type", "DisruptionTarget");
      }
      if (!"True".equals(target.path("status").asText())) {
        target.put("lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
      }
      target.put("status", "True");
      target.put("reason", "EvictionByEvictionAPI");
      target.put("message", "Eviction API: evicting");
      ApiResponse response = send(loopback, "PUT", path + "/status", pod);
      if (response.status() / 100 == 2 || response.status() == 404) {
        return;
      }
      Status status = status(response);
      if (status.getCode() != 409) {
        throw new StatusException(status);
      }
    }
  }

  private static void delete(
      ApiHandler loopback, String namespace, String name, ObjectNode options, boolean dryRun) {
    options.put("kind", "DeleteOptions");
    options.put("apiVersion", "v1");
    if (dryRun) {
      options.putArray("dryRun").add("All");
    }
    read(loopback, "DELETE", "/api/v1/namespaces/" + namespace + "/pods/" + name, options);
  }

  private static JsonNode read(ApiHandler loopback, String method, String path, JsonNode body) {
    ApiResponse response = send(loopback, method, path, body);
    if (response.status() / 100 != 2) {
      throw new StatusException(status(response));
    }
    try {
      return JSON.readTree(text(response));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ApiResponse send(ApiHandler loopback, String method, String path, JsonNode body) {
    byte[] bytes;
    try {
      bytes = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, List<String>> headers =
        body == null
            ? Map.of("Accept", List.of("application/json"))
            : Map.of(
                "Accept", List.of("application/json"), "Content-Type", List.of("application/json"));
    return loopback.handle(
        new ApiRequest(method, path, Map.of(), headers, new ByteArrayInputStream(bytes)));
  }

  private static String text(ApiResponse response) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      response.writeBody(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static Status status(ApiResponse response) {
    String text = text(response);
    try {
      Status status = JSON.readValue(text, Status.class);
      if (status.getCode() == 0) {
        status.setCode(response.status());
      }
      return status;
    } catch (IOException e) {
      Status status = new Status();
      status.setStatus("Failure");
      status.setCode(response.status());
      status.setMessage(text);
      return status;
    }
  }
}
