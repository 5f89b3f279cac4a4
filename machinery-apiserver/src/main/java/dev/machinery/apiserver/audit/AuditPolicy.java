package dev.machinery.apiserver.audit;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.Validation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * An audit policy ({@code audit.k8s.io/v1 Policy}), kube-apiserver's {@code --audit-policy-file}:
 * rules tried in order, the first that matches a request deciding its level; a request no rule
 * matches is not recorded ({@link Level#NONE}). Stages omitted by the policy are omitted by every
 * rule, and a rule's {@code omitManagedFields}, when set, wins over the policy's.
 *
 * <p>{@link #parse} reads kube-apiserver's file format (YAML or JSON) and validates it as
 * kube-apiserver does; fields it does not know are ignored with a warning, as kube-apiserver's
 * lenient fallback does. Immutable; thread-safe.
 */
public final class AuditPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(AuditPolicy.class);

  /** The largest policy file read, in bytes. */
  public static final int MAX_POLICY_BYTES = 4 * 1024 * 1024;

  private static final String API_VERSION = "audit.k8s.io/v1";
  private static final List<String> LEVELS =
      List.of("None", "Metadata", "Request", "RequestResponse");
  private static final List<String> STAGES =
      List.of("RequestReceived", "ResponseStarted", "ResponseComplete", "Panic");
  private static final YAMLMapper YAML;

  static {
    LoaderOptions limits = new LoaderOptions();
    limits.setAllowDuplicateKeys(false);
    limits.setMaxAliasesForCollections(50);
    limits.setNestingDepthLimit(64);
    limits.setCodePointLimit(MAX_POLICY_BYTES);
    YAMLFactory factory =
        YAMLFactory.builder()
            .loaderOptions(limits)
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(64)
                    .maxStringLength(1024 * 1024)
                    .build())
            .build();
    YAML = new YAMLMapper(factory);
  }

  private final List<PolicyRule> rules;
  private final Set<Stage> omitStages;
  private final boolean omitManagedFields;
  private final List<RequestAuditConfig> configs;
  private final RequestAuditConfig unmatched;

  private AuditPolicy(List<PolicyRule> rules, Set<Stage> omitStages, boolean omitManagedFields) {
    this.rules = List.copyOf(rules);
    this.omitStages = Set.copyOf(omitStages);
    this.omitManagedFields = omitManagedFields;
    List<RequestAuditConfig> made = new ArrayList<>();
    for (PolicyRule rule : rules) {
      Set<Stage> stages = EnumSet.noneOf(Stage.class);
      stages.addAll(omitStages);
      stages.addAll(rule.omitStages());
      made.add(
          new RequestAuditConfig(
              rule.level(),
              stages,
              rule.omitManagedFields() == null ? omitManagedFields : rule.omitManagedFields()));
    }
    this.configs = List.copyOf(made);
    this.unmatched = new RequestAuditConfig(Level.NONE, omitStages, omitManagedFields);
  }

  /**
   * A policy of rules, validated as {@link #parse} validates a file.
   *
   * @param rules the rules, in the order they are tried; at least one
   * @param omitStages the stages no rule records
   * @param omitManagedFields whether recorded objects leave out their managed fields, unless a rule
   *     says otherwise
   * @return the policy
   * @throws AuditPolicyException when a rule is invalid
   */
  public static AuditPolicy of(
      List<PolicyRule> rules, Set<Stage> omitStages, boolean omitManagedFields) {
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      validate(rules.get(i), FieldPath.of("rules").index(i), errors);
    }
    if (rules.isEmpty()) {
      errors.add(FieldError.required(FieldPath.of("rules"), "a policy needs at least one rule"));
    }
    if (!errors.isEmpty()) {
      throw new AuditPolicyException("(built in code)", errors);
    }
    return new AuditPolicy(rules, omitStages, omitManagedFields);
  }

  /**
   * Reads a policy file ({@code --audit-policy-file}).
   *
   * @param file the file, YAML or JSON
   * @return the policy
   * @throws AuditPolicyException when it is not a valid policy, naming the file
   * @throws UncheckedIOException when it cannot be read
   */
  public static AuditPolicy read(Path file) {
    try {
      long size = Files.size(file);
      if (size > MAX_POLICY_BYTES) {
        throw new AuditPolicyException(
            "file \"" + file + "\"",
            "the file has " + size + " bytes; at most " + MAX_POLICY_BYTES + " are read",
            0,
            0,
            null);
      }
      return parse(Files.readString(file, StandardCharsets.UTF_8), "file \"" + file + "\"");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit policy file \"" + file + "\"", e);
    }
  }

  /**
   * Parses a policy document.
   *
   * @param document the policy, YAML or JSON
   * @return the policy
   * @throws AuditPolicyException when it is not a valid policy
   */
  public static AuditPolicy parse(String document) {
    return parse(document, "document");
  }

  private static AuditPolicy parse(String document, String source) {
    if (document.length() > MAX_POLICY_BYTES) {
      throw new AuditPolicyException(
          source,
          "the document has " + document.length() + " characters; at most " + MAX_POLICY_BYTES,
          0,
          0,
          null);
    }
    JsonNode root;
    com.fasterxml.jackson.core.JsonParser parser = null;
    try {
      parser = YAML.createParser(document);
      root = YAML.readTree(parser);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      if (at == null && parser != null) {
        at = parser.currentLocation();
      }
      throw new AuditPolicyException(
          source,
          e.getOriginalMessage(),
          at == null ? 0 : at.getLineNr(),
          at == null ? 0 : at.getColumnNr(),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (parser != null) {
        try {
          parser.close();
        } catch (IOException e) {
          // a parser over a string has nothing to release
        }
      }
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw new AuditPolicyException(
          source, List.of(FieldError.required(FieldPath.of("rules"), "the policy is empty")));
    }
    if (!root.isObject()) {
      throw new AuditPolicyException(
          source,
          List.of(
              FieldError.typeInvalid(
                  FieldPath.of("<root>"), kind(root), "a Policy must be an object")));
    }
    Reader reader = new Reader();
    String apiVersion = root.path("apiVersion").asText("");
    String kind = root.path("kind").asText("");
    if (!API_VERSION.equals(apiVersion)) {
      reader.errors.add(
          FieldError.notSupported(FieldPath.of("apiVersion"), apiVersion, List.of(API_VERSION)));
    }
    if (!"Policy".equals(kind)) {
      reader.errors.add(FieldError.notSupported(FieldPath.of("kind"), kind, List.of("Policy")));
    }
    Set<Stage> omitStages = reader.stages(root.get("omitStages"), FieldPath.of("omitStages"));
    boolean omitManagedFields =
        Boolean.TRUE.equals(
            reader.bool(root.get("omitManagedFields"), FieldPath.of("omitManagedFields")));
    List<PolicyRule> rules = new ArrayList<>();
    JsonNode rulesNode = root.get("rules");
    if (rulesNode == null || rulesNode.isNull() || rulesNode.isEmpty()) {
      reader.errors.add(
          FieldError.required(
              FieldPath.of("rules"), "loaded illegal policy with 0 rules; at least one is needed"));
    } else if (!rulesNode.isArray()) {
      reader.errors.add(
          FieldError.typeInvalid(FieldPath.of("rules"), kind(rulesNode), "must be a list"));
    } else {
      for (int i = 0; i < rulesNode.size(); i++) {
        PolicyRule rule = reader.rule(rulesNode.get(i), FieldPath.of("rules").index(i));
        if (rule != null) {
          validate(rule, FieldPath.of("rules").index(i), reader.errors);
          rules.add(rule);
        }
      }
    }
    reader.unknown(
        root,
        FieldPath.of("<root>"),
        Set.of("apiVersion", "kind", "metadata", "rules", "omitStages", "omitManagedFields"));
    if (!reader.errors.isEmpty()) {
      throw new AuditPolicyException(source, reader.errors);
    }
    for (String warning : reader.warnings) {
      LOG.warn("audit policy {}: {}", source, warning);
    }
    return new AuditPolicy(rules, omitStages, omitManagedFields);
  }

  /** Checks what kube-apiserver's validation checks beyond the types. */
  private static void validate(PolicyRule rule, FieldPath path, List<FieldError> errors) {
    List<String> urls = rule.nonResourceURLs();
    for (int i = 0; i < urls.size(); i++) {
      String url = urls.get(i);
      if (url.equals("*")) {
        continue;
      }
      if (!url.startsWith("/")) {
        errors.add(
            FieldError.invalid(
                path.child("nonResourceURLs").index(i),
                url,
                "non-resource URL rules must begin with a '/' character"));
      }
      if (!url.isEmpty() && url.substring(0, url.length() - 1).indexOf('*') >= 0) {
        errors.add(
            FieldError.invalid(
                path.child("nonResourceURLs").index(i),
                url,
                "non-resource URL wildcards '*' must be the final character of the rule"));
      }
    }
    for (int i = 0; i < rule.resources().size(); i++) {
      GroupResources resources = rule.resources().get(i);
      String group = resources.group();
      if (!group.isEmpty() && !group.equals("*")) {
        List<String> problems = Validation.isDNS1123Subdomain(group);
        if (!problems.isEmpty()) {
          errors.add(
              FieldError.invalid(
                  path.child("resources").index(i).child("group"),
                  group,
                  String.join(",", problems)));
        }
      }
      if (!resources.resourceNames().isEmpty() && resources.resources().isEmpty()) {
        errors.add(
            FieldError.invalid(
                path.child("resources").index(i).child("resourceNames"),
                resources.resourceNames(),
                "using resourceNames requires at least one resource"));
      }
    }
    if (!urls.isEmpty() && (!rule.resources().isEmpty() || !rule.namespaces().isEmpty())) {
      errors.add(
          FieldError.invalid(
              path.child("nonResourceURLs"),
              urls,
              "rules cannot apply to both regular resources and non-resource URLs"));
    }
  }

  private static String kind(JsonNode node) {
    return node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
  }

  /** Reads the parts of a policy tree, collecting every problem with its path. */
  private static final class Reader {
    final List<FieldError> errors = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();

    PolicyRule rule(JsonNode node, FieldPath path) {
      if (!node.isObject()) {
        errors.add(FieldError.typeInvalid(path, kind(node), "a rule must be an object"));
        return null;
      }
      unknown(
          node,
          path,
          Set.of(
              "level",
              "users",
              "userGroups",
              "verbs",
              "resources",
              "namespaces",
              "nonResourceURLs",
              "omitStages",
              "omitManagedFields"));
      Level level = Level.NONE;
      JsonNode levelNode = node.get("level");
      if (levelNode == null || levelNode.isNull() || levelNode.asText().isEmpty()) {
        errors.add(FieldError.required(path.child("level"), ""));
      } else if (!levelNode.isTextual()) {
        errors.add(
            FieldError.typeInvalid(path.child("level"), kind(levelNode), "must be a string"));
      } else {
        String text = levelNode.asText();
        level =
            Level.fromWireName(text)
                .orElseGet(
                    () -> {
                      errors.add(FieldError.notSupported(path.child("level"), text, LEVELS));
                      return Level.NONE;
                    });
      }
      List<GroupResources> resources = new ArrayList<>();
      JsonNode resourcesNode = node.get("resources");
      if (resourcesNode != null && !resourcesNode.isNull()) {
        if (!resourcesNode.isArray()) {
          errors.add(
              FieldError.typeInvalid(
                  path.child("resources"), kind(resourcesNode), "must be a list"));
        } else {
          for (int i = 0; i < resourcesNode.size(); i++) {
            JsonNode each = resourcesNode.get(i);
            FieldPath at = path.child("resources").index(i);
            if (!each.isObject()) {
              errors.add(FieldError.typeInvalid(at, kind(each), "must be an object"));
              continue;
            }
            unknown(each, at, Set.of("group", "resources", "resourceNames"));
            JsonNode group = each.get("group");
            String groupName = "";
            if (group != null && !group.isNull()) {
              if (!group.isTextual()) {
                errors.add(
                    FieldError.typeInvalid(at.child("group"), kind(group), "must be a string"));
              } else {
                groupName = group.asText();
              }
            }
            resources.add(
                new GroupResources(
                    groupName,
                    strings(each.get("resources"), at.child("resources")),
                    strings(each.get("resourceNames"), at.child("resourceNames"))));
          }
        }
      }
      return new PolicyRule(
          level,
          strings(node.get("users"), path.child("users")),
          strings(node.get("userGroups"), path.child("userGroups")),
          strings(node.get("verbs"), path.child("verbs")),
          resources,
          strings(node.get("namespaces"), path.child("namespaces")),
          strings(node.get("nonResourceURLs"), path.child("nonResourceURLs")),
          stages(node.get("omitStages"), path.child("omitStages")),
          bool(node.get("omitManagedFields"), path.child("omitManagedFields")));
    }

    List<String> strings(JsonNode node, FieldPath path) {
      if (node == null || node.isNull()) {
        return List.of();
      }
      if (!node.isArray()) {
        errors.add(FieldError.typeInvalid(path, kind(node), "must be a list of strings"));
        return List.of();
      }
      List<String> values = new ArrayList<>();
      for (int i = 0; i < node.size(); i++) {
        JsonNode each = node.get(i);
        if (!each.isTextual()) {
          errors.add(FieldError.typeInvalid(path.index(i), kind(each), "must be a string"));
        } else {
          values.add(each.asText());
        }
      }
      return values;
    }

    Set<Stage> stages(JsonNode node, FieldPath path) {
      Set<Stage> stages = EnumSet.noneOf(Stage.class);
      if (node == null || node.isNull()) {
        return stages;
      }
      if (!node.isArray()) {
        errors.add(FieldError.typeInvalid(path, kind(node), "must be a list of stages"));
        return stages;
      }
      for (int i = 0; i < node.size(); i++) {
        String name = node.get(i).asText();
        FieldPath at = path.index(i);
        Stage.fromWireName(name)
            .ifPresentOrElse(
                stages::add,
                () ->
                    errors.add(
                        FieldError.invalid(
                            at, name, "allowed stages are " + String.join(",", STAGES))));
      }
      return stages;
    }

    Boolean bool(JsonNode node, FieldPath path) {
      if (node == null || node.isNull()) {
        return null;
      }
      if (!node.isBoolean()) {
        errors.add(FieldError.typeInvalid(path, node.asText(), "must be true or false"));
        return null;
      }
      return node.booleanValue();
    }

    void unknown(JsonNode node, FieldPath path, Set<String> known) {
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!known.contains(name)) {
          warnings.add(
              "unknown field \""
                  + (path.toString().equals("<root>") ? name : path + "." + name)
                  + "\" ignored");
        }
      }
    }
  }

  /**
   * Returns the rules, in the order they are tried.
   *
   * @return the rules
   */
  public List<PolicyRule> rules() {
    return rules;
  }

  /**
   * Returns the stages no rule records.
   *
   * @return the stages
   */
  public Set<Stage> omitStages() {
    return omitStages;
  }

  /**
   * Whether recorded objects leave out their managed fields, unless a rule says otherwise.
   *
   * @return the policy's default
   */
  public boolean omitManagedFields() {
    return omitManagedFields;
  }

  /**
   * Decides how a request is recorded: by the first rule that matches it, or not at all.
   *
   * @param attributes the request, with the user who made it (not the user impersonated)
   * @return the level, the stages omitted and whether to omit managed fields
   */
  public RequestAuditConfig evaluate(Attributes attributes) {
    return evaluate(attributes, attributes.user());
  }

  /**
   * Decides how a request refused by authentication is recorded: as {@link #evaluate}, but with no
   * user, so that no rule that names users or groups matches it.
   *
   * @param attributes the request; its user is not looked at
   * @return the level, the stages omitted and whether to omit managed fields
   */
  public RequestAuditConfig evaluateUnauthenticated(Attributes attributes) {
    return evaluate(attributes, null);
  }

  private RequestAuditConfig evaluate(Attributes attributes, UserInfo user) {
    Objects.requireNonNull(attributes, "attributes");
    for (int i = 0; i < rules.size(); i++) {
      if (matches(rules.get(i), attributes, user)) {
        return configs.get(i);
      }
    }
    return unmatched;
  }

  private static boolean matches(PolicyRule rule, Attributes attributes, UserInfo user) {
    if (!rule.users().isEmpty() && (user == null || !rule.users().contains(user.name()))) {
      return false;
    }
    if (!rule.userGroups().isEmpty()) {
      if (user == null || user.groups().stream().noneMatch(rule.userGroups()::contains)) {
        return false;
      }
    }
    if (!rule.verbs().isEmpty() && !rule.verbs().contains(attributes.verb())) {
      return false;
    }
    if (!rule.namespaces().isEmpty() || !rule.resources().isEmpty()) {
      return matchesResource(rule, attributes);
    }
    if (!rule.nonResourceURLs().isEmpty()) {
      return matchesPath(rule, attributes);
    }
    return true;
  }

  private static boolean matchesPath(PolicyRule rule, Attributes attributes) {
    if (attributes.resourceRequest()) {
      return false;
    }
    String path = attributes.path();
    for (String spec : rule.nonResourceURLs()) {
      if (spec.equals("*") || spec.equals(path)) {
        return true;
      }
      if (spec.endsWith("*") && path.startsWith(spec.substring(0, spec.length() - 1))) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesResource(PolicyRule rule, Attributes attributes) {
    if (!attributes.resourceRequest()) {
      return false;
    }
    if (!rule.namespaces().isEmpty() && !rule.namespaces().contains(attributes.namespace())) {
      return false;
    }
    if (rule.resources().isEmpty()) {
      return true;
    }
    String resource = attributes.resource();
    String subresource = attributes.subresource();
    String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
    for (GroupResources each : rule.resources()) {
      if (!each.group().equals(attributes.apiGroup()) && !each.group().equals("*")) {
        continue;
      }
      if (each.resources().isEmpty()) {
        return true;
      }
      if (!each.resourceNames().isEmpty() && !each.resourceNames().contains(attributes.name())) {
        continue;
      }
      for (String spec : each.resources()) {
        if (spec.equals("*") || spec.equals(combined)) {
          return true;
        }
        if (!subresource.isEmpty()
            && spec.startsWith("*/")
            && spec.substring(2).equals(subresource)) {
          return true;
        }
        if (spec.endsWith("/*") && spec.substring(0, spec.length() - 2).equals(resource)) {
          return true;
        }
      }
    }
    return false;
  }
}
