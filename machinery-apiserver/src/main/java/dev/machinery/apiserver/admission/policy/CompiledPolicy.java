package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.admission.policy.PolicyExpressions.Declarations;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Expression;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.ResultType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One policy's spec with its expressions compiled once. Immutable. */
final class CompiledPolicy {
  record Named(String name, Expression expression) {}

  record Validation(
      String expression,
      Expression compiled,
      String message,
      Expression messageExpression,
      String reason) {}

  final String name;
  final boolean failOpen;
  final String paramApiVersion;
  final String paramKind;
  final List<Named> matchConditions = new ArrayList<>();
  final List<Named> variables = new ArrayList<>();
  final List<Validation> validations = new ArrayList<>();
  final List<Named> auditAnnotations = new ArrayList<>();

  CompiledPolicy(Map<String, Object> policy, PolicyExpressions expressions) {
    this.name = Trees.string(policy, "metadata", "name");
    this.failOpen = "Ignore".equals(Trees.string(policy, "spec", "failurePolicy"));
    this.paramApiVersion = Trees.string(policy, "spec", "paramKind", "apiVersion");
    this.paramKind = Trees.string(policy, "spec", "paramKind", "kind");
    boolean params = paramKind != null;
    List<String> declared = new ArrayList<>();
    List<Object> variableTrees = Trees.list(policy, "spec", "variables");
    for (Object variable : variableTrees) {
      declared.add(String.valueOf(Trees.string(variable, "name")));
    }
    Declarations all = new Declarations(params, true, declared);
    for (Object condition : Trees.list(policy, "spec", "matchConditions")) {
      matchConditions.add(
          new Named(
              Trees.string(condition, "name"),
              expressions.compile(
                  text(condition, "expression"),
                  ResultType.BOOL,
                  new Declarations(params, true, List.of()))));
    }
    List<String> before = new ArrayList<>();
    for (Object variable : variableTrees) {
      variables.add(
          new Named(
              Trees.string(variable, "name"),
              expressions.compile(
                  text(variable, "expression"),
                  ResultType.ANY,
                  new Declarations(params, true, before))));
      before.add(String.valueOf(Trees.string(variable, "name")));
    }
    Declarations messages = new Declarations(params, false, declared);
    for (Object validation : Trees.list(policy, "spec", "validations")) {
      String messageExpression = Trees.string(validation, "messageExpression");
      validations.add(
          new Validation(
              text(validation, "expression"),
              expressions.compile(text(validation, "expression"), ResultType.BOOL, all),
              Trees.string(validation, "message"),
              messageExpression == null || messageExpression.isEmpty()
                  ? null
                  : expressions.compile(messageExpression, ResultType.STRING, messages),
              Trees.string(validation, "reason")));
    }
    for (Object annotation : Trees.list(policy, "spec", "auditAnnotations")) {
      auditAnnotations.add(
          new Named(
              Trees.string(annotation, "key"),
              expressions.compile(
                  text(annotation, "valueExpression"), ResultType.STRING_OR_NULL, messages)));
    }
  }

  private static String text(Object tree, String key) {
    String value = Trees.string(tree, key);
    return value == null ? "" : value;
  }
}
