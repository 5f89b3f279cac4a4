package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.admission.policy.PolicyExpressions.TypeCheckTypes;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.TypeChecker;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Variable;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The type checking of a ValidatingAdmissionPolicy, as kube-apiserver's status controller does it
 * for {@code status.typeChecking}: each validation's {@code expression} and {@code
 * messageExpression} is compiled once for every kind its {@code matchConstraints.resourceRules}
 * name exactly (rules with a wildcard group or version are skipped, wildcard resources and
 * subresources left out, resources the server does not serve and kinds without a schema skipped, at
 * most {@value #MAX_TYPES_TO_CHECK} kinds), with {@code object} and {@code oldObject} typed by the
 * kind's schema and {@code params} by the {@code paramKind}'s. Each expression that fails for some
 * kinds gets one warning: for each of those kinds, in the order of group, version and kind, {@code
 * <group>/<version>, Kind=<kind>: <the compiler's issues>} and a line break, joined by line breaks;
 * its field reference is {@code spec.validations[i].expression} or {@code
 * spec.validations[i].messageExpression}. Warnings never change what the policy does.
 *
 * <p>Immutable and thread-safe when its expressions and objects are.
 */
public final class PolicyTypeChecker {
  /** At most this many kinds are checked for one policy, as in kube-apiserver. */
  public static final int MAX_TYPES_TO_CHECK = 10;

  /**
   * One expression's type checking warning, as {@code status.typeChecking.expressionWarnings} lists
   * it. Immutable.
   *
   * @param fieldRef the expression's field, such as {@code spec.validations[0].expression}
   * @param warning the issues of each kind
   */
  public record ExpressionWarning(String fieldRef, String warning) {
    /**
     * Checks the parts.
     *
     * @param fieldRef see the record description
     * @param warning see the record description
     */
    public ExpressionWarning {
      Objects.requireNonNull(fieldRef, "fieldRef");
      Objects.requireNonNull(warning, "warning");
    }
  }

  private final PolicyExpressions expressions;
  private final PolicyObjects objects;

  /**
   * Creates the checker.
   *
   * @param expressions the expression language
   * @param objects where the kinds of resources and their schemas are found
   */
  public PolicyTypeChecker(PolicyExpressions expressions, PolicyObjects objects) {
    this.expressions = Objects.requireNonNull(expressions, "expressions");
    this.objects = Objects.requireNonNull(objects, "objects");
  }

  /**
   * Type checks a policy's validations.
   *
   * @param policy the ValidatingAdmissionPolicy, as a JSON tree
   * @return the warnings, in the order of the validations; empty when every expression type checks
   */
  public List<ExpressionWarning> check(Map<String, Object> policy) {
    List<GroupVersionKind> kinds = new ArrayList<>();
    List<JSONSchemaProps> schemas = new ArrayList<>();
    for (GroupVersionKind kind : typesToCheck(policy)) {
      Optional<JSONSchemaProps> schema = schema(kind);
      if (schema.isPresent()) {
        kinds.add(kind);
        schemas.add(schema.get());
      }
    }
    GroupVersionKind paramKind = paramKind(policy);
    JSONSchemaProps paramsSchema = paramKind == null ? null : schema(paramKind).orElse(null);
    List<Variable> variables = new ArrayList<>();
    for (Object variable : Trees.list(policy, "spec", "variables")) {
      variables.add(
          new Variable(
              Objects.requireNonNullElse(Trees.string(variable, "name"), ""),
              Objects.requireNonNullElse(Trees.string(variable, "expression"), "")));
    }
    List<TypeChecker> checkers = new ArrayList<>();
    for (JSONSchemaProps schema : schemas) {
      checkers.add(
          expressions.typeChecker(
              new TypeCheckTypes(schema, paramKind != null, paramsSchema, variables)));
    }
    List<ExpressionWarning> warnings = new ArrayList<>();
    List<Object> validations = Trees.list(policy, "spec", "validations");
    for (int i = 0; i < validations.size(); i++) {
      Object validation = validations.get(i);
      String expression = Objects.requireNonNullElse(Trees.string(validation, "expression"), "");
      warning("spec.validations[" + i + "].expression", expression, kinds, checkers)
          .ifPresent(warnings::add);
      String message = Trees.string(validation, "messageExpression");
      if (message == null || message.isEmpty()) {
        continue;
      }
      warning("spec.validations[" + i + "].messageExpression", message, kinds, checkers)
          .ifPresent(warnings::add);
    }
    return warnings;
  }

  private static Optional<ExpressionWarning> warning(
      String fieldRef,
      String expression,
      List<GroupVersionKind> kinds,
      List<TypeChecker> checkers) {
    List<String> messages = new ArrayList<>();
    for (int k = 0; k < kinds.size(); k++) {
      Optional<String> issues;
      try {
        issues = checkers.get(k).check(expression);
      } catch (RuntimeException e) {
        messages.add(goString(kinds.get(k)) + ": type checking error: " + e.getMessage() + "\n");
        continue;
      }
      if (issues.isPresent()) {
        messages.add(goString(kinds.get(k)) + ": " + issues.get() + "\n");
      }
    }
    if (messages.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ExpressionWarning(fieldRef, String.join("\n", messages)));
  }

  private Optional<JSONSchemaProps> schema(GroupVersionKind kind) {
    try {
      return objects.schema(kind);
    } catch (RuntimeException e) {
      // As kube-apiserver: a schema that cannot be resolved leaves the kind unchecked.
      return Optional.empty();
    }
  }

  /**
   * The kinds a policy's expressions are checked against, as kube-apiserver picks them: from each
   * resource rule without a wildcard group or version, every kind its exact resources resolve to,
   * up to {@value #MAX_TYPES_TO_CHECK}, sorted by group, version and kind.
   *
   * @param policy the ValidatingAdmissionPolicy, as a JSON tree
   * @return the kinds
   */
  public List<GroupVersionKind> typesToCheck(Map<String, Object> policy) {
    Set<GroupVersionKind> kinds = new LinkedHashSet<>();
    rules:
    for (Object rule : Trees.list(policy, "spec", "matchConstraints", "resourceRules")) {
      List<String> groups = Trees.strings(rule, "apiGroups");
      List<String> versions = Trees.strings(rule, "apiVersions");
      if (groups.isEmpty()
          || versions.isEmpty()
          || groups.stream().anyMatch(g -> g.contains("*"))
          || versions.stream().anyMatch(v -> v.contains("*"))) {
        continue;
      }
      List<String> resources =
          Trees.strings(rule, "resources").stream()
              .filter(r -> !r.contains("*") && !r.contains("/"))
              .sorted()
              .toList();
      int count = 0;
      for (String group : groups.stream().sorted().toList()) {
        for (String version : versions.stream().sorted().toList()) {
          for (String resource : resources) {
            for (GroupVersionKind kind : objects.kindsFor(group, version, resource)) {
              kinds.add(kind);
              count++;
              if (count == MAX_TYPES_TO_CHECK) {
                break rules;
              }
            }
          }
        }
      }
    }
    return kinds.stream()
        .sorted(
            Comparator.comparing(GroupVersionKind::group)
                .thenComparing(GroupVersionKind::version)
                .thenComparing(GroupVersionKind::kind))
        .toList();
  }

  /** The {@code paramKind}'s kind, or null without one or with an unparsable apiVersion. */
  private static GroupVersionKind paramKind(Map<String, Object> policy) {
    Map<String, Object> paramKind = Trees.map(policy, "spec", "paramKind");
    if (paramKind == null) {
      return null;
    }
    String apiVersion = Objects.requireNonNullElse(Trees.string(paramKind, "apiVersion"), "");
    String kind = Objects.requireNonNullElse(Trees.string(paramKind, "kind"), "");
    String group = "";
    String version = apiVersion;
    int slash = apiVersion.indexOf('/');
    if (slash >= 0) {
      if (apiVersion.indexOf('/', slash + 1) >= 0) {
        return null;
      }
      group = apiVersion.substring(0, slash);
      version = apiVersion.substring(slash + 1);
    }
    if (group.isEmpty() && version.isEmpty() && kind.isEmpty()) {
      return null;
    }
    return new GroupVersionKind(group, version, kind);
  }

  /** A kind as Go prints it: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod}. */
  static String goString(GroupVersionKind kind) {
    return kind.group() + "/" + kind.version() + ", Kind=" + kind.kind();
  }
}
