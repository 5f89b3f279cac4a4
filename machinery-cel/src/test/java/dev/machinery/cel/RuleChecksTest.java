package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules a CustomResourceDefinition is refused for, with the paths and messages of
 * kube-apiserver's CRD validation (apiextensions-apiserver pkg/apis/apiextensions/validation and
 * pkg/apiserver/schema/cel/compilation.go): the field path of the rule, Go's rendering of the rule
 * as the value, and the detail.
 */
class RuleChecksTest {
  private static final ValidationRules RULES = CelValidationRules.create();
  private static final String AT =
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";

  private static String value(String rule, String message, String messageExpression) {
    return "apiextensions.ValidationRule{Rule:"
        + FieldError.quote(rule)
        + ", Message:"
        + FieldError.quote(message)
        + ", MessageExpression:"
        + FieldError.quote(messageExpression)
        + ", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
        + " OptionalOldSelf:(*bool)(nil)}";
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of(
            "- rule: self.missing > 0",
            List.of(
                AT
                    + ".rule: Invalid value: "
                    + value("self.missing > 0", "", "")
                    + ": compilation failed: ERROR: <input>:1:5: undefined field 'missing'\n"
                    + " | self.missing > 0\n"
                    + " | ....^")),
        Arguments.of(
            "- rule: self.replicas",
            List.of(
                AT
                    + ".rule: Invalid value: "
                    + value("self.replicas", "", "")
                    + ": cel expression must evaluate to a bool")),
        Arguments.of(
            "- rule: self.replicas > 0\n  messageExpression: self.replicas",
            List.of(
                AT
                    + ".messageExpression: Invalid value: "
                    + value("self.replicas > 0", "", "self.replicas")
                    + ": messageExpression must evaluate to a string")),
        Arguments.of("- rule: ' '", List.of(AT + ".rule: Required value: rule is not specified")),
        Arguments.of(
            "- rule: self.replicas > 0\n  message: ' '",
            List.of(AT + ".message: Invalid value: \" \": message must be non-empty if specified")),
        Arguments.of(
            "- rule: self.replicas > 0\n  message: \"a\\nb\"",
            List.of(
                AT + ".message: Invalid value: \"a\\nb\": message must not contain line breaks")),
        Arguments.of(
            "- rule: \"self.replicas > 0 &&\\nself.replicas < 5\"",
            List.of(
                AT
                    + ".message: Required value: message must be specified if rule contains line"
                    + " breaks")),
        Arguments.of(
            "- rule: self.replicas > 0\n  messageExpression: ' '",
            List.of(
                AT
                    + ".messageExpression: Required value: messageExpression must be non-empty if"
                    + " specified")),
        Arguments.of(
            "- rule: self.replicas > 0\n  reason: FieldValueBad",
            List.of(
                AT
                    + ".reason: Unsupported value: \"FieldValueBad\": supported values:"
                    + " \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\","
                    + " \"FieldValueRequired\"")),
        Arguments.of(
            "- rule: self.replicas > 0\n  fieldPath: .nope",
            List.of(AT + ".fieldPath: Invalid value: \".nope\": fieldPath must be a valid path")),
        Arguments.of(
            "- rule: self.replicas > 0\n  optionalOldSelf: true",
            List.of(
                AT
                    + ".optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used"
                    + " in rule")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void refused(String rules, List<String> expected) {
    var schema =
        Schemas.spec(
            "type: object\nproperties:\n  replicas: {type: integer}\n  names: {type: object,"
                + " additionalProperties: {type: string}}\nx-kubernetes-validations:\n"
                + rules);
    List<String> errors =
        RULES.check(schema, FieldPath.of("spec", "validation", "openAPIV3Schema")).stream()
            .map(FieldError::toString)
            .toList();
    assertEquals(expected, errors);
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of("- rule: self.replicas > 0\n  fieldPath: .replicas"),
        Arguments.of("- rule: self.replicas > 0\n  fieldPath: \"['replicas']\""),
        Arguments.of("- rule: self.replicas > 0\n  fieldPath: .names.foo"),
        Arguments.of("- rule: self.replicas > 0\n  fieldPath: \".names['a.b']\""),
        Arguments.of("- rule: self.replicas >= oldSelf.replicas"),
        Arguments.of(
            "- rule: \"!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas\"\n  optionalOldSelf: true"),
        Arguments.of("- rule: \"self.replicas > 0 &&\\nself.replicas < 5\"\n  message: in range"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void accepted(String rules) {
    var schema =
        Schemas.spec(
            "type: object\nproperties:\n  replicas: {type: integer}\n  names: {type: object,"
                + " additionalProperties: {type: string}}\nx-kubernetes-validations:\n"
                + rules);
    assertEquals(List.of(), RULES.check(schema, FieldPath.of("s")));
  }

  @org.junit.jupiter.api.Test
  void refusesOldSelfWhereNoOldValueCorrelates() {
    var schema =
        Schemas.spec(
            """
            type: object
            properties:
              list:
                type: array
                maxItems: 10
                items:
                  type: string
                  maxLength: 10
                  x-kubernetes-validations:
                  - rule: self == oldSelf
            """);
    assertEquals(
        List.of(
            "s.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid"
                + " value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable"
                + " portion of the schema within s.properties[spec].properties[list]"),
        RULES.check(schema, FieldPath.of("s")).stream().map(FieldError::toString).toList());
  }
}
