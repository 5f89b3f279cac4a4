package dev.machinery.cel;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import dev.machinery.apiserver.apiextensions.v1.ValidationRule;
import dev.machinery.unversioned.validation.FieldError;
import java.io.IOException;

/**
 * A rule as kube-apiserver shows it as the value of a field error: Go's {@code %#v} of its internal
 * {@code ValidationRule}, such as {@code apiextensions.ValidationRule{Rule:"self > 0", Message:"",
 * MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"",
 * OptionalOldSelf:(*bool)(nil)}}. Go prints a set pointer as its address; this shows the value it
 * points to instead. Immutable.
 */
final class RuleValue implements JsonSerializable {
  private final String text;

  RuleValue(ValidationRule rule) {
    this.text =
        "apiextensions.ValidationRule{Rule:"
            + FieldError.quote(nonNull(rule.rule()))
            + ", Message:"
            + FieldError.quote(nonNull(rule.message()))
            + ", MessageExpression:"
            + FieldError.quote(nonNull(rule.messageExpression()))
            + ", Reason:(*apiextensions.FieldValueErrorReason)("
            + (rule.reason() == null ? "nil" : FieldError.quote(rule.reason()))
            + "), FieldPath:"
            + FieldError.quote(nonNull(rule.fieldPath()))
            + ", OptionalOldSelf:(*bool)("
            + (rule.optionalOldSelf() == null ? "nil" : rule.optionalOldSelf())
            + ")}";
  }

  private static String nonNull(String text) {
    return text == null ? "" : text;
  }

  @Override
  public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
    gen.writeRawValue(text);
  }

  @Override
  public void serializeWithType(
      JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
      throws IOException {
    serialize(gen, serializers);
  }

  @Override
  public String toString() {
    return text;
  }
}
