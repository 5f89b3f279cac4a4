package dev.machinery.apiserver.apiextensions.schema;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A custom resource's schema at work on its objects, as kube-apiserver applies it: {@link #prune}
 * drops the fields the schema does not name (unless {@code x-kubernetes-preserve-unknown-fields}
 * keeps them; an {@code x-kubernetes-embedded-resource} keeps {@code apiVersion}, {@code kind} and
 * {@code metadata}), {@link #applyDefaults} fills absent fields from {@code default}, and {@link
 * #validate} checks every value against its schema (type and format, {@code enum}, {@code pattern},
 * bounds, lengths, item and property counts, {@code required}, {@code nullable}, {@code
 * allOf}/{@code anyOf}/{@code oneOf}/{@code not}, {@code x-kubernetes-int-or-string}, list-type
 * uniqueness) and reports every problem with its field path in kube-apiserver's words.
 *
 * <p>Objects are JSON values as {@code Unstructured} holds them: maps, lists, strings, {@code
 * Long}, {@code BigInteger}, {@code Double}, booleans and {@code null}. At the root, {@code
 * apiVersion}, {@code kind} and {@code metadata} are left to the server's own rules.
 *
 * <p>Immutable and thread-safe; patterns are compiled once.
 */
public final class StructuralSchema {
  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");
  private static final Pattern UUID =
      Pattern.compile(
          "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$");
  private static final Pattern DATE_TIME =
      Pattern.compile(
          "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$");
  private static final Pattern DATE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}$");
  private static final Pattern IPV4 =
      Pattern.compile(
          "^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");

  private final JSONSchemaProps root;
  private final Map<String, Pattern> patterns = new java.util.concurrent.ConcurrentHashMap<>();

  private StructuralSchema(JSONSchemaProps root) {
    this.root = root;
  }

  /**
   * Wraps a schema.
   *
   * @param schema the {@code openAPIV3Schema} of a version
   * @return the schema at work
   */
  public static StructuralSchema of(JSONSchemaProps schema) {
    return new StructuralSchema(Objects.requireNonNull(schema, "schema"));
  }

  /**
   * Returns the schema.
   *
   * @return the schema
   */
  public JSONSchemaProps schema() {
    return root;
  }

  // ---------------------------------------------------------------------------------- pruning

  /**
   * Drops the fields the schema does not name, in place.
   *
   * @param object the whole object
   * @return the paths of the fields dropped, such as {@code spec.foo}
   */
  public List<String> prune(Map<String, Object> object) {
    List<String> pruned = new ArrayList<>();
    pruneObject(object, root, null, true, pruned);
    return pruned;
  }

  /** The fields of {@code ObjectMeta}, all a stored object's {@code metadata} keeps. */
  private static final Set<String> OBJECT_META =
      Set.of(
          "name",
          "generateName",
          "namespace",
          "selfLink",
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "labels",
          "annotations",
          "ownerReferences",
          "finalizers",
          "managedFields");

  /**
   * Drops the fields of an object's {@code metadata} that {@code ObjectMeta} does not have, in
   * place, as kube-apiserver prunes the metadata of custom resources and decodes its built-in
   * kinds'; and reads a label's or annotation's {@code null} value as {@code ""}, as Go's decoding
   * of {@code ObjectMeta} reads it (a manifest's {@code app:} with no value is the label {@code
   * app=""}).
   *
   * @param object the whole object
   * @return the paths of the fields dropped, such as {@code metadata.colour}
   */
  public static List<String> pruneMetadata(Map<String, Object> object) {
    if (!(object.get("metadata") instanceof Map<?, ?> metadata)) {
      return List.of();
    }
    for (String strings : List.of("labels", "annotations")) {
      if (metadata.get(strings) instanceof Map<?, ?> values) {
        for (Map.Entry<?, ?> entry : values.entrySet()) {
          if (entry.getValue() == null) {
            @SuppressWarnings("unchecked")
            Map.Entry<Object, Object> writable = (Map.Entry<Object, Object>) entry;
            writable.setValue("");
          }
        }
      }
    }
    List<String> pruned = new ArrayList<>();
    for (java.util.Iterator<?> it = metadata.keySet().iterator(); it.hasNext(); ) {
      Object key = it.next();
      if (!OBJECT_META.contains(String.valueOf(key))) {
        pruned.add("metadata." + key);
        it.remove();
      }
    }
    return pruned;
  }

  private void pruneValue(Object value, JSONSchemaProps schema, String path, List<String> out) {
    if (schema == null) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      pruneObject(object, schema, path, false, out);
    } else if (value instanceof List<?> list && schema.items() != null) {
      for (int i = 0; i < list.size(); i++) {
        pruneValue(list.get(i), schema.items(), path + "[" + i + "]", out);
      }
    }
  }

  private void pruneObject(
      Map<String, Object> object,
      JSONSchemaProps schema,
      String path,
      boolean isRoot,
      List<String> out) {
    Map<String, JSONSchemaProps> properties =
        schema.properties() == null ? Map.of() : schema.properties();
    JSONSchemaProps additional =
        schema.additionalProperties() == null ? null : schema.additionalProperties().schema();
    boolean keepAll =
        schema.preservesUnknownFields()
            || schema.additionalProperties() != null && schema.additionalProperties().allows();
    boolean embedded = isRoot || schema.embedsResource();
    Iterator<Map.Entry<String, Object>> entries = object.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<String, Object> entry = entries.next();
      String name = entry.getKey();
      String child = path == null ? name : path + "." + name;
      JSONSchemaProps property = properties.get(name);
      if (property != null) {
        if (!(isRoot && name.equals("metadata"))) {
          pruneValue(entry.getValue(), property, child, out);
        }
      } else if (additional != null) {
        pruneValue(entry.getValue(), additional, child, out);
      } else if (embedded && ROOT_FIELDS.contains(name)) {
        continue;
      } else if (!keepAll) {
        entries.remove();
        out.add(child);
      }
    }
  }

  // -------------------------------------------------------------------------------- defaulting

  /**
   * Fills absent fields (and null fields that may not be null) from their schemas' {@code default},
   * in place, from the root down.
   *
   * @param object the whole object
   */
  public void applyDefaults(Map<String, Object> object) {
    defaultValue(object, root);
  }

  private void defaultValue(Object value, JSONSchemaProps schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      if (schema.properties() != null) {
        for (Map.Entry<String, JSONSchemaProps> property : schema.properties().entrySet()) {
          JSONSchemaProps child = property.getValue();
          Object current = object.get(property.getKey());
          boolean absent = !object.containsKey(property.getKey());
          if (child.defaultValue() != null && (absent || current == null && !child.allowsNull())) {
            object.put(property.getKey(), JsonValues.fromTree(child.defaultValue()));
          }
          defaultValue(object.get(property.getKey()), child);
        }
      }
      if (schema.additionalProperties() != null && schema.additionalProperties().schema() != null) {
        JSONSchemaProps additional = schema.additionalProperties().schema();
        for (Map.Entry<String, Object> entry : object.entrySet()) {
          if (entry.getValue() == null
              && additional.defaultValue() != null
              && !additional.allowsNull()) {
            entry.setValue(JsonValues.fromTree(additional.defaultValue()));
          }
          defaultValue(entry.getValue(), additional);
        }
      }
    } else if (value instanceof List<?> list && schema.items() != null) {
      @SuppressWarnings("unchecked")
      List<Object> items = (List<Object>) list;
      JSONSchemaProps itemSchema = schema.items();
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i) == null && itemSchema.defaultValue() != null && !itemSchema.allowsNull()) {
          items.set(i, JsonValues.fromTree(itemSchema.defaultValue()));
        }
        defaultValue(items.get(i), itemSchema);
      }
    }
  }

  /**
   * Drops, in place, the fields of objects (properties and additional properties) that are null
   * where the schema allows no null and gives no default, as kube-apiserver does to a custom
   * resource after defaulting ({@code PruneNonNullableNullsWithoutDefaults}): a client that writes
   * {@code creationTimestamp: null} in a template, as kubectl does, meets no type error. Nulls in
   * lists are kept (and refused by validation), as Kubernetes keeps them.
   *
   * @param object the whole object
   */
  public void pruneNonNullableNulls(Map<String, Object> object) {
    pruneNulls(object, root);
  }

  private void pruneNulls(Object value, JSONSchemaProps schema) {
    if (schema == null) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      Map<String, JSONSchemaProps> properties =
          schema.properties() == null ? Map.of() : schema.properties();
      JSONSchemaProps additional =
          schema.additionalProperties() == null ? null : schema.additionalProperties().schema();
      for (java.util.Iterator<Map.Entry<String, Object>> it = object.entrySet().iterator();
          it.hasNext(); ) {
        Map.Entry<String, Object> entry = it.next();
        JSONSchemaProps child = properties.get(entry.getKey());
        if (child == null) {
          child = additional;
        }
        if (child == null) {
          continue;
        }
        if (entry.getValue() == null) {
          if (!child.allowsNull() && child.defaultValue() == null) {
            it.remove();
          }
        } else {
          pruneNulls(entry.getValue(), child);
        }
      }
    } else if (value instanceof List<?> list && schema.items() != null) {
      for (Object item : list) {
        pruneNulls(item, schema.items());
      }
    }
  }

  /**
   * Fills the absent fields of any JSON value below the schema's root (an array, a scalar or an
   * object that is not a whole resource), in place.
   *
   * @param value the value; lists and maps must be mutable
   */
  public void applyDefaultsTo(Object value) {
    defaultValue(value, root);
  }

  /**
   * Drops the fields of any JSON value the schema does not name, the value not being a whole
   * resource: {@code apiVersion}, {@code kind} and {@code metadata} are kept only in embedded
   * resources.
   *
   * @param value the value; maps must be mutable
   * @return the paths of the fields dropped, relative to the value
   */
  public List<String> pruneValue(Object value) {
    List<String> pruned = new ArrayList<>();
    if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      pruneObject(object, root, null, false, pruned);
    } else if (value instanceof List<?> list && root.items() != null) {
      for (int i = 0; i < list.size(); i++) {
        pruneValue(list.get(i), root.items(), "[" + i + "]", pruned);
      }
    }
    return pruned;
  }

  // -------------------------------------------------------------------------------- validation

  /**
   * Validates an object against the schema.
   *
   * @param object the whole object
   * @return every problem, empty when it is valid
   */
  public List<FieldError> validate(Map<String, Object> object) {
    List<FieldError> errors = new ArrayList<>();
    validateObject(object, root, null, true, errors);
    return errors;
  }

  private void validateValue(
      Object value, JSONSchemaProps schema, FieldPath path, List<FieldError> errors) {
    if (value == null) {
      if (!schema.allowsNull() && schema.type() != null && !schema.type().isEmpty()) {
        errors.add(typeError(path, "null", schema.type()));
      }
      return;
    }
    String actual = typeOf(value);
    if (schema.allowsIntOrString()) {
      if (!actual.equals("integer") && !actual.equals("string")) {
        errors.add(typeError(path, actual, "integer,string"));
        return;
      }
    } else if (schema.type() != null
        && !schema.type().isEmpty()
        && !matches(schema.type(), value)) {
      errors.add(typeError(path, actual, schema.type()));
      return;
    }
    if (value instanceof String text) {
      validateString(text, schema, path, errors);
    } else if (value instanceof Number number) {
      validateNumber(number, schema, path, errors);
    } else if (value instanceof List<?> list) {
      validateList(list, schema, path, errors);
    } else if (value instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> object = (Map<String, Object>) map;
      validateObject(object, schema, path, false, errors);
    }
    if (schema.enumValues() != null && !schema.enumValues().isEmpty()) {
      List<Object> allowed = new ArrayList<>();
      schema.enumValues().forEach(v -> allowed.add(JsonValues.fromTree(v)));
      if (allowed.stream().noneMatch(a -> JsonValues.equal(a, value))) {
        List<String> supported = new ArrayList<>();
        allowed.forEach(a -> supported.add(String.valueOf(a)));
        errors.add(FieldError.notSupported(path, value, supported));
      }
    }
    validateCombinators(value, schema, path, errors);
  }

  private void validateCombinators(
      Object value, JSONSchemaProps schema, FieldPath path, List<FieldError> errors) {
    if (schema.allOf() != null) {
      for (JSONSchemaProps part : schema.allOf()) {
        validateValue(value, part, path, errors);
      }
    }
    if (schema.anyOf() != null && !schema.anyOf().isEmpty()) {
      boolean any = false;
      for (JSONSchemaProps part : schema.anyOf()) {
        if (valid(value, part, path)) {
          any = true;
          break;
        }
      }
      if (!any) {
        errors.add(
            FieldError.invalid(
                path, value, in(path) + " must validate at least one schema (anyOf)"));
      }
    }
    if (schema.oneOf() != null && !schema.oneOf().isEmpty()) {
      int count = 0;
      for (JSONSchemaProps part : schema.oneOf()) {
        if (valid(value, part, path)) {
          count++;
        }
      }
      if (count != 1) {
        errors.add(
            FieldError.invalid(
                path, value, in(path) + " must validate one and only one schema (oneOf)"));
      }
    }
    if (schema.not() != null && valid(value, schema.not(), path)) {
      errors.add(FieldError.invalid(path, value, in(path) + " must not validate the schema (not)"));
    }
  }

  private boolean valid(Object value, JSONSchemaProps schema, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    validateValue(value, schema, path, errors);
    return errors.isEmpty();
  }

  private void validateString(
      String text, JSONSchemaProps schema, FieldPath path, List<FieldError> errors) {
    int length = text.codePointCount(0, text.length());
    if (schema.maxLength() != null && length > schema.maxLength()) {
      errors.add(FieldError.tooLong(path, (int) Math.min(Integer.MAX_VALUE, schema.maxLength())));
    }
    if (schema.minLength() != null && length < schema.minLength()) {
      errors.add(
          FieldError.invalid(
              path, text, in(path) + " should be at least " + schema.minLength() + " chars long"));
    }
    if (schema.pattern() != null && !pattern(schema.pattern()).matcher(text).find()) {
      errors.add(
          FieldError.invalid(path, text, in(path) + " should match '" + schema.pattern() + "'"));
    }
    if (schema.format() != null && !formatMatches(schema.format(), text)) {
      errors.add(
          FieldError.invalid(
              path,
              text,
              in(path) + " must be of type " + schema.format() + ": " + FieldError.quote(text)));
    }
  }

  private Pattern pattern(String regex) {
    return patterns.computeIfAbsent(
        regex,
        r -> {
          try {
            return Pattern.compile(r);
          } catch (PatternSyntaxException e) {
            // The CRD's validation refuses such a pattern; a value never matches one.
            return Pattern.compile("(?!)");
          }
        });
  }

  private static boolean formatMatches(String format, String text) {
    switch (format) {
      case "date-time":
      case "datetime":
        return DATE_TIME.matcher(text).matches();
      case "date":
        return DATE.matcher(text).matches();
      case "uuid":
        return UUID.matcher(text).matches();
      case "ipv4":
        return IPV4.matcher(text).matches();
      case "byte":
        try {
          Base64.getDecoder().decode(text);
          return true;
        } catch (IllegalArgumentException e) {
          return false;
        }
      default:
        return true;
    }
  }

  private static void validateNumber(
      Number number, JSONSchemaProps schema, FieldPath path, List<FieldError> errors) {
    BigDecimal value = JsonValues.decimal(number);
    if (schema.maximum() != null) {
      int c = value.compareTo(schema.maximum());
      if (Boolean.TRUE.equals(schema.exclusiveMaximum()) ? c >= 0 : c > 0) {
        errors.add(
            FieldError.invalid(
                path,
                number,
                in(path)
                    + (Boolean.TRUE.equals(schema.exclusiveMaximum())
                        ? " should be less than "
                        : " should be less than or equal to ")
                    + plain(schema.maximum())));
      }
    }
    if (schema.minimum() != null) {
      int c = value.compareTo(schema.minimum());
      if (Boolean.TRUE.equals(schema.exclusiveMinimum()) ? c <= 0 : c < 0) {
        errors.add(
            FieldError.invalid(
                path,
                number,
                in(path)
                    + (Boolean.TRUE.equals(schema.exclusiveMinimum())
                        ? " should be greater than "
                        : " should be greater than or equal to ")
                    + plain(schema.minimum())));
      }
    }
    if (schema.multipleOf() != null && schema.multipleOf().signum() > 0) {
      if (value.remainder(schema.multipleOf()).signum() != 0) {
        errors.add(
            FieldError.invalid(
                path, number, in(path) + " should be a multiple of " + plain(schema.multipleOf())));
      }
    }
  }

  private void validateList(
      List<?> list, JSONSchemaProps schema, FieldPath path, List<FieldError> errors) {
    if (schema.maxItems() != null && list.size() > schema.maxItems()) {
      errors.add(FieldError.tooMany(path, list.size(), (int) (long) schema.maxItems()));
    }
    if (schema.minItems() != null && list.size() < schema.minItems()) {
      errors.add(
          FieldError.invalid(
              path,
              list.size(),
              in(path) + " should have at least " + schema.minItems() + " items"));
    }
    if (Boolean.TRUE.equals(schema.uniqueItems()) || "set".equals(schema.listType())) {
      Set<Object> seen = new HashSet<>();
      for (int i = 0; i < list.size(); i++) {
        Object key = JsonValues.canonical(list.get(i));
        if (!seen.add(key)) {
          errors.add(FieldError.duplicate(path.index(i), list.get(i)));
        }
      }
    } else if ("map".equals(schema.listType()) && schema.listMapKeys() != null) {
      Set<Object> seen = new HashSet<>();
      for (int i = 0; i < list.size(); i++) {
        if (!(list.get(i) instanceof Map<?, ?> item)) {
          continue;
        }
        List<Object> key = new ArrayList<>();
        Map<String, Object> shown = new java.util.LinkedHashMap<>();
        for (String name : schema.listMapKeys()) {
          key.add(JsonValues.canonical(item.get(name)));
          if (item.containsKey(name)) {
            shown.put(name, item.get(name));
          }
        }
        if (!seen.add(key)) {
          errors.add(FieldError.duplicate(path.index(i), shown));
        }
      }
    }
    if (schema.items() != null) {
      for (int i = 0; i < list.size(); i++) {
        validateValue(list.get(i), schema.items(), path.index(i), errors);
      }
    }
  }

  private void validateObject(
      Map<String, Object> object,
      JSONSchemaProps schema,
      FieldPath path,
      boolean isRoot,
      List<FieldError> errors) {
    if (!isRoot) {
      if (schema.maxProperties() != null && object.size() > schema.maxProperties()) {
        errors.add(FieldError.tooMany(path, object.size(), (int) (long) schema.maxProperties()));
      }
      if (schema.minProperties() != null && object.size() < schema.minProperties()) {
        errors.add(
            FieldError.invalid(
                path,
                object.size(),
                in(path) + " should have at least " + schema.minProperties() + " properties"));
      }
    }
    if (schema.required() != null) {
      for (String name : schema.required()) {
        if (!object.containsKey(name) && !(isRoot && ROOT_FIELDS.contains(name))) {
          errors.add(FieldError.required(child(path, name), ""));
        }
      }
    }
    Map<String, JSONSchemaProps> properties =
        schema.properties() == null ? Map.of() : schema.properties();
    JSONSchemaProps additional =
        schema.additionalProperties() == null ? null : schema.additionalProperties().schema();
    for (Map.Entry<String, Object> entry : object.entrySet()) {
      String name = entry.getKey();
      if (isRoot && ROOT_FIELDS.contains(name)) {
        continue;
      }
      JSONSchemaProps property = properties.get(name);
      if (property != null) {
        validateValue(entry.getValue(), property, child(path, name), errors);
      } else if (additional != null) {
        // kube-openapi names a map entry as a field: spec.labels.app
        validateValue(entry.getValue(), additional, child(path, name), errors);
      }
    }
  }

  private static FieldPath child(FieldPath path, String name) {
    return path == null ? FieldPath.of(name) : path.child(name);
  }

  private static String in(FieldPath path) {
    return (path == null ? "" : path.toString()) + " in body";
  }

  private static FieldError typeError(FieldPath path, String actual, String expected) {
    return FieldError.invalid(
        path, actual, in(path) + " must be of type " + expected + ": " + FieldError.quote(actual));
  }

  private static boolean matches(String type, Object value) {
    switch (type) {
      case "object":
        return value instanceof Map;
      case "array":
        return value instanceof List;
      case "string":
        return value instanceof String;
      case "boolean":
        return value instanceof Boolean;
      case "number":
        return value instanceof Number;
      case "integer":
        return value instanceof Long
            || value instanceof Integer
            || value instanceof BigInteger
            || value instanceof Double d && d == Math.rint(d) && !d.isInfinite();
      default:
        return true;
    }
  }

  private static String typeOf(Object value) {
    if (value instanceof Map) {
      return "object";
    }
    if (value instanceof List) {
      return "array";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    if (value instanceof Long || value instanceof Integer || value instanceof BigInteger) {
      return "integer";
    }
    if (value instanceof Number) {
      return "number";
    }
    return value.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }

  private static String plain(BigDecimal number) {
    return number.stripTrailingZeros().toPlainString();
  }
}
