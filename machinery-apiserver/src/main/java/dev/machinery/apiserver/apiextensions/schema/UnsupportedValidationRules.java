package dev.machinery.apiserver.apiextensions.schema;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.apiextensions.v1.ValidationRule;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a server built without a CEL implementation: see {@link
 * ValidationRules#unsupported()}. Stateless.
 */
final class UnsupportedValidationRules implements ValidationRules {

  static final UnsupportedValidationRules INSTANCE = new UnsupportedValidationRules();

  /** What a refused rule is told. */
  static final String DETAIL =
      "CEL validation rules are not supported by this server: it was built without a CEL"
          + " implementation (ValidationRules), so the rule could not be enforced";

  private UnsupportedValidationRules() {}

  @Override
  public List<FieldError> check(JSONSchemaProps schema, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    ValidationRules.forEachRules(
        schema,
        path,
        (node, at) -> {
          List<ValidationRule> rules = node.validations();
          for (int i = 0; i < rules.size(); i++) {
            errors.add(
                FieldError.forbidden(
                    at.child("x-kubernetes-validations").index(i).child("rule"), DETAIL));
          }
        });
    return errors;
  }

  @Override
  public Validator compile(JSONSchemaProps schema) {
    List<FieldPath> rules = new ArrayList<>();
    ValidationRules.forEachRules(
        schema, FieldPath.of("openAPIV3Schema"), (node, at) -> rules.add(at));
    if (rules.isEmpty()) {
      return (object, old) -> List.of();
    }
    // kube-apiserver names the root of an object "<nil>" in the errors of its rules.
    return (object, old) ->
        List.of(
            FieldError.invalid(
                FieldPath.of("<nil>"), "object", "rule compiler initialization error: " + DETAIL));
  }

  @Override
  public String toString() {
    return "ValidationRules.unsupported()";
  }
}
