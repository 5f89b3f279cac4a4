package dev.machinery.apiserver.apiextensions.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A JSON schema as a CustomResourceDefinition holds it ({@code apiextensions.k8s.io/v1
 * JSONSchemaProps}): the OpenAPI v3 subset Kubernetes accepts and its {@code x-kubernetes-}
 * extensions. Values the schema names ({@code default}, {@code enum}, {@code example}) are JSON
 * trees; {@code items} is one schema (the array form is not structural and is refused), {@code
 * additionalProperties} and {@code additionalItems} a schema or a boolean.
 *
 * <p>Immutable when its JSON trees are not changed; share it freely once built.
 *
 * @param id {@code id}
 * @param schema {@code $schema}
 * @param ref {@code $ref}
 * @param description the description
 * @param type {@code object}, {@code array}, {@code string}, {@code integer}, {@code number} or
 *     {@code boolean}
 * @param format the format, such as {@code int32} or {@code date-time}
 * @param title the title
 * @param defaultValue {@code default}
 * @param maximum the maximum
 * @param exclusiveMaximum whether the maximum is exclusive
 * @param minimum the minimum
 * @param exclusiveMinimum whether the minimum is exclusive
 * @param maxLength the longest string
 * @param minLength the shortest string
 * @param pattern the ECMA 262 pattern a string matches
 * @param maxItems the most items
 * @param minItems the fewest items
 * @param uniqueItems whether items must differ
 * @param multipleOf what a number is a multiple of
 * @param enumValues {@code enum}
 * @param maxProperties the most properties
 * @param minProperties the fewest properties
 * @param required the required properties
 * @param items the items' schema
 * @param allOf {@code allOf}
 * @param oneOf {@code oneOf}
 * @param anyOf {@code anyOf}
 * @param not {@code not}
 * @param properties the properties' schemas
 * @param additionalProperties the schema of other properties, or a boolean
 * @param patternProperties {@code patternProperties}
 * @param dependencies {@code dependencies}
 * @param additionalItems {@code additionalItems}
 * @param definitions {@code definitions}
 * @param externalDocs {@code externalDocs}
 * @param example {@code example}
 * @param nullable whether null is a value
 * @param preserveUnknownFields {@code x-kubernetes-preserve-unknown-fields}
 * @param embeddedResource {@code x-kubernetes-embedded-resource}
 * @param intOrString {@code x-kubernetes-int-or-string}
 * @param listMapKeys {@code x-kubernetes-list-map-keys}
 * @param listType {@code x-kubernetes-list-type}: {@code atomic}, {@code set} or {@code map}
 * @param mapType {@code x-kubernetes-map-type}: {@code atomic} or {@code granular}
 * @param validations {@code x-kubernetes-validations}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JSONSchemaProps(
    String id,
    @JsonProperty("$schema") String schema,
    @JsonProperty("$ref") String ref,
    String description,
    String type,
    String format,
    String title,
    @JsonProperty("default") JsonNode defaultValue,
    BigDecimal maximum,
    Boolean exclusiveMaximum,
    BigDecimal minimum,
    Boolean exclusiveMinimum,
    Long maxLength,
    Long minLength,
    String pattern,
    Long maxItems,
    Long minItems,
    Boolean uniqueItems,
    BigDecimal multipleOf,
    @JsonProperty("enum") List<JsonNode> enumValues,
    Long maxProperties,
    Long minProperties,
    List<String> required,
    JSONSchemaProps items,
    List<JSONSchemaProps> allOf,
    List<JSONSchemaProps> oneOf,
    List<JSONSchemaProps> anyOf,
    JSONSchemaProps not,
    Map<String, JSONSchemaProps> properties,
    JSONSchemaPropsOrBool additionalProperties,
    Map<String, JSONSchemaProps> patternProperties,
    Map<String, JsonNode> dependencies,
    JSONSchemaPropsOrBool additionalItems,
    Map<String, JSONSchemaProps> definitions,
    ExternalDocumentation externalDocs,
    JsonNode example,
    Boolean nullable,
    @JsonProperty("x-kubernetes-preserve-unknown-fields") Boolean preserveUnknownFields,
    @JsonProperty("x-kubernetes-embedded-resource") Boolean embeddedResource,
    @JsonProperty("x-kubernetes-int-or-string") Boolean intOrString,
    @JsonProperty("x-kubernetes-list-map-keys") List<String> listMapKeys,
    @JsonProperty("x-kubernetes-list-type") String listType,
    @JsonProperty("x-kubernetes-map-type") String mapType,
    @JsonProperty("x-kubernetes-validations") List<ValidationRule> validations) {

  /**
   * Copies the lists and maps it is given.
   *
   * @param id see the record description
   * @param schema see the record description
   * @param ref see the record description
   * @param description see the record description
   * @param type see the record description
   * @param format see the record description
   * @param title see the record description
   * @param defaultValue see the record description
   * @param maximum see the record description
   * @param exclusiveMaximum see the record description
   * @param minimum see the record description
   * @param exclusiveMinimum see the record description
   * @param maxLength see the record description
   * @param minLength see the record description
   * @param pattern see the record description
   * @param maxItems see the record description
   * @param minItems see the record description
   * @param uniqueItems see the record description
   * @param multipleOf see the record description
   * @param enumValues see the record description
   * @param maxProperties see the record description
   * @param minProperties see the record description
   * @param required see the record description
   * @param items see the record description
   * @param allOf see the record description
   * @param oneOf see the record description
   * @param anyOf see the record description
   * @param not see the record description
   * @param properties see the record description
   * @param additionalProperties see the record description
   * @param patternProperties see the record description
   * @param dependencies see the record description
   * @param additionalItems see the record description
   * @param definitions see the record description
   * @param externalDocs see the record description
   * @param example see the record description
   * @param nullable see the record description
   * @param preserveUnknownFields see the record description
   * @param embeddedResource see the record description
   * @param intOrString see the record description
   * @param listMapKeys see the record description
   * @param listType see the record description
   * @param mapType see the record description
   * @param validations see the record description
   */
  public JSONSchemaProps {
    enumValues = enumValues == null ? null : List.copyOf(enumValues);
    required = required == null ? null : List.copyOf(required);
    allOf = allOf == null ? null : List.copyOf(allOf);
    oneOf = oneOf == null ? null : List.copyOf(oneOf);
    anyOf = anyOf == null ? null : List.copyOf(anyOf);
    properties =
        properties == null
            ? null
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
    patternProperties = patternProperties == null ? null : Map.copyOf(patternProperties);
    dependencies = dependencies == null ? null : Map.copyOf(dependencies);
    definitions = definitions == null ? null : Map.copyOf(definitions);
    listMapKeys = listMapKeys == null ? null : List.copyOf(listMapKeys);
    validations = validations == null ? null : List.copyOf(validations);
  }

  /**
   * Whether {@code x-kubernetes-preserve-unknown-fields} is true.
   *
   * @return true when unknown fields are kept
   */
  public boolean preservesUnknownFields() {
    return Boolean.TRUE.equals(preserveUnknownFields);
  }

  /**
   * Whether {@code x-kubernetes-embedded-resource} is true.
   *
   * @return true for an embedded object with its own apiVersion, kind and metadata
   */
  public boolean embedsResource() {
    return Boolean.TRUE.equals(embeddedResource);
  }

  /**
   * Whether {@code x-kubernetes-int-or-string} is true.
   *
   * @return true when an integer or a string is allowed
   */
  public boolean allowsIntOrString() {
    return Boolean.TRUE.equals(intOrString);
  }

  /**
   * Whether {@code nullable} is true.
   *
   * @return true when null is allowed
   */
  public boolean allowsNull() {
    return Boolean.TRUE.equals(nullable);
  }
}
