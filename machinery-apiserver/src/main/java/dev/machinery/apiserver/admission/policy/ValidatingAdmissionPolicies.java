package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Activation;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Budget;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.EvaluationException;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Expression;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@code ValidatingAdmissionPolicy} admission plugin of kube-apiserver 1.33: on every write it
 * reads the stored ValidatingAdmissionPolicies and ValidatingAdmissionPolicyBindings (so a policy
 * applies to the requests that follow its storage), matches each policy's {@code matchConstraints}
 * and each binding's {@code matchResources}, resolves the binding's parameters ({@code paramKind} +
 * {@code paramRef}: by name or selector, from any served resource), evaluates the policy's {@code
 * matchConditions}, {@code variables}, {@code validations} and {@code auditAnnotations} with a
 * {@link PolicyExpressions}, and refuses the write for the first failed validation of a binding
 * whose {@code validationActions} hold {@code Deny}: {@code <resource> "<name>" is forbidden:
 * ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <message>}, with
 * the validation's {@code reason} (Invalid, 422, by default) and its code. Errors (compilation,
 * evaluation, missing parameters, configuration) follow the policy's {@code failurePolicy}: {@code
 * Fail} (the default) refuses, {@code Ignore} admits. {@link #evaluate} also returns the {@code
 * Warn} warnings and the {@code Audit} failures and annotations, which {@link #validate} hands to
 * the write's {@link AdmissionAttributes#addWarning} ({@code Warning} headers) and {@link
 * AdmissionAttributes#addAuditAnnotation} (the request's audit event).
 *
 * <p>As in kube-apiserver, writes of ValidatingAdmissionPolicies, their bindings and the mutating
 * ones are exempt. Compiled policies are kept by uid, resourceVersion and spec. Thread-safe.
 */
public final class ValidatingAdmissionPolicies implements ValidatingAdmissionPlugin {
  /** The plugin's name, as in {@code --enable-admission-plugins}. */
  public static final String NAME = "ValidatingAdmissionPolicy";

  /** The audit annotation of {@code Audit} failures. */
  public static final String VALIDATION_FAILURE_ANNOTATION =
      "validation.policy.admission.k8s.io/validation_failure";

  private static final Set<String> EXEMPT =
      Set.of(
          "validatingadmissionpolicies",
          "validatingadmissionpolicybindings",
          "mutatingadmissionpolicies",
          "mutatingadmissionpolicybindings");
  private static final int MAX_MESSAGE_BYTES = 5 * 1024;
  private static final int MAX_AUDIT_VALUE = 10 * 1024;
  private static final String OUT_OF_BUDGET =
      "validation failed due to running out of cost budget, no further validation rules will be run";

  private final PolicyExpressions expressions;
  private final PolicyObjects objects;
  private final Supplier<Authorizer> authorizer;
  private final Map<String, CompiledPolicy> compiled = new ConcurrentHashMap<>();

  /**
   * Creates the plugin.
   *
   * @param expressions the expression language
   * @param objects the policies, bindings, namespaces and parameters
   * @param authorizer the server's authorizer, for the {@code authorizer} variable (asked when a
   *     write is admitted, so that it may be set after the plugin is made)
   */
  public ValidatingAdmissionPolicies(
      PolicyExpressions expressions, PolicyObjects objects, Supplier<Authorizer> authorizer) {
    this.expressions = Objects.requireNonNull(expressions, "expressions");
    this.objects = Objects.requireNonNull(objects, "objects");
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * A failed validation of a binding whose actions hold {@code Audit}, as the audit annotation
   * lists it. Immutable.
   *
   * @param message the message
   * @param policy the policy
   * @param binding the binding
   * @param expressionIndex the index of the validation
   * @param validationActions the binding's actions
   */
  public record AuditFailure(
      String message,
      String policy,
      String binding,
      int expressionIndex,
      List<String> validationActions) {
    /**
     * Copies the list.
     *
     * @param message see the record description
     * @param policy see the record description
     * @param binding see the record description
     * @param expressionIndex see the record description
     * @param validationActions see the record description
     */
    public AuditFailure {
      validationActions = List.copyOf(validationActions);
    }
  }

  /**
   * What the policies decided about one write. Immutable.
   *
   * @param denial the refusal, or {@code null} when the write is admitted
   * @param warnings the {@code Warn} warnings, in the order found
   * @param auditFailures the {@code Audit} failures
   * @param auditAnnotations the published audit annotations, {@code <policy>/<key>} to value
   */
  public record Outcome(
      StatusException denial,
      List<String> warnings,
      List<AuditFailure> auditFailures,
      Map<String, String> auditAnnotations) {
    /**
     * The value of the {@link #VALIDATION_FAILURE_ANNOTATION} audit annotation, as kube-apiserver
     * writes it: the first 50 {@code Audit} failures as a JSON array of {@code message}, {@code
     * policy}, {@code binding}, {@code expressionIndex} and {@code validationActions}, with Go's
     * HTML escapes.
     *
     * @return the value, or empty when there is no {@code Audit} failure
     */
    public Optional<String> validationFailureAnnotation() {
      if (auditFailures.isEmpty()) {
        return Optional.empty();
      }
      List<Map<String, Object>> values = new ArrayList<>();
      for (AuditFailure failure : auditFailures.subList(0, Math.min(50, auditFailures.size()))) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("message", failure.message());
        value.put("policy", failure.policy());
        value.put("binding", failure.binding());
        value.put("expressionIndex", failure.expressionIndex());
        value.put("validationActions", failure.validationActions());
        values.add(value);
      }
      try {
        return Optional.of(
            ANNOTATION_JSON
                .writeValueAsString(values)
                .replace("<", "\\u003c")
                .replace(">", "\\u003e")
                .replace("&", "\\u0026")
                .replace("\u2028", "\\u2028")
                .replace("\u2029", "\\u2029"));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static final com.fasterxml.jackson.databind.json.JsonMapper ANNOTATION_JSON =
      com.fasterxml.jackson.databind.json.JsonMapper.builder().build();

  @Override
  public void validate(AdmissionAttributes attributes) {
    Outcome outcome = evaluate(attributes);
    // As kube-apiserver's dispatcher: Warn and Audit results and the published annotations are
    // recorded before a denial is returned.
    outcome.warnings().forEach(attributes::addWarning);
    outcome.auditAnnotations().forEach(attributes::addAuditAnnotation);
    outcome
        .validationFailureAnnotation()
        .ifPresent(value -> attributes.addAuditAnnotation(VALIDATION_FAILURE_ANNOTATION, value));
    if (outcome.denial() != null) {
      throw outcome.denial();
    }
  }

  private record Decision(boolean deny, String message, String reason) {}

  private record Denied(String policy, String binding, String message, String reason) {}

  /**
   * Evaluates every policy on a write.
   *
   * @param a the write
   * @return the outcome
   */
  public Outcome evaluate(AdmissionAttributes a) {
    if (a.resource().group().equals("admissionregistration.k8s.io")
        && EXEMPT.contains(a.resource().resource())) {
      // As kube-apiserver: the policies' own kinds are exempt, lest a policy lock itself in.
      return new Outcome(null, List.of(), List.of(), Map.of());
    }
    List<Map<String, Object>> policies = new ArrayList<>(objects.policies());
    if (policies.isEmpty()) {
      return new Outcome(null, List.of(), List.of(), Map.of());
    }
    policies.sort(Comparator.comparing(p -> String.valueOf(Trees.string(p, "metadata", "name"))));
    Map<String, List<Map<String, Object>>> bindings = new LinkedHashMap<>();
    List<Map<String, Object>> allBindings = new ArrayList<>(objects.bindings());
    allBindings.sort(
        Comparator.comparing(b -> String.valueOf(Trees.string(b, "metadata", "name"))));
    for (Map<String, Object> binding : allBindings) {
      String policyName = Trees.string(binding, "spec", "policyName");
      if (policyName != null) {
        bindings.computeIfAbsent(policyName, k -> new ArrayList<>()).add(binding);
      }
    }
    Map<String, Object> object = objects.tree(a.object());
    Map<String, Object> old = objects.tree(a.oldObject());
    Map<String, Map<String, Object>> namespaces = new ConcurrentHashMap<>();
    java.util.function.Function<String, Map<String, Object>> namespaceOf =
        name ->
            namespaces.computeIfAbsent(
                name, n -> objects.namespace(n).orElse(Map.of("missing", true)));
    java.util.function.Function<String, Map<String, String>> labelsOf =
        name -> {
          Map<String, Object> ns = namespaceOf.apply(name);
          return ns.containsKey("missing") ? null : Trees.labels(ns);
        };
    List<Denied> denied = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<AuditFailure> auditFailures = new ArrayList<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    for (Map<String, Object> policy : policies) {
      CompiledPolicy p = compiled(policy);
      Map<String, Object> constraints = Trees.map(policy, "spec", "matchConstraints");
      Optional<String> matched;
      try {
        matched =
            constraints == null
                ? Optional.empty()
                : ResourceMatcher.matchedVersion(constraints, a, object, old, labelsOf);
      } catch (RuntimeException e) {
        configError(p, null, "failed to configure policy: " + e.getMessage(), denied);
        continue;
      }
      if (matched.isEmpty()) {
        continue;
      }
      // As kube-apiserver: the policy sees the objects in the version it matched in.
      String version = matched.get();
      Map<String, Object> versionedObject = object;
      Map<String, Object> versionedOld = old;
      if (!version.equals(a.version())) {
        try {
          versionedObject = objects.tree(a.versions().convert(a.object(), version));
          versionedOld = objects.tree(a.versions().convert(a.oldObject(), version));
        } catch (RuntimeException e) {
          configError(
              p,
              null,
              "failed to convert to "
                  + a.resource().resource()
                  + "."
                  + version
                  + "."
                  + a.resource().group()
                  + ": "
                  + e.getMessage(),
              denied);
          continue;
        }
      }
      Map<String, Object> request = request(a, version);
      PolicyObjects.ParamSource paramSource = null;
      if (p.paramKind != null) {
        paramSource = objects.params(p.paramApiVersion, p.paramKind).orElse(null);
        if (paramSource == null) {
          configError(
              p,
              null,
              "failed to configure policy: failed to find resource referenced by paramKind: '"
                  + goGvk(p.paramApiVersion, p.paramKind)
                  + "'",
              denied);
          continue;
        }
      }
      Map<String, Set<String>> policyAnnotations = new LinkedHashMap<>();
      for (Map<String, Object> binding : bindings.getOrDefault(p.name, List.of())) {
        String bindingName = Trees.string(binding, "metadata", "name");
        try {
          if (!ResourceMatcher.matches(
              Trees.map(binding, "spec", "matchResources"), a, object, old, labelsOf)) {
            continue;
          }
        } catch (RuntimeException e) {
          configError(p, bindingName, "failed to configure binding: " + e.getMessage(), denied);
          continue;
        }
        List<Map<String, Object>> params;
        try {
          params = params(p, paramSource, Trees.map(binding, "spec", "paramRef"), a.namespace());
        } catch (RuntimeException e) {
          configError(p, bindingName, "failed to configure binding: " + e.getMessage(), denied);
          continue;
        }
        String namespaceName = a.namespace();
        if (a.kind().group().isEmpty() && a.kind().kind().equals("Namespace")) {
          namespaceName = "";
        }
        Map<String, Object> namespaceObject = null;
        if (!namespaceName.isEmpty()) {
          Map<String, Object> ns = namespaceOf.apply(namespaceName);
          namespaceObject = ns.containsKey("missing") ? null : namespaceObject(ns);
        }
        List<String> actions = Trees.strings(binding, "spec", "validationActions");
        for (Map<String, Object> param : params) {
          List<Decision> decisions = new ArrayList<>();
          Map<String, String> published = new LinkedHashMap<>();
          List<String> annotationErrors = new ArrayList<>();
          validate(
              p,
              a,
              version,
              versionedObject,
              versionedOld,
              request,
              param,
              namespaceObject,
              decisions,
              published,
              annotationErrors);
          for (int i = 0; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            if (!decision.deny()) {
              continue;
            }
            for (String action : actions) {
              switch (action) {
                case "Deny" ->
                    denied.add(
                        new Denied(p.name, bindingName, decision.message(), decision.reason()));
                case "Warn" ->
                    warnings.add(
                        "Validation failed for ValidatingAdmissionPolicy '"
                            + p.name
                            + "' with binding '"
                            + bindingName
                            + "': "
                            + decision.message());
                case "Audit" ->
                    auditFailures.add(
                        new AuditFailure(
                            decision.message(), p.name, bindingName, i, List.copyOf(actions)));
                default -> {}
              }
            }
          }
          for (Map.Entry<String, String> e : published.entrySet()) {
            policyAnnotations
                .computeIfAbsent(e.getKey(), k -> new LinkedHashSet<>())
                .add(e.getValue());
          }
          // An audit annotation that fails under Fail refuses, whatever the actions.
          annotationErrors.forEach(
              message -> denied.add(new Denied(p.name, bindingName, message, null)));
        }
      }
      policyAnnotations.forEach(
          (key, values) -> annotations.put(p.name + "/" + key, String.join(", ", values)));
    }
    StatusException denial = null;
    if (!denied.isEmpty()) {
      denial = denial(a, denied.get(0));
    }
    return new Outcome(
        denial, List.copyOf(warnings), List.copyOf(auditFailures), Map.copyOf(annotations));
  }

  private CompiledPolicy compiled(Map<String, Object> policy) {
    String key =
        Trees.string(policy, "metadata", "uid")
            + "/"
            + Trees.string(policy, "metadata", "resourceVersion")
            + "/"
            + Trees.string(policy, "metadata", "name")
            + "/"
            + Objects.hashCode(policy.get("spec"));
    CompiledPolicy found = compiled.get(key);
    if (found == null) {
      found = new CompiledPolicy(policy, expressions);
      if (compiled.size() > 1000) {
        compiled.clear();
      }
      compiled.put(key, found);
    }
    return found;
  }

  private static void configError(
      CompiledPolicy p, String binding, String message, List<Denied> denied) {
    if (!p.failOpen) {
      denied.add(new Denied(p.name, binding, message, null));
    }
  }

  private static String goGvk(String apiVersion, String kind) {
    String version = apiVersion == null ? "" : apiVersion;
    return (version.contains("/") ? version : "/" + version) + ", Kind=" + kind;
  }

  /** The parameters of a binding, as kube-apiserver's CollectParams; a list of one null without. */
  private static List<Map<String, Object>> params(
      CompiledPolicy p,
      PolicyObjects.ParamSource source,
      Map<String, Object> ref,
      String namespace) {
    if (p.paramKind == null || ref == null) {
      List<Map<String, Object>> none = new ArrayList<>();
      none.add(null);
      return none;
    }
    String refNamespace = Trees.string(ref, "namespace");
    String name = Trees.string(ref, "name");
    Map<String, Object> selector = Trees.map(ref, "selector");
    String paramsNamespace = "";
    if (source.namespaced()) {
      paramsNamespace = namespace;
      if (refNamespace != null && !refNamespace.isEmpty()) {
        paramsNamespace = refNamespace;
      } else if (paramsNamespace.isEmpty()) {
        throw new IllegalArgumentException(
            "cannot use namespaced paramRef in policy binding that matches cluster-scoped"
                + " resources");
      }
    } else if (refNamespace != null && !refNamespace.isEmpty()) {
      throw new IllegalArgumentException(
          "paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
    }
    List<Map<String, Object>> params = new ArrayList<>();
    if (name != null && !name.isEmpty()) {
      if (selector != null) {
        throw new IllegalArgumentException(
            "paramRef.name and paramRef.selector are mutually exclusive");
      }
      source.get(paramsNamespace, name).ifPresent(params::add);
    } else if (selector != null) {
      params.addAll(source.list(paramsNamespace, Trees.selector(selector)));
    } else {
      throw new IllegalArgumentException("one of name or selector must be provided");
    }
    if (params.isEmpty() && "Deny".equals(Trees.string(ref, "parameterNotFoundAction"))) {
      throw new IllegalArgumentException(
          "no params found for policy binding with `Deny` parameterNotFoundAction");
    }
    return params;
  }

  /** Evaluates one policy with one parameter, as kube-apiserver's validator. */
  private void validate(
      CompiledPolicy p,
      AdmissionAttributes a,
      String version,
      Map<String, Object> object,
      Map<String, Object> old,
      Map<String, Object> request,
      Map<String, Object> param,
      Map<String, Object> namespaceObject,
      List<Decision> decisions,
      Map<String, String> annotations,
      List<String> annotationErrors) {
    Budget budget = new Budget(PolicyExpressions.RUNTIME_COST_BUDGET);
    LazyVariables variables = new LazyVariables(p.variables, budget);
    Activation activation =
        new Activation(
            object,
            old,
            request,
            param,
            namespaceObject,
            variables,
            authorizer.get(),
            a.user(),
            List.of(
                a.resource().group(),
                version,
                a.resource().resource(),
                a.subresource(),
                a.namespace(),
                a.name()));
    variables.activation = activation;
    // Match conditions: a false one means no match; errors count only when none is false.
    if (!p.matchConditions.isEmpty()) {
      Budget conditionBudget = new Budget(PolicyExpressions.RUNTIME_COST_BUDGET);
      List<String> errors = new ArrayList<>();
      for (CompiledPolicy.Named condition : p.matchConditions) {
        Optional<String> compileError = condition.expression().error();
        if (compileError.isPresent()) {
          errors.add("compilation error: " + compileError.get());
          continue;
        }
        try {
          Object result = condition.expression().evaluate(activation, conditionBudget);
          if (Boolean.FALSE.equals(result)) {
            return;
          }
        } catch (EvaluationException e) {
          if (e.outOfBudget()) {
            errors.add(OUT_OF_BUDGET);
            break;
          }
          errors.add(resultedInError(condition.expression(), e));
        }
      }
      if (!errors.isEmpty()) {
        if (!p.failOpen) {
          decisions.add(
              new Decision(
                  true,
                  errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]",
                  null));
        }
        return;
      }
    }
    for (CompiledPolicy.Validation validation : p.validations) {
      Optional<String> compileError = validation.compiled().error();
      if (compileError.isPresent()) {
        decisions.add(errorDecision(p, "compilation error: " + compileError.get()));
        continue;
      }
      Object result;
      try {
        result = validation.compiled().evaluate(activation, budget);
      } catch (EvaluationException e) {
        if (e.outOfBudget()) {
          decisions.clear();
          decisions.add(errorDecision(p, OUT_OF_BUDGET));
          return;
        }
        decisions.add(errorDecision(p, resultedInError(validation.compiled(), e)));
        continue;
      }
      if (Boolean.TRUE.equals(result)) {
        decisions.add(new Decision(false, "", null));
        continue;
      }
      String message = "";
      if (validation.messageExpression() != null
          && validation.messageExpression().error().isEmpty()) {
        try {
          Object value = validation.messageExpression().evaluate(activation, budget);
          if (value instanceof String text) {
            message = text.strip();
            if (message.getBytes(StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES
                || message.contains("\n")) {
              message = "";
            }
          }
        } catch (EvaluationException e) {
          if (e.outOfBudget()) {
            decisions.add(errorDecision(p, "failed messageExpression: " + OUT_OF_BUDGET));
            continue;
          }
        }
      }
      if (message.isEmpty() && validation.message() != null) {
        message = validation.message().strip();
      }
      if (message.isEmpty()) {
        message = "failed expression: " + validation.expression().strip();
      }
      String reason = validation.reason() == null ? "Invalid" : validation.reason();
      decisions.add(new Decision(true, message, reason));
    }
    Budget annotationBudget = new Budget(PolicyExpressions.RUNTIME_COST_BUDGET);
    for (CompiledPolicy.Named annotation : p.auditAnnotations) {
      Optional<String> compileError = annotation.expression().error();
      String error = null;
      if (compileError.isPresent()) {
        error = "compilation error: " + compileError.get();
      } else {
        try {
          Object value = annotation.expression().evaluate(activation, annotationBudget);
          if (value instanceof String text) {
            text = text.strip();
            if (!text.isEmpty()) {
              annotations.put(
                  annotation.name(),
                  text.length() > MAX_AUDIT_VALUE ? text.substring(0, MAX_AUDIT_VALUE) : text);
            }
          }
        } catch (EvaluationException e) {
          error = e.outOfBudget() ? OUT_OF_BUDGET : resultedInError(annotation.expression(), e);
        }
      }
      if (error != null && !p.failOpen) {
        annotationErrors.add(error);
      }
    }
  }

  private static Decision errorDecision(CompiledPolicy p, String message) {
    return p.failOpen ? new Decision(false, message, null) : new Decision(true, message, null);
  }

  private static String resultedInError(Expression expression, EvaluationException e) {
    return "expression '" + sourceOf(expression) + "' resulted in error: " + e.getMessage();
  }

  private static String sourceOf(Expression expression) {
    return expression.source();
  }

  private static StatusException denial(AdmissionAttributes a, Denied denied) {
    String message =
        denied.binding() == null
            ? "ValidatingAdmissionPolicy '"
                + denied.policy()
                + "' denied request: "
                + denied.message()
            : "ValidatingAdmissionPolicy '"
                + denied.policy()
                + "' with binding '"
                + denied.binding()
                + "' denied request: "
                + denied.message();
    Status status = ApiErrors.newForbidden(a.resource(), a.name(), message).status();
    String reason = denied.reason() == null ? "Invalid" : denied.reason();
    status.setReason(reason);
    status.setCode(
        switch (reason) {
          case "Forbidden" -> 403;
          case "Unauthorized" -> 401;
          case "RequestEntityTooLarge" -> 413;
          default -> 422;
        });
    StatusDetails details = status.getDetails() == null ? new StatusDetails() : status.getDetails();
    List<StatusCause> causes =
        details.getCauses() == null ? new ArrayList<>() : new ArrayList<>(details.getCauses());
    StatusCause cause = new StatusCause();
    cause.setMessage(message);
    causes.add(cause);
    details.setCauses(causes);
    status.setDetails(details);
    return new StatusException(status);
  }

  /**
   * The AdmissionRequest expressions see as {@code request}, every field present: {@code kind} and
   * {@code resource} in the version the policy matched in, {@code requestKind} and {@code
   * requestResource} in the request's.
   */
  private static Map<String, Object> request(AdmissionAttributes a, String version) {
    Map<String, Object> kind = kind(a.versions().kindIn(version));
    Map<String, Object> resource = resource(a, version);
    String requested = a.versions().requested();
    UserInfo user = a.user();
    Map<String, Object> userInfo = new LinkedHashMap<>();
    userInfo.put("username", user.name() == null ? "" : user.name());
    userInfo.put("uid", user.uid() == null ? "" : user.uid());
    userInfo.put("groups", user.groups() == null ? List.of() : List.copyOf(user.groups()));
    Map<String, Object> extra = new LinkedHashMap<>();
    if (user.extra() != null) {
      user.extra().forEach((k, v) -> extra.put(k, List.copyOf(v)));
    }
    userInfo.put("extra", extra);
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("uid", "");
    request.put("kind", kind);
    request.put("resource", resource);
    request.put("subResource", a.subresource());
    request.put("requestKind", kind(a.versions().kindIn(requested)));
    request.put("requestResource", resource(a, requested));
    request.put("requestSubResource", a.subresource());
    request.put("name", a.name());
    request.put("namespace", a.namespace());
    request.put("operation", a.operation().name());
    request.put("userInfo", userInfo);
    request.put("dryRun", a.dryRun());
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("apiVersion", "meta.k8s.io/v1");
    options.put(
        "kind",
        a.operation() == Operation.CREATE
            ? "CreateOptions"
            : a.operation() == Operation.UPDATE ? "UpdateOptions" : "DeleteOptions");
    request.put("options", options);
    return request;
  }

  private static Map<String, Object> kind(dev.machinery.core.schema.GroupVersionKind gvk) {
    Map<String, Object> kind = new LinkedHashMap<>();
    kind.put("group", gvk.group());
    kind.put("version", gvk.version());
    kind.put("kind", gvk.kind());
    return kind;
  }

  private static Map<String, Object> resource(AdmissionAttributes a, String version) {
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("group", a.resource().group());
    resource.put("version", version);
    resource.put("resource", a.resource().resource());
    return resource;
  }

  /** The Namespace as expressions see it: its spec, status and chosen metadata. */
  private static Map<String, Object> namespaceObject(Map<String, Object> ns) {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Object> metadata = Trees.map(ns, "metadata");
    Map<String, Object> meta = new LinkedHashMap<>();
    if (metadata != null) {
      for (String key :
          List.of(
              "name",
              "generateName",
              "namespace",
              "uid",
              "resourceVersion",
              "generation",
              "creationTimestamp",
              "deletionTimestamp",
              "deletionGracePeriodSeconds",
              "labels",
              "annotations",
              "finalizers")) {
        if (metadata.containsKey(key)) {
          meta.put(key, metadata.get(key));
        }
      }
    }
    out.put("metadata", meta);
    if (ns.containsKey("spec")) {
      out.put("spec", ns.get("spec"));
    }
    if (ns.containsKey("status")) {
      out.put("status", ns.get("status"));
    }
    return out;
  }

  /**
   * The {@code variables} map: each variable evaluated the first time it is read, once per
   * evaluation, as kube-apiserver's composited variables.
   */
  private static final class LazyVariables extends AbstractMap<String, Object> {
    private final Map<String, Expression> expressions = new LinkedHashMap<>();
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, EvaluationException> failures = new LinkedHashMap<>();
    private final Budget budget;
    private Activation activation;

    LazyVariables(List<CompiledPolicy.Named> variables, Budget budget) {
      for (CompiledPolicy.Named variable : variables) {
        expressions.put(variable.name(), variable.expression());
      }
      this.budget = budget;
    }

    @Override
    public boolean containsKey(Object key) {
      return expressions.containsKey(key);
    }

    @Override
    public Object get(Object key) {
      Expression expression = expressions.get(key);
      if (expression == null) {
        return null;
      }
      if (values.containsKey(key)) {
        return values.get(key);
      }
      EvaluationException failed = failures.get(key);
      if (failed != null) {
        throw failed;
      }
      String name = (String) key;
      Optional<String> error = expression.error();
      if (error.isPresent()) {
        EvaluationException e =
            new EvaluationException(
                "composited variable \"" + name + "\" fails to compile: " + error.get(), false);
        failures.put(name, e);
        throw e;
      }
      try {
        Object value = expression.evaluate(activation, budget);
        values.put(name, value);
        return value;
      } catch (EvaluationException e) {
        EvaluationException wrapped =
            e.outOfBudget()
                ? e
                : new EvaluationException(
                    "composited variable \"" + name + "\" fails to evaluate: " + e.getMessage(),
                    false);
        failures.put(name, wrapped);
        throw wrapped;
      }
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      Map<String, Object> all = new LinkedHashMap<>();
      for (String name : expressions.keySet()) {
        all.put(name, get(name));
      }
      return all.entrySet();
    }
  }
}
