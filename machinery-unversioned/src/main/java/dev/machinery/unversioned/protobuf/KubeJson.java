package dev.machinery.unversioned.protobuf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * How Kubernetes' Go types write a protobuf message's fields in JSON where the {@code .proto} file
 * does not say it: the JSON names that differ from the field names, the fields Go embeds with
 * {@code json:",inline"}, the messages with a JSON form of their own, and which scalar fields Go
 * leaves out of its JSON when they are zero. The names and inline fields were found by comparing
 * the 1.33 files with the OpenAPI document's property names ({@code KubeJsonTest} checks them
 * against it); the zero rule comes from the Go types ({@code omitempty.tsv}). Stateless; the table
 * is read once, on first use.
 */
final class KubeJson {
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
  private static final String EXTENSIONS =
      "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.";

  /** Field names (message simple name, dot, proto field name) with another JSON name. */
  private static final Map<String, String> RENAMED =
      Map.ofEntries(
          Map.entry("MutatingWebhookConfiguration.Webhooks", "webhooks"),
          Map.entry("ValidatingWebhookConfiguration.Webhooks", "webhooks"),
          Map.entry("Validation.Expression", "expression"),
          Map.entry("Variable.Expression", "expression"),
          Map.entry("Variable.Name", "name"),
          Map.entry("IngressClassParametersReference.aPIGroup", "apiGroup"),
          Map.entry("BoundObjectReference.uID", "uid"),
          Map.entry("JSONSchemaProps.ref", "$ref"),
          Map.entry("JSONSchemaProps.schema", "$schema"));

  /** Fields whose Go struct is embedded inline: its fields are the parent's in JSON. */
  private static final Set<String> INLINE =
      Set.of(
          "ConfigMapEnvSource.localObjectReference",
          "ConfigMapKeySelector.localObjectReference",
          "ConfigMapProjection.localObjectReference",
          "ConfigMapVolumeSource.localObjectReference",
          "SecretEnvSource.localObjectReference",
          "SecretKeySelector.localObjectReference",
          "SecretProjection.localObjectReference",
          "EphemeralContainer.ephemeralContainerCommon",
          "PersistentVolumeSpec.persistentVolumeSource",
          "Probe.handler",
          "Volume.volumeSource",
          "NamedRuleWithOperations.ruleWithOperations",
          "RuleWithOperations.rule",
          "IngressRule.ingressRuleValue",
          "DeviceAllocationConfiguration.deviceConfiguration",
          "DeviceClaimConfiguration.deviceConfiguration",
          "DeviceClassConfiguration.deviceConfiguration");

  /** What decoding does with a singular scalar field whose value on the wire is zero. */
  enum ZeroRule {
    /** Go holds the field without a pointer and writes it {@code omitempty}: a zero is left out. */
    DROP_ZERO,
    /** Go writes the zero (a pointer set to zero, or a field without {@code omitempty}). */
    KEEP,
    /** The message is not one of Kubernetes' Go types: an empty string or bytes is left out. */
    DROP_EMPTY_STRING
  }

  /** Messages with a JSON form of their own. */
  enum Special {
    /** Written as JSON objects, field by field. */
    NONE,
    /** {@code meta.v1.Time}: RFC 3339 to the second; seconds only on the wire. */
    TIME,
    /** {@code meta.v1.MicroTime}: RFC 3339 with six fraction digits. */
    MICRO_TIME,
    /** {@code meta.v1.Duration}: Go's duration text, nanoseconds on the wire. */
    DURATION,
    /** {@code resource.Quantity}: its canonical text. */
    QUANTITY,
    /** {@code intstr.IntOrString}: a JSON number or string. */
    INT_OR_STRING,
    /** Raw JSON bytes in field 1 ({@code RawExtension}, {@code FieldsV1}, apiextensions JSON). */
    RAW_JSON,
    /** A wrapper of one repeated string (Go's named slice types): a JSON array. */
    STRING_LIST,
    /** apiextensions {@code JSONSchemaPropsOrArray}: a schema or an array of schemas. */
    SCHEMA_OR_ARRAY,
    /** apiextensions {@code JSONSchemaPropsOrBool}: a schema or a boolean. */
    SCHEMA_OR_BOOL,
    /** apiextensions {@code JSONSchemaPropsOrStringArray}: a schema or an array of strings. */
    SCHEMA_OR_STRING_ARRAY
  }

  private KubeJson() {}

  static Special special(MessageDescriptor message) {
    String name = message.fullName();
    switch (name) {
      case META + "Time":
        return Special.TIME;
      case META + "MicroTime":
        return Special.MICRO_TIME;
      case META + "Duration":
        return Special.DURATION;
      case META + "FieldsV1":
      case "k8s.io.apimachinery.pkg.runtime.RawExtension":
      case EXTENSIONS + "JSON":
        return Special.RAW_JSON;
      case "k8s.io.apimachinery.pkg.api.resource.Quantity":
      case "k8s.io.apimachinery.pkg.api.resource.QuantityValue":
        return Special.QUANTITY;
      case "k8s.io.apimachinery.pkg.util.intstr.IntOrString":
        return Special.INT_OR_STRING;
      case EXTENSIONS + "JSONSchemaPropsOrArray":
        return Special.SCHEMA_OR_ARRAY;
      case EXTENSIONS + "JSONSchemaPropsOrBool":
        return Special.SCHEMA_OR_BOOL;
      case EXTENSIONS + "JSONSchemaPropsOrStringArray":
        return Special.SCHEMA_OR_STRING_ARRAY;
      default:
        break;
    }
    if (message.commentTags().contains("protobuf.nullable=true")
        && message.fields().size() == 1
        && message.fields().get(0).name().equals("items")
        && message.fields().get(0).label() == FieldDescriptor.Label.REPEATED
        && message.fields().get(0).scalar() == ScalarType.STRING) {
      return Special.STRING_LIST;
    }
    return Special.NONE;
  }

  /** The JSON name of a field. */
  static String jsonName(MessageDescriptor message, FieldDescriptor field) {
    String key = message.simpleName() + "." + field.name();
    String renamed = RENAMED.get(key);
    if (renamed != null) {
      return renamed;
    }
    if (message.fullName().equals(EXTENSIONS + "JSONSchemaProps")
        && field.name().startsWith("xKubernetes")) {
      return kebab(field.name());
    }
    return field.name();
  }

  /** {@code xKubernetesListMapKeys} → {@code x-kubernetes-list-map-keys}. */
  private static String kebab(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        out.append('-').append((char) (c - 'A' + 'a'));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static boolean inline(MessageDescriptor message, FieldDescriptor field) {
    return field.messageType() != null
        && field.label() == FieldDescriptor.Label.OPTIONAL
        && INLINE.contains(message.simpleName() + "." + field.name());
  }

  /**
   * How decoding treats a zero in a singular scalar field: by Kubernetes 1.33's Go types where the
   * message is one of them ({@code omitempty.tsv}: for each message, the scalar fields Go holds
   * without a pointer and writes {@code omitempty}), else by the generic rule.
   */
  static ZeroRule zeroRule(MessageDescriptor message, FieldDescriptor field) {
    Set<String> dropped = OmitEmpty.FIELDS.get(message.fullName());
    if (dropped == null) {
      return ZeroRule.DROP_EMPTY_STRING;
    }
    return dropped.contains(field.name()) ? ZeroRule.DROP_ZERO : ZeroRule.KEEP;
  }

  /**
   * Whether Go leaves a zero value of a field out of the JSON it writes ({@link
   * ZeroRule#DROP_ZERO}).
   *
   * @param message the message's full name
   * @param jsonName the field's JSON name
   */
  static boolean omitsZero(String message, String jsonName) {
    Set<String> dropped = OmitEmpty.FIELDS.get(message);
    if (dropped == null) {
      return false;
    }
    String simple = message.substring(message.lastIndexOf('.') + 1) + ".";
    for (Map.Entry<String, String> renamed : RENAMED.entrySet()) {
      if (renamed.getValue().equals(jsonName) && renamed.getKey().startsWith(simple)) {
        return dropped.contains(renamed.getKey().substring(simple.length()));
      }
    }
    // A field renamed in JSON is not asked by its protobuf name.
    return !RENAMED.containsKey(simple + jsonName) && dropped.contains(jsonName);
  }

  /** The table, read on first use. */
  private static final class OmitEmpty {
    static final Map<String, Set<String>> FIELDS = read();

    private static Map<String, Set<String>> read() {
      String path = "kube-api/v1.33/omitempty.tsv";
      try (InputStream in = KubeJson.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException("the library's resource " + path + " is missing");
        }
        Map<String, Set<String>> fields = new HashMap<>();
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (line.isBlank()) {
            continue;
          }
          int tab = line.indexOf('\t');
          String names = line.substring(tab + 1);
          fields.put(line.substring(0, tab), names.isEmpty() ? Set.of() : Set.of(names.split(",")));
        }
        return Map.copyOf(fields);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the library's resource " + path, e);
      }
    }
  }
}
