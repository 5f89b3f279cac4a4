package dev.machinery.builtins;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaPropsOrBool;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.resource.QuantityFormatException;
import dev.machinery.unversioned.validation.FieldPath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The quantities of a built-in kind (a container's requests and limits, a quota's hard limits, a
 * node's capacity, a volume claim's storage), written as kube-apiserver writes them: Go decodes
 * each into a {@code resource.Quantity} and encodes it again in its canonical form ({@code 0.5}
 * becomes {@code 500m}, {@code 1.5Gi} {@code 1536Mi}, {@code 1024Mi} {@code 1Gi}), a JSON number
 * ({@code cpu: 0.5} in a manifest) being read as a quantity too; text that is not a quantity makes
 * the object undecodable. Found from the kind's schema, where a quantity is an integer or string of
 * {@code format: quantity} ({@link KubeOpenApi}); only the branches that lead to one are kept.
 *
 * <p>A JSON number is read from its value, not its text: {@code 1e3} written as a number becomes
 * {@code 1k}, where Go reads the text and writes {@code 1e3}; the same quantity either way.
 *
 * <p>Immutable once made; thread-safe.
 */
final class QuantityFields {
  /** The {@code format} a quantity's schema has in the inlined schemas. */
  static final String FORMAT = "quantity";

  /** No quantity anywhere below. */
  private static final QuantityFields NONE = new QuantityFields(false, Map.of(), null, null);

  private final boolean quantity;
  private final Map<String, QuantityFields> properties;
  private final QuantityFields items;
  private final QuantityFields values;

  private QuantityFields(
      boolean quantity,
      Map<String, QuantityFields> properties,
      QuantityFields items,
      QuantityFields values) {
    this.quantity = quantity;
    this.properties = properties;
    this.items = items;
    this.values = values;
  }

  /**
   * The quantities under a schema.
   *
   * @param schema a built-in kind's structural schema
   * @return where its quantities are; nothing is done with an object when it has none
   */
  static QuantityFields of(JSONSchemaProps schema) {
    QuantityFields found = find(schema);
    return found == null ? NONE : found;
  }

  /** The quantities under a schema, or null when there are none. */
  private static QuantityFields find(JSONSchemaProps schema) {
    if (schema == null) {
      return null;
    }
    if (FORMAT.equals(schema.format())) {
      return new QuantityFields(true, Map.of(), null, null);
    }
    Map<String, QuantityFields> properties = new LinkedHashMap<>();
    if (schema.properties() != null) {
      schema
          .properties()
          .forEach(
              (name, property) -> {
                QuantityFields below = find(property);
                if (below != null) {
                  properties.put(name, below);
                }
              });
    }
    QuantityFields items = find(schema.items());
    JSONSchemaPropsOrBool additional = schema.additionalProperties();
    QuantityFields values = additional == null ? null : find(additional.schema());
    if (properties.isEmpty() && items == null && values == null) {
      return null;
    }
    return new QuantityFields(false, Map.copyOf(properties), items, values);
  }

  /**
   * Writes every quantity of an object in its canonical form, in place.
   *
   * @param object the object's content
   * @param kind how the object's kind and version are named in the error ({@code Pod}, {@code v1})
   * @param version the version the client wrote
   * @throws dev.machinery.unversioned.errors.StatusException a {@code BadRequest} naming the first
   *     value that is not a quantity, its field and why, as kube-apiserver refuses an object it
   *     cannot decode ({@code Pod in version "v1" cannot be handled as a Pod: …})
   */
  void canonicalize(Map<String, Object> object, String kind, String version) {
    if (this == NONE) {
      return;
    }
    try {
      walkObject(object, null);
    } catch (NotAQuantity e) {
      throw ApiErrors.newBadRequest(
          kind
              + " in version \""
              + version
              + "\" cannot be handled as a "
              + kind
              + ": "
              + e.path
              + ": "
              + e.cause.getMessage());
    }
  }

  private void walkObject(Map<String, Object> object, FieldPath path) {
    for (Map.Entry<String, QuantityFields> property : properties.entrySet()) {
      String name = property.getKey();
      if (object.containsKey(name)) {
        FieldPath at = path == null ? FieldPath.of(name) : path.child(name);
        Object value = object.get(name);
        Object written = property.getValue().walk(value, at);
        if (written != value) {
          object.put(name, written);
        }
      }
    }
    if (values != null) {
      for (Map.Entry<String, Object> entry : object.entrySet()) {
        if (!properties.containsKey(entry.getKey())) {
          FieldPath at = path == null ? FieldPath.of(entry.getKey()) : path.key(entry.getKey());
          Object value = entry.getValue();
          Object written = values.walk(value, at);
          if (written != value) {
            entry.setValue(written);
          }
        }
      }
    }
  }

  /** The value with its quantities canonical: the same value when nothing changed. */
  @SuppressWarnings("unchecked")
  private Object walk(Object value, FieldPath path) {
    if (value == null) {
      return null;
    }
    if (quantity) {
      return canonical(value, path);
    }
    if (value instanceof Map<?, ?> map) {
      walkObject((Map<String, Object>) map, path);
    } else if (value instanceof List<?> list && items != null) {
      List<Object> elements = (List<Object>) list;
      for (int i = 0; i < elements.size(); i++) {
        Object element = elements.get(i);
        Object written = items.walk(element, path.index(i));
        if (written != element) {
          elements.set(i, written);
        }
      }
    }
    return value;
  }

  /**
   * A quantity's canonical text, the value as it is when it is neither a string nor a number (the
   * schema's validation names it).
   */
  private static Object canonical(Object value, FieldPath path) {
    String text;
    if (value instanceof String string) {
      text = string;
    } else if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      text = value.toString();
    } else if (value instanceof BigDecimal decimal) {
      text = decimalText(decimal);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        return value;
      }
      text = decimalText(BigDecimal.valueOf(number));
    } else {
      return value;
    }
    try {
      String canonical = Quantity.parse(text).toString();
      return canonical.equals(value) ? value : canonical;
    } catch (QuantityFormatException e) {
      throw new NotAQuantity(path, e);
    }
  }

  /**
   * A decimal number as a quantity's text: plain ({@code 0.5}, {@code 1000}) unless that is long,
   * with an exponent then ({@code 1E+300}), which a quantity may have.
   */
  private static String decimalText(BigDecimal decimal) {
    String plain = decimal.stripTrailingZeros().toPlainString();
    return plain.length() <= 40 ? plain : decimal.stripTrailingZeros().toString();
  }

  /** Carries the first value that is not a quantity out of the walk. */
  private static final class NotAQuantity extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient FieldPath path;
    private final QuantityFormatException cause;

    NotAQuantity(FieldPath path, QuantityFormatException cause) {
      super(null, null, false, false);
      this.path = path;
      this.cause = cause;
    }
  }
}
