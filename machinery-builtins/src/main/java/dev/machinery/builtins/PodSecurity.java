package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.builtins.PodSecurityChecks.Failure;
import dev.machinery.builtins.PodSecurityChecks.Level;
import dev.machinery.builtins.PodSecurityChecks.LevelVersion;
import dev.machinery.builtins.PodSecurityChecks.Version;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube-apiserver's {@code PodSecurity} admission plugin ({@code k8s.io/pod-security-admission}): a
 * Pod is checked against the Pod Security Standards its namespace's labels name ({@code
 * pod-security.kubernetes.io/enforce}, {@code audit}, {@code warn} and their {@code -version}s, the
 * configuration's defaults otherwise); {@code enforce} refuses it with kube's words, {@code warn}
 * and {@code audit} give warnings and audit annotations, which the workload kinds' pod templates
 * get too; a Namespace's labels are validated, and a stricter {@code enforce} label checks the pods
 * the namespace already holds. Thread-safe: immutable once the server has initialized it.
 */
final class PodSecurity implements ValidatingAdmissionPlugin {
  static final String NAME = "PodSecurity";
  static final String LABEL_PREFIX = "pod-security.kubernetes.io/";

  private static final Set<String> IGNORED_POD_SUBRESOURCES =
      Set.of("exec", "attach", "binding", "eviction", "log", "portforward", "proxy", "status");

  /** The resources whose objects hold a pod template, by group and resource. */
  private static final Map<GroupResource, List<String>> TEMPLATES =
      Map.of(
          GroupResource.of("", "replicationcontrollers"), List.of("spec", "template"),
          GroupResource.of("", "podtemplates"), List.of("template"),
          GroupResource.of("apps", "replicasets"), List.of("spec", "template"),
          GroupResource.of("apps", "deployments"), List.of("spec", "template"),
          GroupResource.of("apps", "statefulsets"), List.of("spec", "template"),
          GroupResource.of("apps", "daemonsets"), List.of("spec", "template"),
          GroupResource.of("batch", "jobs"), List.of("spec", "template"),
          GroupResource.of("batch", "cronjobs"),
              List.of("spec", "jobTemplate", "spec", "template"));

  private static final GroupResource PODS = GroupResource.of("", "pods");
  private static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");

  /** What an evaluation decided: a refusal (or null), warnings and audit annotations. */
  record Decision(String refusal, List<String> warnings, Map<String, String> audit) {
    static Decision allowed() {
      return new Decision(null, List.of(), Map.of());
    }

    static Decision exempt(String why) {
      return new Decision(null, List.of(), Map.of("exempt", why));
    }
  }

  /** The three modes' levels and versions. */
  record Policy(LevelVersion enforce, LevelVersion audit, LevelVersion warn) {
    boolean fullyPrivileged() {
      return enforce.level() == Level.PRIVILEGED
          && audit.level() == Level.PRIVILEGED
          && warn.level() == Level.PRIVILEGED;
    }
  }

  private final DefaultAdmission.PodSecurityConfiguration config;
  private final Policy defaults;
  private final Loopback loopback = new Loopback();

  /** The prefix kube-apiserver gives the plugin's audit annotations. */
  static final String AUDIT_ANNOTATION_PREFIX = "pod-security.kubernetes.io/";

  PodSecurity(DefaultAdmission.PodSecurityConfiguration config) {
    this.config = Objects.requireNonNull(config, "config");
    this.defaults =
        new Policy(
            new LevelVersion(Level.parse(config.enforce()), Version.parse(config.enforceVersion())),
            new LevelVersion(Level.parse(config.audit()), Version.parse(config.auditVersion())),
            new LevelVersion(Level.parse(config.warn()), Version.parse(config.warnVersion())));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  @Override
  public void validate(AdmissionAttributes attributes) {
    Decision decision = decide(attributes);
    // Recorded before a refusal, as kube-apiserver's plugin adds them whatever the decision.
    decision.warnings().forEach(attributes::addWarning);
    decision
        .audit()
        .forEach(
            (key, value) -> attributes.addAuditAnnotation(AUDIT_ANNOTATION_PREFIX + key, value));
    if (decision.refusal() != null) {
      throw new AdmissionException(decision.refusal());
    }
  }

  /** The decision on a write, without recording it. */
  Decision decide(AdmissionAttributes attributes) {
    GroupResource resource = attributes.resource();
    if (resource.equals(NAMESPACES)) {
      return namespace(attributes);
    }
    if (resource.equals(PODS)) {
      return pod(attributes);
    }
    List<String> path = TEMPLATES.get(resource);
    if (path != null) {
      return workload(attributes, path);
    }
    return Decision.allowed();
  }

  private static Map<String, Object> content(Object object) {
    return object == null ? null : ((Unstructured) object).content();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> labels(Map<String, Object> object) {
    Map<String, String> out = new TreeMap<>();
    Map<String, Object> labels = JsonTrees.map(object, "metadata", "labels");
    if (labels != null) {
      labels.forEach((k, v) -> out.put(k, v == null ? "" : String.valueOf(v)));
    }
    return out;
  }

  /** The policy of a namespace's labels and the errors of those that do not parse. */
  record Evaluated(Policy policy, List<FieldError> errors) {}

  /** As Go's {@code api.PolicyToEvaluate}. */
  Evaluated policyOf(Map<String, String> labels) {
    List<FieldError> errors = new ArrayList<>();
    LevelVersion enforce = defaults.enforce();
    LevelVersion audit = defaults.audit();
    LevelVersion warn = defaults.warn();
    if (labels.isEmpty()) {
      return new Evaluated(defaults, errors);
    }
    boolean hasEnforceLevel = false;
    boolean hasWarnLevel = false;
    boolean hasWarnVersion = false;
    String value = labels.get(LABEL_PREFIX + "enforce");
    if (value != null) {
      Level level = level(value, "enforce", errors);
      hasEnforceLevel = level != null;
      enforce = new LevelVersion(level == null ? Level.RESTRICTED : level, enforce.version());
    }
    value = labels.get(LABEL_PREFIX + "enforce-version");
    if (value != null) {
      enforce = new LevelVersion(enforce.level(), version(value, "enforce-version", errors));
    }
    value = labels.get(LABEL_PREFIX + "audit");
    if (value != null) {
      Level level = level(value, "audit", errors);
      audit = new LevelVersion(level == null ? Level.PRIVILEGED : level, audit.version());
    }
    value = labels.get(LABEL_PREFIX + "audit-version");
    if (value != null) {
      audit = new LevelVersion(audit.level(), version(value, "audit-version", errors));
    }
    value = labels.get(LABEL_PREFIX + "warn");
    if (value != null) {
      hasWarnLevel = true;
      Level level = level(value, "warn", errors);
      warn = new LevelVersion(level == null ? Level.PRIVILEGED : level, warn.version());
    }
    value = labels.get(LABEL_PREFIX + "warn-version");
    if (value != null) {
      hasWarnVersion = true;
      warn = new LevelVersion(warn.level(), version(value, "warn-version", errors));
    }
    if (!hasWarnLevel && hasEnforceLevel && enforce.level().ordinal() > warn.level().ordinal()) {
      warn = new LevelVersion(enforce.level(), hasWarnVersion ? warn.version() : enforce.version());
    }
    return new Evaluated(new Policy(enforce, audit, warn), errors);
  }

  private static Level level(String value, String label, List<FieldError> errors) {
    Level level = Level.parse(value);
    if (level == null) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("metadata", "labels").key(LABEL_PREFIX + label),
              value,
              "must be one of privileged, baseline, restricted"));
    }
    return level;
  }

  private static Version version(String value, String label, List<FieldError> errors) {
    Version version = Version.parse(value);
    if (version == null) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("metadata", "labels").key(LABEL_PREFIX + label),
              value,
              "must be \"latest\" or \"v1.x\""));
      return Version.LATEST;
    }
    return version;
  }

  private Decision namespace(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty()) {
      return Decision.allowed();
    }
    Map<String, Object> namespace = content(attributes.object());
    Map<String, String> labels = labels(namespace);
    Evaluated now = policyOf(labels);
    String name = JsonTrees.string(namespace, attributes.name(), "metadata", "name");
    if (attributes.operation() == Operation.CREATE) {
      if (!now.errors().isEmpty()) {
        throw ApiErrors.newInvalid(GroupKind.of("", "Namespace"), name, now.errors());
      }
      if (config.exemptNamespaces().contains(name)) {
        String warning = exemptNamespaceWarning(name, now.policy(), labels);
        if (!warning.isEmpty()) {
          return new Decision(null, List.of(warning), Map.of());
        }
      }
      return Decision.allowed();
    }
    Evaluated before = policyOf(labels(content(attributes.oldObject())));
    if (!now.errors().isEmpty()
        && (before.errors().isEmpty() || !sameErrors(now.errors(), before.errors()))) {
      throw ApiErrors.newInvalid(GroupKind.of("", "Namespace"), name, now.errors());
    }
    LevelVersion enforce = now.policy().enforce();
    LevelVersion old = before.policy().enforce();
    if (enforce.equals(old) || enforce.level() == Level.PRIVILEGED) {
      return Decision.allowed();
    }
    if (enforce.version().equals(old.version())
        && enforce.level().ordinal() <= old.level().ordinal()) {
      return Decision.allowed();
    }
    if (config.exemptNamespaces().contains(name)) {
      String warning = exemptNamespaceWarning(name, now.policy(), labels);
      return warning.isEmpty()
          ? Decision.allowed()
          : new Decision(null, List.of(warning), Map.of());
    }
    return new Decision(null, podsInNamespace(name, enforce), Map.of());
  }

  private static boolean sameErrors(List<FieldError> a, List<FieldError> b) {
    return FieldError.aggregate(a).equals(FieldError.aggregate(b));
  }

  /** As Go's {@code EvaluatePodsInNamespace}: one warning per distinct violation. */
  List<String> podsInNamespace(String namespace, LevelVersion enforce) {
    List<Map<String, Object>> pods =
        loopback.listCached("/api/v1/namespaces/" + namespace + "/pods");
    // Pods of one controller after the first go last, as Go's prioritizePods orders them.
    List<Map<String, Object>> first = new ArrayList<>();
    List<Map<String, Object>> later = new ArrayList<>();
    Set<String> controllers = new java.util.HashSet<>();
    for (Map<String, Object> pod : pods) {
      if (exemptRuntimeClass(pod)) {
        continue;
      }
      String controller = controllerUid(pod);
      if (controller == null || controllers.add(controller)) {
        first.add(pod);
      } else {
        later.add(pod);
      }
    }
    first.addAll(later);
    List<String> violations = new ArrayList<>();
    Map<String, String> firstPod = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    for (Map<String, Object> pod : first) {
      List<Failure> failures =
          PodSecurityChecks.evaluate(
              enforce, JsonTrees.map(pod, "metadata"), JsonTrees.map(pod, "spec"));
      if (failures.isEmpty()) {
        continue;
      }
      String warning = PodSecurityChecks.reasons(failures);
      String podName = JsonTrees.string(pod, "", "metadata", "name");
      if (!counts.containsKey(warning)) {
        violations.add(warning);
        firstPod.put(warning, podName);
      } else if (podName.compareTo(firstPod.get(warning)) < 0) {
        firstPod.put(warning, podName);
      }
      counts.merge(warning, 1, Integer::sum);
    }
    List<String> out = new ArrayList<>();
    if (!violations.isEmpty()) {
      out.add(
          "existing pods in namespace "
              + PodSecurityChecks.goQuote(namespace)
              + " violate the new PodSecurity enforce level "
              + PodSecurityChecks.goQuote(enforce.toString()));
    }
    List<String> decorated = new ArrayList<>();
    for (String warning : violations) {
      int count = counts.get(warning);
      String pod = firstPod.get(warning);
      decorated.add(
          switch (count) {
            case 1 -> pod + ": " + warning;
            case 2 -> pod + " (and 1 other pod): " + warning;
            default -> pod + " (and " + (count - 1) + " other pods): " + warning;
          });
    }
    decorated.sort(null);
    out.addAll(decorated);
    return out;
  }

  private static String controllerUid(Map<String, Object> pod) {
    for (Map<String, Object> owner : JsonTrees.maps(pod, "metadata", "ownerReferences")) {
      if (Boolean.TRUE.equals(owner.get("controller"))) {
        return JsonTrees.string(owner, "", "uid");
      }
    }
    return null;
  }

  private String exemptNamespaceWarning(
      String namespace, Policy policy, Map<String, String> labels) {
    if (policy.fullyPrivileged() || equivalent(policy, defaults)) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (String mode : List.of("enforce", "audit", "warn")) {
      LevelVersion lv =
          switch (mode) {
            case "enforce" -> policy.enforce();
            case "audit" -> policy.audit();
            default -> policy.warn();
          };
      if (lv.level() != Level.PRIVILEGED
          && (labels.containsKey(LABEL_PREFIX + mode)
              || labels.containsKey(LABEL_PREFIX + mode + "-version"))) {
        parts.add(mode + "=" + lv);
      }
    }
    return "namespace "
        + PodSecurityChecks.goQuote(namespace)
        + " is exempt from Pod Security, and the policy ("
        + String.join(", ", parts)
        + ") will be ignored";
  }

  private static boolean equivalent(Policy a, Policy b) {
    return equivalent(a.enforce(), b.enforce())
        && equivalent(a.audit(), b.audit())
        && equivalent(a.warn(), b.warn());
  }

  private static boolean equivalent(LevelVersion a, LevelVersion b) {
    return a.level() == Level.PRIVILEGED && b.level() == Level.PRIVILEGED || a.equals(b);
  }

  private boolean exemptRuntimeClass(Map<String, Object> pod) {
    String runtimeClass = JsonTrees.string(pod, "", "spec", "runtimeClassName");
    return !runtimeClass.isEmpty() && config.exemptRuntimeClasses().contains(runtimeClass);
  }

  private Decision pod(AdmissionAttributes attributes) {
    if (IGNORED_POD_SUBRESOURCES.contains(attributes.subresource())) {
      return Decision.allowed();
    }
    String namespace = attributes.namespace();
    if (!namespace.isEmpty() && config.exemptNamespaces().contains(namespace)) {
      return Decision.exempt("namespace");
    }
    if (config.exemptUsernames().contains(attributes.user().name())) {
      return Decision.exempt("user");
    }
    Map<String, Object> ns =
        loopback
            .lookup("/api/v1/namespaces/" + namespace)
            .orElseThrow(
                () ->
                    ApiErrors.newInternalError(
                        new IllegalStateException(
                            "failed to lookup namespace " + PodSecurityChecks.goQuote(namespace))));
    Evaluated evaluated = policyOf(labels(ns));
    if (evaluated.errors().isEmpty() && evaluated.policy().fullyPrivileged()) {
      return Decision.allowed();
    }
    Map<String, Object> pod = content(attributes.object());
    if (attributes.operation() == Operation.UPDATE
        && !significantUpdate(pod, content(attributes.oldObject()))) {
      return Decision.allowed();
    }
    return evaluate(evaluated, JsonTrees.map(pod, "metadata"), JsonTrees.map(pod, "spec"), true);
  }

  private Decision workload(AdmissionAttributes attributes, List<String> templatePath) {
    if (!attributes.subresource().isEmpty()) {
      return Decision.allowed();
    }
    String namespace = attributes.namespace();
    if (!namespace.isEmpty() && config.exemptNamespaces().contains(namespace)) {
      return Decision.exempt("namespace");
    }
    if (config.exemptUsernames().contains(attributes.user().name())) {
      return Decision.exempt("user");
    }
    var ns = loopback.lookup("/api/v1/namespaces/" + namespace);
    if (ns.isEmpty()) {
      return new Decision(
          null,
          List.of(),
          Map.of(
              "error",
              "failed to lookup namespace "
                  + PodSecurityChecks.goQuote(namespace)
                  + ": namespaces "
                  + PodSecurityChecks.goQuote(namespace)
                  + " not found"));
    }
    Evaluated evaluated = policyOf(labels(ns.get()));
    if (evaluated.errors().isEmpty()
        && evaluated.policy().warn().level() == Level.PRIVILEGED
        && evaluated.policy().audit().level() == Level.PRIVILEGED) {
      return Decision.allowed();
    }
    Map<String, Object> template =
        JsonTrees.map(content(attributes.object()), templatePath.toArray(String[]::new));
    if (template == null) {
      return Decision.allowed();
    }
    return evaluate(
        evaluated, JsonTrees.map(template, "metadata"), JsonTrees.map(template, "spec"), false);
  }

  /** As Go's {@code EvaluatePod}. */
  private Decision evaluate(
      Evaluated evaluated,
      Map<String, Object> metadata,
      Map<String, Object> spec,
      boolean enforce) {
    String runtimeClass = JsonTrees.string(spec, "", "runtimeClassName");
    if (!runtimeClass.isEmpty() && config.exemptRuntimeClasses().contains(runtimeClass)) {
      return Decision.exempt("runtimeClass");
    }
    Policy policy = evaluated.policy();
    Map<String, String> audit = new LinkedHashMap<>();
    if (!evaluated.errors().isEmpty()) {
      audit.put("error", "Failed to parse policy: " + FieldError.aggregate(evaluated.errors()));
    }
    Map<LevelVersion, List<Failure>> cache = new HashMap<>();
    String refusal = null;
    if (enforce) {
      audit.put("enforce-policy", policy.enforce().toString());
      List<Failure> failures = PodSecurityChecks.evaluate(policy.enforce(), metadata, spec);
      if (!failures.isEmpty()) {
        refusal =
            "violates PodSecurity "
                + PodSecurityChecks.goQuote(policy.enforce().toString())
                + ": "
                + PodSecurityChecks.details(failures);
      }
      cache.put(policy.enforce(), failures);
    }
    List<Failure> auditFailures =
        cache.computeIfAbsent(policy.audit(), lv -> PodSecurityChecks.evaluate(lv, metadata, spec));
    if (!auditFailures.isEmpty()) {
      audit.put(
          "audit-violations",
          "would violate PodSecurity "
              + PodSecurityChecks.goQuote(policy.audit().toString())
              + ": "
              + PodSecurityChecks.details(auditFailures));
    }
    List<String> warnings = new ArrayList<>();
    if (refusal == null) {
      List<Failure> warnFailures =
          cache.computeIfAbsent(
              policy.warn(), lv -> PodSecurityChecks.evaluate(lv, metadata, spec));
      if (!warnFailures.isEmpty()) {
        warnings.add(
            "would violate PodSecurity "
                + PodSecurityChecks.goQuote(policy.warn().toString())
                + ": "
                + PodSecurityChecks.details(warnFailures));
      }
    }
    return new Decision(refusal, warnings, audit);
  }

  /** As Go's {@code isSignificantPodUpdate}: only a container's image or a new one counts. */
  private static boolean significantUpdate(Map<String, Object> pod, Map<String, Object> old) {
    for (String list : List.of("containers", "initContainers")) {
      List<Map<String, Object>> now = JsonTrees.maps(pod, "spec", list);
      List<Map<String, Object>> before = JsonTrees.maps(old, "spec", list);
      if (now.size() != before.size()) {
        return true;
      }
      for (int i = 0; i < now.size(); i++) {
        if (!Objects.equals(now.get(i).get("image"), before.get(i).get("image"))) {
          return true;
        }
      }
    }
    for (Map<String, Object> c : JsonTrees.maps(pod, "spec", "ephemeralContainers")) {
      Map<String, Object> match = null;
      for (Map<String, Object> o : JsonTrees.maps(old, "spec", "ephemeralContainers")) {
        if (Objects.equals(o.get("name"), c.get("name"))) {
          match = o;
          break;
        }
      }
      if (match == null || !Objects.equals(match.get("image"), c.get("image"))) {
        return true;
      }
    }
    return false;
  }
}
