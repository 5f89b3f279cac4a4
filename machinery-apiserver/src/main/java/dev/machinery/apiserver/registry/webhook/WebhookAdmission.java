package dev.machinery.apiserver.registry.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.core.patch.JsonPatch;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * kube-apiserver's {@code MutatingAdmissionWebhook} and {@code ValidatingAdmissionWebhook}: for
 * each write, the webhooks of the configurations (sorted by name, each configuration's webhooks in
 * order) whose rules, selectors and match conditions match it are called with an {@code
 * AdmissionReview}. Mutating webhooks are called one after another, each seeing the object the one
 * before patched ({@code JSONPatch}), and those with {@code reinvocationPolicy: IfNeeded} once more
 * when a later webhook changed the object; validating webhooks are called at once, in parallel, and
 * the first refusal in webhook order is the answer. Refusals and failures are worded as
 * kube-apiserver words them; a webhook that fails to answer is skipped under {@code failurePolicy:
 * Ignore}. Thread-safe.
 */
public final class WebhookAdmission {
  private static final String ADMISSION_GROUP = "admissionregistration.k8s.io";

  private final Source source;
  private final WebhookClient client;
  private final Optional<MatchConditions> conditions;
  private final Supplier<Authorizer> authorizer;
  private final Map<List<MatchConditions.Condition>, Object> compiled = new ConcurrentHashMap<>();
  private final ExecutorService parallel;

  /** Where the webhooks and the labels of namespaces come from. Thread-safe. */
  public interface Source {
    /**
     * The webhooks of every configuration of one kind, as stored now, in the order they are called.
     *
     * @param mutating whether the mutating ones are wanted
     * @return the webhooks
     */
    List<Webhook> webhooks(boolean mutating);

    /**
     * The labels of a namespace.
     *
     * @param namespace the namespace's name
     * @return its labels, or empty when there is no such namespace
     */
    Optional<Map<String, String>> namespaceLabels(String namespace);
  }

  /** Converts an object between the versions its resource is served in. Thread-safe. */
  public interface Converter {
    /**
     * Converts an object's JSON.
     *
     * @param object the object's JSON, in some version of the resource
     * @param to the kind in the version wanted
     * @return the object's JSON in that version
     */
    ObjectNode convert(ObjectNode object, GroupVersionKind to);
  }

  /**
   * One write to admit, in the version the request was made in. Immutable as far as the webhook
   * admission goes: it never changes the objects it is given, and copies them to convert.
   *
   * <p>A subresource with a kind of its own (the {@code scale} subresource's {@code autoscaling/v1
   * Scale}) has that kind in {@code kind} and the resource's group and version in {@code
   * groupVersion}; under {@code matchPolicy: Equivalent} its kind stays the same in every version
   * of the resource, as kube-apiserver registers the kind of a custom resource's scale subresource,
   * and its objects are not converted.
   *
   * @param operation the operation
   * @param kind the kind of the objects: the resource's kind in the request's version, or the
   *     subresource's own kind
   * @param groupVersion the group and the version of the resource the request was made in
   * @param resource the resource's plural name
   * @param subresource the subresource, {@code ""} for none
   * @param namespace the namespace, {@code ""} for none
   * @param name the name, {@code ""} when not known yet
   * @param user the requester
   * @param dryRun whether nothing will be stored
   * @param object the new object, {@code null} on delete
   * @param oldObject the stored object, {@code null} on create
   * @param versions the versions the resource is served in, most preferred first (for {@code
   *     matchPolicy: Equivalent})
   * @param converter converts the objects into another of those versions
   * @param warnings takes each warning a webhook answers with
   * @param auditAnnotations takes each audit annotation (key, value)
   */
  public record Request(
      Operation operation,
      GroupVersionKind kind,
      GroupVersion groupVersion,
      String resource,
      String subresource,
      String namespace,
      String name,
      UserInfo user,
      boolean dryRun,
      ObjectNode object,
      ObjectNode oldObject,
      List<String> versions,
      Converter converter,
      Consumer<String> warnings,
      java.util.function.BiConsumer<String, String> auditAnnotations) {
    /**
     * Checks the parts that identify the write.
     *
     * @param operation see the record description
     * @param kind see the record description
     * @param groupVersion see the record description
     * @param resource see the record description
     * @param subresource see the record description
     * @param namespace see the record description
     * @param name see the record description
     * @param user see the record description
     * @param dryRun see the record description
     * @param object see the record description
     * @param oldObject see the record description
     * @param versions see the record description
     * @param converter see the record description
     * @param warnings see the record description
     * @param auditAnnotations see the record description
     */
    public Request {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(groupVersion, "groupVersion");
      Objects.requireNonNull(resource, "resource");
      subresource = Objects.requireNonNullElse(subresource, "");
    }

    /**
     * A write of an object of the resource's own kind: the resource's group and version are the
     * kind's.
     *
     * @param operation see the record description
     * @param kind see the record description
     * @param resource see the record description
     * @param subresource see the record description
     * @param namespace see the record description
     * @param name see the record description
     * @param user see the record description
     * @param dryRun see the record description
     * @param object see the record description
     * @param oldObject see the record description
     * @param versions see the record description
     * @param converter see the record description
     * @param warnings see the record description
     * @param auditAnnotations see the record description
     */
    public Request(
        Operation operation,
        GroupVersionKind kind,
        String resource,
        String subresource,
        String namespace,
        String name,
        UserInfo user,
        boolean dryRun,
        ObjectNode object,
        ObjectNode oldObject,
        List<String> versions,
        Converter converter,
        Consumer<String> warnings,
        java.util.function.BiConsumer<String, String> auditAnnotations) {
      this(
          operation,
          kind,
          kind.groupVersion(),
          resource,
          subresource,
          namespace,
          name,
          user,
          dryRun,
          object,
          oldObject,
          versions,
          converter,
          warnings,
          auditAnnotations);
    }

    /**
     * The kind of the objects when the resource is taken in another of its versions: the kind in
     * that version, or the subresource's own kind unchanged.
     *
     * @param version a version the resource is served in
     * @return the kind
     */
    public GroupVersionKind kindIn(String version) {
      return kind.groupVersion().equals(groupVersion)
          ? GroupVersionKind.of(groupVersion.group(), version, kind.kind())
          : kind;
    }
  }

  /** The version a webhook is called in: the resource's, and the objects' kind in it. */
  record Target(GroupVersion groupVersion, GroupVersionKind kind) {}

  /**
   * Creates the admission.
   *
   * @param source the configurations and namespaces
   * @param client calls the webhooks
   * @param conditions evaluates match conditions, if the server has an implementation
   */
  public WebhookAdmission(
      Source source, WebhookClient client, Optional<MatchConditions> conditions) {
    this(source, client, conditions, Authorizer::alwaysAllow);
  }

  /**
   * Creates the admission whose webhooks' match conditions check with the server's authorizer.
   *
   * @param source the configurations
   * @param client the client that calls webhooks
   * @param conditions the CEL implementation of match conditions, when one is installed
   * @param authorizer the server's authorizer, read for each request ({@code authorizer} in match
   *     conditions)
   */
  public WebhookAdmission(
      Source source,
      WebhookClient client,
      Optional<MatchConditions> conditions,
      Supplier<Authorizer> authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
    this.source = source;
    this.client = client;
    this.conditions = conditions;
    this.parallel =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "validating-webhook");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Whether a resource is never sent to webhooks: the webhook configurations themselves, so that a
   * broken webhook can always be removed, as kube-apiserver exempts them.
   *
   * @param group the group
   * @param resource the resource
   * @return whether it is exempt
   */
  public static boolean exempt(String group, String resource) {
    return group.equals(ADMISSION_GROUP)
        && (resource.equals("mutatingwebhookconfigurations")
            || resource.equals("validatingwebhookconfigurations")
            || resource.equals("validatingadmissionpolicies")
            || resource.equals("validatingadmissionpolicybindings")
            || resource.equals("mutatingadmissionpolicies")
            || resource.equals("mutatingadmissionpolicybindings"));
  }

  /**
   * Calls the matching mutating webhooks.
   *
   * @param request the write
   * @return the object as the webhooks left it (the request's own when none changed it)
   * @throws StatusException when a webhook refuses or fails under {@code failurePolicy: Fail}
   */
  public ObjectNode mutate(Request request) {
    if (exempt(request.groupVersion().group(), request.resource())) {
      return request.object();
    }
    List<Webhook> webhooks = source.webhooks(true);
    if (webhooks.isEmpty()) {
      return request.object();
    }
    Request current = request;
    List<Webhook> invoked = new ArrayList<>();
    List<Webhook> reinvoke = new ArrayList<>();
    int index = 0;
    for (Webhook webhook : webhooks) {
      Optional<Target> version = match(webhook, current);
      if (version.isEmpty()) {
        index++;
        continue;
      }
      ObjectNode before = current.object();
      ObjectNode after = call(webhook, current, version.get(), 0, index++);
      if (after != null && !after.equals(before)) {
        for (Webhook earlier : invoked) {
          if (earlier.reinvokeIfNeeded() && !reinvoke.contains(earlier)) {
            reinvoke.add(earlier);
          }
        }
        current = withObject(current, after);
      }
      invoked.add(webhook);
    }
    index = 0;
    for (Webhook webhook : webhooks) {
      if (!reinvoke.contains(webhook)) {
        index++;
        continue;
      }
      Optional<Target> version = match(webhook, current);
      if (version.isPresent()) {
        ObjectNode after = call(webhook, current, version.get(), 1, index);
        if (after != null) {
          current = withObject(current, after);
        }
      }
      index++;
    }
    return current.object();
  }

  /**
   * Calls the matching validating webhooks at once and waits for all.
   *
   * @param request the write
   * @throws StatusException the first refusal or failure, in webhook order
   */
  public void validate(Request request) {
    if (exempt(request.groupVersion().group(), request.resource())) {
      return;
    }
    List<Webhook> webhooks = source.webhooks(false);
    // As kube-apiserver, a validating webhook's index (in audit annotations) counts the webhooks
    // that match.
    List<Webhook> matched = new ArrayList<>();
    List<Target> versions = new ArrayList<>();
    for (Webhook webhook : webhooks) {
      Optional<Target> version = match(webhook, request);
      if (version.isPresent()) {
        matched.add(webhook);
        versions.add(version.get());
      }
    }
    if (matched.size() == 1) {
      // One webhook: called on the request's own thread.
      call(matched.get(0), request, versions.get(0), 0, 0);
      return;
    }
    List<CompletableFuture<RuntimeException>> calls = new ArrayList<>();
    for (int i = 0; i < matched.size(); i++) {
      Webhook webhook = matched.get(i);
      Target version = versions.get(i);
      int at = i;
      calls.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  call(webhook, request, version, 0, at);
                  return null;
                } catch (RuntimeException e) {
                  return e;
                }
              },
              parallel));
    }
    RuntimeException first = null;
    for (CompletableFuture<RuntimeException> call : calls) {
      RuntimeException failure = call.join();
      if (first == null) {
        first = failure;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static Request withObject(Request r, ObjectNode object) {
    return new Request(
        r.operation(),
        r.kind(),
        r.groupVersion(),
        r.resource(),
        r.subresource(),
        r.namespace(),
        r.name(),
        r.user(),
        r.dryRun(),
        object,
        r.oldObject(),
        r.versions(),
        r.converter(),
        r.warnings(),
        r.auditAnnotations());
  }

  /**
   * The kind the webhook is called with when it matches the request: the request's own, or under
   * {@code matchPolicy: Equivalent} another version of the resource that a rule names.
   */
  Optional<Target> match(Webhook webhook, Request request) {
    String group = request.groupVersion().group();
    String namespace = requestNamespace(request);
    Target found = null;
    for (Rule rule : webhook.rules()) {
      if (rule.matches(
          request.operation(),
          group,
          request.groupVersion().version(),
          request.resource(),
          request.subresource(),
          namespace)) {
        found = new Target(request.groupVersion(), request.kind());
        break;
      }
    }
    if (found == null && !webhook.exactMatch()) {
      search:
      for (String version : request.versions()) {
        for (Rule rule : webhook.rules()) {
          if (rule.matches(
              request.operation(),
              group,
              version,
              request.resource(),
              request.subresource(),
              namespace)) {
            found = new Target(GroupVersion.of(group, version), request.kindIn(version));
            break search;
          }
        }
      }
    }
    if (found == null) {
      return Optional.empty();
    }
    if (!Selectors.objectMatches(webhook.objectSelector(), request.object(), request.oldObject())) {
      return Optional.empty();
    }
    if (!Selectors.namespaceMatches(webhook.namespaceSelector(), request, source)) {
      return Optional.empty();
    }
    return Optional.of(found);
  }

  static String requestNamespace(Request request) {
    if (request.groupVersion().group().isEmpty()
        && request.resource().equals("namespaces")
        && request.namespace().isEmpty()) {
      return request.name();
    }
    return request.namespace();
  }

  /**
   * Calls one webhook; returns the patched object of a mutating webhook ({@code null} when it did
   * not answer and is ignored).
   */
  private ObjectNode call(Webhook webhook, Request request, Target target, int round, int index) {
    String phase = webhook.mutating() ? "mutation" : "validation";
    String annotationKey = "round_" + round + "_index_" + index;
    ObjectNode object = request.object();
    ObjectNode old = request.oldObject();
    GroupVersionKind version = target.kind();
    boolean converted = !version.equals(request.kind());
    try {
      if (converted) {
        object = object == null ? null : request.converter().convert(object.deepCopy(), version);
        old = old == null ? null : request.converter().convert(old.deepCopy(), version);
      }
    } catch (RuntimeException e) {
      throw ApiErrors.newInternalError(e);
    }
    if (!webhook.conditions().isEmpty()) {
      Optional<String> skip;
      try {
        skip = conditionsFalse(webhook, request, object, old, target);
      } catch (IllegalArgumentException e) {
        if (webhook.failOpen()) {
          return webhook.mutating() ? request.object() : null;
        }
        // As kube-apiserver: a condition that fails to evaluate (none false) refuses the write.
        throw ApiErrors.newForbidden(
            GroupResource.of(request.groupVersion().group(), request.resource()),
            request.name(),
            e.getMessage());
      }
      if (skip.isPresent()) {
        return webhook.mutating() ? request.object() : null;
      }
    }
    if (request.dryRun()
        && !webhook.sideEffects().equals("None")
        && !webhook.sideEffects().equals("NoneOnDryRun")) {
      throw ApiErrors.newBadRequest(
          "admission webhook \"" + webhook.name() + "\" does not support dry run");
    }
    String reviewVersion = null;
    for (String each : webhook.reviewVersions()) {
      if (each.equals("v1") || each.equals("v1beta1")) {
        reviewVersion = each;
        break;
      }
    }
    if (webhook.problem() != null) {
      return ignoreOrFail(webhook, request, round, index, webhook.problem());
    }
    if (reviewVersion == null) {
      return ignoreOrFail(
          webhook, request, round, index, "webhook does not accept known AdmissionReview versions");
    }
    String uid = UUID.randomUUID().toString();
    ObjectNode review = review(reviewVersion, uid, webhook, request, target, object, old);
    byte[] answer;
    try {
      answer = client.post(webhook, Json.MAPPER.writeValueAsBytes(review));
    } catch (WebhookClient.CallFailure e) {
      return ignoreOrFail(
          webhook, request, round, index, "failed to call webhook: " + e.getMessage());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    JsonNode response;
    try {
      response = checkResponse(Json.MAPPER.readTree(answer), reviewVersion, uid, webhook);
    } catch (IllegalArgumentException | java.io.IOException e) {
      return ignoreOrFail(
          webhook, request, round, index, "received invalid webhook response: " + e.getMessage());
    }
    for (JsonNode warning : response.path("warnings")) {
      request.warnings().accept(warning.asText());
    }
    JsonNode annotations = response.path("auditAnnotations");
    for (Map.Entry<String, JsonNode> e : annotations.properties()) {
      request.auditAnnotations().accept(webhook.name() + "/" + e.getKey(), e.getValue().asText());
    }
    if (!response.path("allowed").asBoolean(false)) {
      throw denied(webhook.name(), response.path("status"));
    }
    if (!webhook.mutating()) {
      return null;
    }
    boolean mutated = false;
    ObjectNode result = request.object();
    JsonNode patchText = response.get("patch");
    if (patchText != null && !patchText.isNull() && !patchText.asText().isEmpty()) {
      if (object == null) {
        throw ApiErrors.newInternalError(
            new IllegalArgumentException(
                "admission webhook \""
                    + webhook.name()
                    + "\" returned a patch for a "
                    + request.operation().name()
                    + ", which has no object to patch"));
      }
      JsonNode patch;
      try {
        patch = Json.MAPPER.readTree(Base64.getDecoder().decode(patchText.asText()));
      } catch (IllegalArgumentException | java.io.IOException e) {
        throw ApiErrors.newInternalError(e);
      }
      JsonNode patched;
      try {
        patched = JsonPatch.apply(object, patch);
      } catch (RuntimeException e) {
        throw ApiErrors.newInternalError(e);
      }
      if (!(patched instanceof ObjectNode patchedObject)) {
        throw ApiErrors.newInternalError(
            new IllegalArgumentException("the patched object is not a JSON object"));
      }
      mutated = !patchedObject.equals(object);
      result =
          converted ? request.converter().convert(patchedObject, request.kind()) : patchedObject;
      if (mutated) {
        request
            .auditAnnotations()
            .accept(
                "patch.webhook.admission.k8s.io/" + annotationKey,
                annotation(webhook, patch, true));
      }
    }
    request
        .auditAnnotations()
        .accept(
            phase + ".webhook.admission.k8s.io/" + annotationKey,
            "{\"configuration\":"
                + quote(webhook.configuration())
                + ",\"webhook\":"
                + quote(webhook.name())
                + ",\"mutated\":"
                + mutated
                + "}");
    return result;
  }

  private static String annotation(Webhook webhook, JsonNode patch, boolean withPatch) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("configuration", webhook.configuration());
    node.put("webhook", webhook.name());
    node.set("patch", patch);
    node.put("patchType", "JSONPatch");
    return node.toString();
  }

  private static String quote(String text) {
    return Json.MAPPER.getNodeFactory().textNode(text).toString();
  }

  private Optional<String> conditionsFalse(
      Webhook webhook, Request request, ObjectNode object, ObjectNode old, Target version) {
    MatchConditions implementation =
        conditions.orElseThrow(
            () ->
                new IllegalArgumentException(
                    "the server has no CEL implementation (add machinery-cel)"));
    Object compiledConditions =
        compiled.computeIfAbsent(
            webhook.conditions(),
            c -> {
              try {
                return implementation.compile(c);
              } catch (IllegalArgumentException e) {
                return e;
              }
            });
    if (compiledConditions instanceof IllegalArgumentException e) {
      throw e;
    }
    Map<String, Object> variables = new HashMap<>();
    variables.put("object", object == null ? null : Json.MAPPER.convertValue(object, Map.class));
    variables.put("oldObject", old == null ? null : Json.MAPPER.convertValue(old, Map.class));
    ObjectNode reviewRequest = requestNode("", webhook, request, version, null, null);
    variables.put("request", Json.MAPPER.convertValue(reviewRequest, Map.class));
    MatchConditions.Authorization authorization =
        new MatchConditions.Authorization(
            authorizer.get(),
            request.user(),
            Arrays.asList(
                request.groupVersion().group(),
                request.groupVersion().version(),
                request.resource(),
                Objects.toString(request.subresource(), ""),
                Objects.toString(request.namespace(), ""),
                Objects.toString(request.name(), "")));
    return ((MatchConditions.Compiled) compiledConditions).firstFalse(variables, authorization);
  }

  private ObjectNode ignoreOrFail(
      Webhook webhook, Request request, int round, int index, String why) {
    if (webhook.failOpen()) {
      request
          .auditAnnotations()
          .accept(
              "failed-open."
                  + (webhook.mutating() ? "mutation" : "validating")
                  + ".webhook.admission.k8s.io/round_"
                  + round
                  + "_index_"
                  + index,
              webhook.name());
      return webhook.mutating() ? request.object() : null;
    }
    throw internal(webhook, why);
  }

  private static StatusException internal(Webhook webhook, String why) {
    return ApiErrors.newInternalError(
        new IllegalStateException("failed calling webhook \"" + webhook.name() + "\": " + why));
  }

  /** kube-apiserver's {@code webhookerrors.ToStatusErr}. */
  static StatusException denied(String webhook, JsonNode status) {
    String deniedBy = "admission webhook \"" + webhook + "\" denied the request";
    Status out = new Status();
    int code = status.path("code").asInt(0);
    out.setCode(code < 400 ? 400 : code);
    String state = status.path("status").asText("");
    out.setStatus(state.isEmpty() || state.equals("Success") ? "Failure" : state);
    String reason = status.path("reason").asText("");
    if (!reason.isEmpty()) {
      out.setReason(reason);
    }
    String message = status.path("message").asText("");
    if (!message.isEmpty()) {
      out.setMessage(deniedBy + ": " + message);
    } else if (!reason.isEmpty()) {
      out.setMessage(deniedBy + ": " + reason);
    } else {
      out.setMessage(deniedBy + " without explanation");
    }
    return new StatusException(out);
  }

  /** The checks kube-apiserver makes of a review's answer. */
  private static JsonNode checkResponse(
      JsonNode review, String version, String uid, Webhook webhook) {
    if (!review.isObject()) {
      throw new IllegalArgumentException("the response is not a JSON object");
    }
    String apiVersion = review.path("apiVersion").asText("");
    String kind = review.path("kind").asText("");
    if (version.equals("v1")
        && (!apiVersion.equals("admission.k8s.io/v1") || !kind.equals("AdmissionReview"))) {
      throw new IllegalArgumentException(
          "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
              + apiVersion
              + ", Kind="
              + kind);
    }
    JsonNode response = review.get("response");
    if (response == null || !response.isObject()) {
      throw new IllegalArgumentException("webhook response was absent");
    }
    String answered = response.path("uid").asText("");
    if (version.equals("v1") && !answered.equals(uid)) {
      throw new IllegalArgumentException(
          "expected response.uid=\"" + uid + "\", got \"" + answered + "\"");
    }
    JsonNode patch = response.get("patch");
    boolean hasPatch = patch != null && !patch.isNull() && !patch.asText().isEmpty();
    JsonNode patchType = response.get("patchType");
    if (hasPatch && !webhook.mutating() && version.equals("v1")) {
      throw new IllegalArgumentException("validating webhook may not return response.patch");
    }
    if (version.equals("v1") && hasPatch) {
      if (patchType == null || patchType.isNull() || patchType.asText().isEmpty()) {
        throw new IllegalArgumentException(
            "webhook returned response.patch but not response.patchType");
      }
    }
    if (patchType != null && !patchType.isNull() && !patchType.asText().isEmpty()) {
      if (!patchType.asText().equals("JSONPatch")) {
        throw new IllegalArgumentException(
            "webhook returned invalid response.patchType of \"" + patchType.asText() + "\"");
      }
      if (!hasPatch && version.equals("v1")) {
        throw new IllegalArgumentException(
            "webhook returned response.patchType but not response.patch");
      }
    }
    return response;
  }

  private static ObjectNode review(
      String version,
      String uid,
      Webhook webhook,
      Request request,
      Target target,
      ObjectNode object,
      ObjectNode old) {
    ObjectNode review = Json.MAPPER.createObjectNode();
    review.put("kind", "AdmissionReview");
    review.put("apiVersion", "admission.k8s.io/" + version);
    review.set("request", requestNode(uid, webhook, request, target, object, old));
    return review;
  }

  private static ObjectNode requestNode(
      String uid,
      Webhook webhook,
      Request request,
      Target target,
      ObjectNode object,
      ObjectNode old) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("uid", uid);
    node.set("kind", gvk(target.kind()));
    node.set("resource", gvr(target.groupVersion(), request.resource()));
    if (!request.subresource().isEmpty()) {
      node.put("subResource", request.subresource());
    }
    node.set("requestKind", gvk(request.kind()));
    node.set("requestResource", gvr(request.groupVersion(), request.resource()));
    if (!request.subresource().isEmpty()) {
      node.put("requestSubResource", request.subresource());
    }
    if (!request.name().isEmpty()) {
      node.put("name", request.name());
    }
    String namespace = requestNamespace(request);
    if (!namespace.isEmpty()) {
      node.put("namespace", namespace);
    }
    node.put("operation", request.operation().name());
    ObjectNode user = node.putObject("userInfo");
    UserInfo info = request.user();
    if (info.name() != null && !info.name().isEmpty()) {
      user.put("username", info.name());
    }
    if (info.uid() != null && !info.uid().isEmpty()) {
      user.put("uid", info.uid());
    }
    if (info.groups() != null && !info.groups().isEmpty()) {
      ArrayNode groups = user.putArray("groups");
      info.groups().forEach(groups::add);
    }
    if (info.extra() != null && !info.extra().isEmpty()) {
      ObjectNode extra = user.putObject("extra");
      new java.util.TreeMap<>(info.extra())
          .forEach(
              (k, values) -> {
                ArrayNode list = extra.putArray(k);
                values.forEach(list::add);
              });
    }
    if (object != null) {
      node.set("object", object);
    }
    if (old != null) {
      node.set("oldObject", old);
    }
    node.put("dryRun", request.dryRun());
    ObjectNode options = node.putObject("options");
    options.put(
        "kind",
        switch (request.operation()) {
          case CREATE -> "CreateOptions";
          case UPDATE -> "UpdateOptions";
          case DELETE -> "DeleteOptions";
        });
    options.put("apiVersion", "meta.k8s.io/v1");
    if (request.dryRun()) {
      options.putArray("dryRun").add("All");
    }
    return node;
  }

  private static ObjectNode gvk(GroupVersionKind kind) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("group", kind.group());
    node.put("version", kind.version());
    node.put("kind", kind.kind());
    return node;
  }

  private static ObjectNode gvr(GroupVersion groupVersion, String resource) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("group", groupVersion.group());
    node.put("version", groupVersion.version());
    node.put("resource", resource);
    return node;
  }

  /** Stops the threads validating webhooks are called on. */
  public void close() {
    parallel.shutdownNow();
  }
}
