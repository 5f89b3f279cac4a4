package dev.machinery.apiserver.apiextensions.schema;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.BiConsumer;

/**
 * The CEL validation rules of custom resources' schemas ({@code x-kubernetes-validations}), as
 * kube-apiserver applies them: {@link #check} refuses a CustomResourceDefinition whose rules do not
 * compile, and {@link #compile} gives the validator that evaluates a version's rules on every
 * create, update and patch of its objects.
 *
 * <p>The server itself holds no CEL implementation; {@code machinery-cel}'s {@code
 * CelValidationRules} is one, handed to {@code ApiServer.Builder.customResourceDefinitions}. A
 * server built without one uses {@link #unsupported()}, which refuses every definition that has
 * rules rather than serving objects whose rules would not be enforced.
 *
 * <p>Implementations are immutable and thread-safe, and so are the validators they return.
 */
public interface ValidationRules {
  /**
   * Checks the rules of one version's schema as kube-apiserver does when a CustomResourceDefinition
   * is created or updated: that each compiles to a bool, its message expression to a string, its
   * {@code fieldPath} names a field of the schema, and so on.
   *
   * @param schema the version's {@code openAPIV3Schema}
   * @param path the schema's path in the definition, such as {@code
   *     spec.validation.openAPIV3Schema} (every version has this schema) or {@code
   *     spec.versions[1].schema.openAPIV3Schema}
   * @return every problem, empty when the rules may be served
   */
  List<FieldError> check(JSONSchemaProps schema, FieldPath path);

  /**
   * Compiles the rules of one version's schema, checked before by {@link #check}.
   *
   * @param schema the version's {@code openAPIV3Schema}
   * @return the validator of the version's objects
   */
  Validator compile(JSONSchemaProps schema);

  /** Evaluates a version's rules on its objects. Immutable and thread-safe. */
  interface Validator {
    /**
     * Evaluates every rule of the schema on an object, transition rules against the object's old
     * value where there is one.
     *
     * @param object the whole object, pruned and defaulted, as maps, lists and scalars
     * @param old the object before an update, or {@code null} on create
     * @return every rule that failed, as kube-apiserver reports it
     */
    List<FieldError> validate(Map<String, Object> object, Map<String, Object> old);
  }

  /**
   * The rules of a server built without a CEL implementation: a definition whose schema has any
   * rule is refused with a {@code Forbidden} error at each rule, naming the missing capability;
   * objects whose stored definition has rules (written by another server) are refused likewise.
   *
   * @return rules that refuse every rule
   */
  static ValidationRules unsupported() {
    return UnsupportedValidationRules.INSTANCE;
  }

  /**
   * The implementation on the class path or module path, found with {@link ServiceLoader} ({@code
   * machinery-cel} provides one), for servers that do not name one in code.
   *
   * @return the first implementation found, or empty when there is none
   */
  static Optional<ValidationRules> installed() {
    return ServiceLoader.load(ValidationRules.class, ValidationRules.class.getClassLoader())
        .findFirst();
  }

  /**
   * Visits every {@code x-kubernetes-validations} list of a schema with its path: the schema's own,
   * then those under {@code properties}, {@code additionalProperties} and {@code items}, with
   * kube-apiserver's path names ({@code properties[spec]}).
   *
   * @param schema the schema
   * @param path its path
   * @param visitor called with each schema that has rules and its path
   */
  static void forEachRules(
      JSONSchemaProps schema, FieldPath path, BiConsumer<JSONSchemaProps, FieldPath> visitor) {
    if (schema.validations() != null && !schema.validations().isEmpty()) {
      visitor.accept(schema, path);
    }
    if (schema.properties() != null) {
      for (Map.Entry<String, JSONSchemaProps> property : schema.properties().entrySet()) {
        forEachRules(property.getValue(), path.child("properties").key(property.getKey()), visitor);
      }
    }
    if (schema.additionalProperties() != null && schema.additionalProperties().schema() != null) {
      forEachRules(
          schema.additionalProperties().schema(), path.child("additionalProperties"), visitor);
    }
    if (schema.items() != null) {
      forEachRules(schema.items(), path.child("items"), visitor);
    }
  }
}
