package dev.machinery.apiserver.apiextensions.schema;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks that a schema is structural, as kube-apiserver requires of every {@code
 * apiextensions.k8s.io/v1} CustomResourceDefinition: every specified field and every array's items
 * have a type (unless {@code x-kubernetes-int-or-string} or {@code
 * x-kubernetes-preserve-unknown-fields} says otherwise), the root is an object, arrays have {@code
 * items}, {@code properties} and {@code additionalProperties} are not used together, the value
 * validations under {@code allOf}, {@code anyOf}, {@code oneOf} and {@code not} specify no type,
 * default, nullable or extension, an embedded resource is an object, and every {@code default}
 * validates against its schema. Stateless; thread-safe.
 */
public final class StructuralSchemas {
  private static final Set<String> TYPES =
      Set.of("object", "array", "string", "integer", "number", "boolean");

  private StructuralSchemas() {}

  /**
   * Checks a version's schema.
   *
   * @param schema the {@code openAPIV3Schema}
   * @param path its path, such as {@code spec.versions[0].schema.openAPIV3Schema}
   * @return every problem, empty when the schema is structural
   */
  public static List<FieldError> check(JSONSchemaProps schema, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (schema.type() == null || schema.type().isEmpty()) {
      errors.add(FieldError.required(path.child("type"), "must not be empty at the root"));
    } else if (!schema.type().equals("object")) {
      errors.add(
          FieldError.invalid(path.child("type"), schema.type(), "must be object at the root"));
    }
    node(schema, path, false, errors);
    return errors;
  }

  private static void node(
      JSONSchemaProps schema, FieldPath path, boolean valueValidation, List<FieldError> errors) {
    boolean typed = schema.type() != null && !schema.type().isEmpty();
    if (typed && !TYPES.contains(schema.type())) {
      errors.add(
          FieldError.notSupported(
              path.child("type"),
              schema.type(),
              List.of("array", "boolean", "integer", "number", "object", "string")));
    }
    if (valueValidation) {
      if (typed) {
        errors.add(FieldError.forbidden(path.child("type"), "must be empty to be structural"));
      }
      if (schema.defaultValue() != null) {
        errors.add(
            FieldError.forbidden(path.child("default"), "must be undefined to be structural"));
      }
      if (schema.allowsNull()) {
        errors.add(FieldError.forbidden(path.child("nullable"), "must be false to be structural"));
      }
      if (schema.preservesUnknownFields()) {
        errors.add(
            FieldError.forbidden(
                path.child("x-kubernetes-preserve-unknown-fields"),
                "must be false to be structural"));
      }
      if (schema.additionalProperties() != null) {
        errors.add(
            FieldError.forbidden(
                path.child("additionalProperties"), "must be undefined to be structural"));
      }
    }
    if (schema.allowsIntOrString() && typed) {
      errors.add(
          FieldError.invalid(
              path.child("type"),
              schema.type(),
              "must be empty if x-kubernetes-int-or-string is true"));
    }
    if (schema.embedsResource() && !"object".equals(schema.type())) {
      errors.add(
          FieldError.invalid(
              path.child("type"),
              schema.type() == null ? "" : schema.type(),
              "must be object if x-kubernetes-embedded-resource is true"));
    }
    if (schema.properties() != null
        && !schema.properties().isEmpty()
        && schema.additionalProperties() != null) {
      errors.add(
          FieldError.forbidden(
              path.child("additionalProperties"),
              "additionalProperties and properties are mutual exclusive"));
    }
    if ("array".equals(schema.type()) && schema.items() == null) {
      errors.add(FieldError.required(path.child("items"), "must be specified"));
    }
    if (schema.properties() != null) {
      for (Map.Entry<String, JSONSchemaProps> property : schema.properties().entrySet()) {
        FieldPath child = path.child("properties").key(property.getKey());
        JSONSchemaProps value = property.getValue();
        if (!valueValidation && untyped(value)) {
          errors.add(
              FieldError.required(
                  child.child("type"), "must not be empty for specified object fields"));
        }
        node(value, child, valueValidation, errors);
      }
    }
    if (schema.items() != null) {
      if (!valueValidation && untyped(schema.items())) {
        errors.add(
            FieldError.required(
                path.child("items").child("type"), "must not be empty for specified array items"));
      }
      node(schema.items(), path.child("items"), valueValidation, errors);
    }
    if (schema.additionalProperties() != null && schema.additionalProperties().schema() != null) {
      JSONSchemaProps value = schema.additionalProperties().schema();
      if (!valueValidation && untyped(value)) {
        errors.add(
            FieldError.required(
                path.child("additionalProperties").child("type"),
                "must not be empty for specified object fields"));
      }
      node(value, path.child("additionalProperties"), valueValidation, errors);
    }
    combinators(schema.allOf(), path.child("allOf"), schema.allowsIntOrString(), errors);
    combinators(schema.anyOf(), path.child("anyOf"), schema.allowsIntOrString(), errors);
    combinators(schema.oneOf(), path.child("oneOf"), false, errors);
    if (schema.not() != null) {
      node(schema.not(), path.child("not"), true, errors);
    }
    if (schema.defaultValue() != null && !valueValidation) {
      Map<String, Object> holder = new java.util.LinkedHashMap<>();
      holder.put("default", JsonValues.fromTree(schema.defaultValue()));
      JSONSchemaProps wrapper =
          new JSONSchemaProps(
              null,
              null,
              null,
              null,
              "object",
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              Map.of("default", schema),
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null);
      for (FieldError error : StructuralSchema.of(wrapper).validate(holder)) {
        errors.add(
            FieldError.invalid(path.child("default"), holder.get("default"), error.toString()));
      }
    }
  }

  /**
   * The value validations of {@code allOf}, {@code anyOf} or {@code oneOf}. Under {@code
   * x-kubernetes-int-or-string}, {@code allOf} and {@code anyOf} may say {@code type: integer} and
   * {@code type: string} (the form controller-gen writes for an int-or-string and a quantity), as
   * kube-apiserver allows.
   */
  private static void combinators(
      List<JSONSchemaProps> schemas, FieldPath path, boolean intOrString, List<FieldError> errors) {
    if (schemas == null) {
      return;
    }
    for (int i = 0; i < schemas.size(); i++) {
      JSONSchemaProps part = schemas.get(i);
      if (intOrString && ("integer".equals(part.type()) || "string".equals(part.type()))) {
        part = withoutType(part);
      }
      node(part, path.index(i), true, errors);
    }
  }

  private static JSONSchemaProps withoutType(JSONSchemaProps s) {
    return new JSONSchemaProps(
        s.id(),
        s.schema(),
        s.ref(),
        s.description(),
        null,
        s.format(),
        s.title(),
        s.defaultValue(),
        s.maximum(),
        s.exclusiveMaximum(),
        s.minimum(),
        s.exclusiveMinimum(),
        s.maxLength(),
        s.minLength(),
        s.pattern(),
        s.maxItems(),
        s.minItems(),
        s.uniqueItems(),
        s.multipleOf(),
        s.enumValues(),
        s.maxProperties(),
        s.minProperties(),
        s.required(),
        s.items(),
        s.allOf(),
        s.oneOf(),
        s.anyOf(),
        s.not(),
        s.properties(),
        s.additionalProperties(),
        s.patternProperties(),
        s.dependencies(),
        s.additionalItems(),
        s.definitions(),
        s.externalDocs(),
        s.example(),
        s.nullable(),
        s.preserveUnknownFields(),
        s.embeddedResource(),
        s.intOrString(),
        s.listMapKeys(),
        s.listType(),
        s.mapType(),
        s.validations());
  }

  private static boolean untyped(JSONSchemaProps schema) {
    return (schema.type() == null || schema.type().isEmpty())
        && !schema.allowsIntOrString()
        && !schema.preservesUnknownFields();
  }
}
