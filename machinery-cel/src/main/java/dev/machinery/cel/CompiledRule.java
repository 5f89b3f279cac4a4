package dev.machinery.cel;

import dev.cel.runtime.CelRuntime;
import dev.machinery.apiserver.apiextensions.v1.ValidationRule;

/**
 * One rule of a schema node, compiled: its program (null when the rule is empty or did not
 * compile), whether it reads {@code oldSelf}, its message expression's program and its {@code
 * fieldPath} resolved. Immutable; programs are thread-safe.
 *
 * @param rule the rule as written
 * @param program the rule's program, or null
 * @param compileError why the rule did not compile, or null
 * @param usesOldSelf whether the rule is a transition rule
 * @param message the message expression's program, or null
 * @param fieldPath the resolved field path ({@code spec.foo}), or null for the node's own path
 */
record CompiledRule(
    ValidationRule rule,
    CelRuntime.Program program,
    String compileError,
    boolean usesOldSelf,
    CelRuntime.Program message,
    String fieldPath) {

  boolean optionalOldSelf() {
    return Boolean.TRUE.equals(rule.optionalOldSelf());
  }

  /** The rule's message, or {@code failed rule: <rule>}, as kube-apiserver words it. */
  String messageOrDefault() {
    String message = rule.message() == null ? "" : rule.message().strip();
    return message.isEmpty() ? "failed rule: " + errorString() : message;
  }

  /** What kube-apiserver names a rule by in errors: its message, else its text. */
  String errorString() {
    String message = rule.message() == null ? "" : rule.message().strip();
    return message.isEmpty() ? (rule.rule() == null ? "" : rule.rule().strip()) : message;
  }
}
