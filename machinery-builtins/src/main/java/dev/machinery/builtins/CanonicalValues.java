package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.codec.TimeFormats;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Rfc3339;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.resource.QuantityFormatException;
import dev.machinery.unversioned.validation.FieldPath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The values of a built-in kind that kube-apiserver writes in a canonical form, because Go decodes
 * each into its own type and encodes it again: quantities ({@code resource.Quantity}: {@code 0.5}
 * becomes {@code 500m}, {@code 1.5Gi} {@code 1536Mi}, a JSON number read as a quantity too), times
 * ({@code metav1.Time}: RFC 3339 read with any offset and fraction, written in UTC to the second)
 * and micro times ({@code metav1.MicroTime}: read with exactly six digits of fraction, as Go's
 * layout {@code 2006-01-02T15:04:05.000000Z07:00} requires, written in UTC to the microsecond) and
 * bytes (a Secret's {@code data}, a webhook's {@code caBundle}: standard base64 with its padding,
 * line breaks ignored). A time at Go's zero ({@code 0001-01-01T00:00:00Z}) is written {@code null},
 * as Go writes it. Integers are read as Go reads them into the field's type ({@code int32}, {@code
 * int64}, and an {@code IntOrString}'s number as {@code int32}): a number with a fraction or an
 * exponent ({@code 1.0}, {@code 1e3}) or out of the type's range is refused, and written as it came
 * otherwise. A {@code null} element of a list or map of strings, numbers, booleans, quantities,
 * bytes or structs is read as Go reads it into the element's type, as its zero value ({@code ""},
 * {@code 0}, {@code false}, {@code "0"}; empty bytes for a Secret's {@code data}, as kube-apiserver
 * reads a nil one back from etcd; {@code {}} for a struct): a ConfigMap's {@code data} or a label
 * written {@code key:} with no value in a manifest holds {@code key: ""}. What Go's {@code
 * omitempty} leaves out of the JSON it writes is left out, as kube-apiserver's read back from etcd
 * leaves it out: a scalar's zero value where Go holds the field without a pointer and writes it
 * {@code omitempty} ({@code hostNetwork: false}, {@code serviceAccountName: ""}; {@link
 * KubeProtos#omitsZero}), and an empty list or map ({@code args: []}, {@code labels: {}}; but
 * {@code managedFields: []}, which resets them). A value Go cannot decode makes the object
 * undecodable: the write is refused.
 *
 * <p>Found from the kind's named schema and those it refers to, by the names of Go's types (the
 * three above and {@code IntOrString}), the {@code byte} format and the {@code integer} type with
 * its format; only the branches that lead to one are kept. A JSON number is read as a quantity from
 * its value, not its text: {@code 1e3} written as a number becomes {@code 1k}, where Go reads the
 * text and writes {@code 1e3}, the same quantity. A value of another JSON type than the field's is
 * left to the schema's validation, which names it.
 *
 * <p>Immutable once made; thread-safe.
 */
final class CanonicalValues {
  /**
   * Go's types whose values are read and written again, with the value Go reads a list's or map's
   * {@code null} element as (its zero value; null for the types that can hold nil).
   */
  private enum Leaf {
    QUANTITY("0"),
    TIME(null),
    MICRO_TIME(null),
    /**
     * Go decodes a null element into a nil {@code []byte}, which Kubernetes' protobuf stores as an
     * absent value and reads back as empty bytes: kube-apiserver answers it {@code ""}.
     */
    BYTES(""),
    INT32(0L),
    INT64(0L),
    INT_OR_STRING(0L),
    STRING(""),
    BOOLEAN(false),
    NUMBER(0L);

    private final Object zero;

    Leaf(Object zero) {
      this.zero = zero;
    }
  }

  /** The primitive types of a list's or map's elements, whose null Go reads as a zero value. */
  private static final Map<String, Leaf> PRIMITIVES =
      Map.of("string", Leaf.STRING, "boolean", Leaf.BOOLEAN, "number", Leaf.NUMBER);

  private static final Map<String, Leaf> LEAVES =
      Map.of(
          "io.k8s.apimachinery.pkg.api.resource.Quantity", Leaf.QUANTITY,
          "io.k8s.apimachinery.pkg.apis.meta.v1.Time", Leaf.TIME,
          "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime", Leaf.MICRO_TIME,
          "io.k8s.apimachinery.pkg.util.intstr.IntOrString", Leaf.INT_OR_STRING);

  /** What Go's {@code time.RFC3339} reads: a fraction of a second allowed, after a dot or comma. */
  private static final Pattern TIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}([.,]\\d+)?(Z|[+-]\\d{2}:\\d{2})");

  /** What Go's {@code metav1.RFC3339Micro} reads: exactly six digits of fraction. */
  private static final Pattern MICRO_TIME =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[.,]\\d{6}(Z|[+-]\\d{2}:\\d{2})");

  /** Go's zero time, which it writes as {@code null}. */
  private static final Instant ZERO = Instant.parse("0001-01-01T00:00:00Z");

  /** Nothing below is written again. */
  private static final CanonicalValues NONE = new CanonicalValues(null, Map.of(), null, null);

  /**
   * What Go's {@code omitempty} leaves out of a field: nothing, its zero, or an empty list or map.
   */
  private enum Omit {
    NOTHING,
    ZERO,
    EMPTY
  }

  private final Leaf leaf;
  private final boolean element;
  private final Omit omit;
  private final Map<String, CanonicalValues> properties;
  private final CanonicalValues items;
  private final CanonicalValues values;

  private CanonicalValues(
      Leaf leaf,
      Map<String, CanonicalValues> properties,
      CanonicalValues items,
      CanonicalValues values) {
    this(leaf, false, Omit.NOTHING, properties, items, values);
  }

  private CanonicalValues(
      Leaf leaf,
      boolean element,
      Omit omit,
      Map<String, CanonicalValues> properties,
      CanonicalValues items,
      CanonicalValues values) {
    this.leaf = leaf;
    this.element = element;
    this.omit = omit;
    this.properties = properties;
    this.items = items;
    this.values = values;
  }

  /** This node, for a field whose value Go leaves out when it is zero or empty. */
  private CanonicalValues omitting(Omit what) {
    return new CanonicalValues(leaf, element, what, properties, items, values);
  }

  /** Whether Go's {@code omitempty} leaves a field's value out of what it writes. */
  private boolean omits(Object value) {
    return switch (omit) {
      case NOTHING -> false;
      case ZERO ->
          "".equals(value)
              || Boolean.FALSE.equals(value)
              || value instanceof Number number
                  && !(value instanceof BigDecimal || value instanceof BigInteger)
                  && number.doubleValue() == 0;
      case EMPTY ->
          value instanceof List<?> list && list.isEmpty()
              || value instanceof Map<?, ?> map && map.isEmpty();
    };
  }

  /**
   * The values of a kind written again.
   *
   * @param name the kind's named schema, such as {@code io.k8s.api.core.v1.Pod}
   * @param definitions the named schemas, by name (null for a name not defined)
   * @return where its values are; nothing is done with an object when it has none
   */
  static CanonicalValues of(String name, Function<String, JsonNode> definitions) {
    CanonicalValues found = named(name, definitions, new ArrayDeque<>());
    return found == null ? NONE : found;
  }

  /** The values under a named schema, or null when there are none; a cycle is not followed. */
  private static CanonicalValues named(
      String name, Function<String, JsonNode> definitions, Deque<String> stack) {
    Leaf leaf = LEAVES.get(name);
    if (leaf != null) {
      return new CanonicalValues(leaf, Map.of(), null, null);
    }
    JsonNode definition = stack.contains(name) ? null : definitions.apply(name);
    if (definition == null) {
      return null;
    }
    stack.push(name);
    try {
      return schema(definition, definitions, stack, message(name));
    } finally {
      stack.pop();
    }
  }

  /**
   * The protobuf message of a named schema, whose Go type's {@code omitempty} fields {@link
   * KubeProtos#omitsZero} knows: {@code io.k8s.api.core.v1.PodSpec} is {@code
   * k8s.io.api.core.v1.PodSpec}.
   */
  private static String message(String name) {
    return name.startsWith("io.k8s.")
        ? "k8s.io." + name.substring("io.k8s.".length()).replace('-', '_')
        : null;
  }

  private static CanonicalValues schema(
      JsonNode schema, Function<String, JsonNode> definitions, Deque<String> stack) {
    return schema(schema, definitions, stack, null);
  }

  /**
   * The values under a schema, or null when there are none; {@code message} names the Go type whose
   * fields the schema's properties are (null for a schema that is not a named type's).
   */
  private static CanonicalValues schema(
      JsonNode schema,
      Function<String, JsonNode> definitions,
      Deque<String> stack,
      String message) {
    String target = KubeOpenApi.referenced(schema);
    if (target != null) {
      return named(target, definitions, stack);
    }
    JsonNode allOf = schema.get("allOf");
    if (allOf != null && allOf.size() == 1) {
      return schema(allOf.get(0), definitions, stack);
    }
    if (schema.path("format").asText().equals("byte")) {
      return new CanonicalValues(Leaf.BYTES, Map.of(), null, null);
    }
    if (schema.path("type").asText().equals("integer")) {
      Leaf integer = schema.path("format").asText().equals("int32") ? Leaf.INT32 : Leaf.INT64;
      return new CanonicalValues(integer, Map.of(), null, null);
    }
    Map<String, CanonicalValues> properties = new LinkedHashMap<>();
    JsonNode declared = schema.get("properties");
    if (declared != null && declared.isObject()) {
      for (Map.Entry<String, JsonNode> property : declared.properties()) {
        CanonicalValues below = schema(property.getValue(), definitions, stack);
        Omit omit = omitted(message, property.getKey(), property.getValue());
        if (omit != Omit.NOTHING) {
          below = (below == null ? NONE : below).omitting(omit);
        }
        if (below != null) {
          properties.put(property.getKey(), below);
        }
      }
    }
    JsonNode itemSchema = schema.get("items");
    CanonicalValues items =
        itemSchema != null && itemSchema.isObject()
            ? element(itemSchema, definitions, stack)
            : null;
    JsonNode additional = schema.get("additionalProperties");
    CanonicalValues values =
        additional != null && additional.isObject()
            ? element(additional, definitions, stack)
            : null;
    if (properties.isEmpty() && items == null && values == null) {
      return null;
    }
    return new CanonicalValues(null, Map.copyOf(properties), items, values);
  }

  /**
   * What Go leaves out of a field of its type: a scalar's zero where the type holds it without a
   * pointer and writes it {@code omitempty}; an empty list or map always (a field that holds none
   * is left out of Kubernetes' protobuf, and so of what kube-apiserver reads back from etcd).
   */
  private static Omit omitted(String message, String field, JsonNode schema) {
    if (field.equals("managedFields")) {
      // An empty list of them is a request: it resets an object's managed fields.
      return Omit.NOTHING;
    }
    String type = schema.path("type").asText();
    if (type.equals("array")
        || type.equals("object")
            && schema.has("additionalProperties")
            && !schema.has("properties")) {
      return message == null ? Omit.NOTHING : Omit.EMPTY;
    }
    return message != null && KubeProtos.omitsZero(message, field) ? Omit.ZERO : Omit.NOTHING;
  }

  /**
   * The values under a list's or map's element schema: as a field's, and a null element read as Go
   * reads it into the element's type (its zero value: {@code ""} for a string, {@code 0} for a
   * number, {@code "0"} for a quantity, an empty object for a struct).
   */
  private static CanonicalValues element(
      JsonNode schema, Function<String, JsonNode> definitions, Deque<String> stack) {
    CanonicalValues below = schema(schema, definitions, stack);
    if (below == null) {
      Leaf primitive = PRIMITIVES.get(schema.path("type").asText());
      if (primitive != null) {
        return new CanonicalValues(primitive, true, Omit.NOTHING, Map.of(), null, null);
      }
      return isStruct(schema, definitions)
          ? new CanonicalValues(null, true, Omit.NOTHING, Map.of(), null, null)
          : null;
    }
    if (below.leaf == null) {
      return isStruct(schema, definitions)
          ? new CanonicalValues(
              null, true, Omit.NOTHING, below.properties, below.items, below.values)
          : below;
    }
    return below.leaf.zero == null
        ? below
        : new CanonicalValues(below.leaf, true, Omit.NOTHING, Map.of(), null, null);
  }

  /**
   * Whether a schema is a Go struct's (an object with declared properties, named or inline), into
   * which Go decodes a {@code null} as the struct's zero value, written {@code {}}.
   */
  private static boolean isStruct(JsonNode schema, Function<String, JsonNode> definitions) {
    JsonNode resolved = schema;
    for (int depth = 0; depth < 8; depth++) {
      String target = KubeOpenApi.referenced(resolved);
      JsonNode allOf = resolved.get("allOf");
      if (target != null) {
        if (LEAVES.containsKey(target)) {
          return false;
        }
        resolved = definitions.apply(target);
        if (resolved == null) {
          return false;
        }
      } else if (allOf != null && allOf.size() == 1) {
        resolved = allOf.get(0);
      } else {
        JsonNode declared = resolved.get("properties");
        return declared != null && declared.isObject() && !declared.isEmpty();
      }
    }
    return false;
  }

  /**
   * Writes every such value of an object in its canonical form, in place.
   *
   * @param object the object's content
   * @param kind the object's kind, for the error ({@code Pod})
   * @param version the version the client wrote, for the error ({@code v1})
   * @throws dev.machinery.unversioned.errors.StatusException a {@code BadRequest} naming the first
   *     value Go could not decode, its field and why, as kube-apiserver refuses an object it cannot
   *     decode ({@code Pod in version "v1" cannot be handled as a Pod: …})
   */
  void canonicalize(Map<String, Object> object, String kind, String version) {
    if (this == NONE) {
      return;
    }
    try {
      walkObject(object);
    } catch (Undecodable e) {
      throw ApiErrors.newBadRequest(
          kind
              + " in version \""
              + version
              + "\" cannot be handled as a "
              + kind
              + ": "
              + e.path()
              + ": "
              + e.getMessage());
    }
  }

  private void walkObject(Map<String, Object> object) {
    for (Map.Entry<String, CanonicalValues> property : properties.entrySet()) {
      String name = property.getKey();
      if (object.containsKey(name)) {
        Object value = object.get(name);
        Object written;
        try {
          written = property.getValue().walk(value);
        } catch (Undecodable e) {
          throw e.within(Segment.NAME, name);
        }
        if (property.getValue().omits(written)) {
          object.remove(name);
        } else if (written != value) {
          object.put(name, written);
        }
      }
    }
    if (values != null) {
      for (Map.Entry<String, Object> entry : object.entrySet()) {
        if (!properties.containsKey(entry.getKey())) {
          Object value = entry.getValue();
          Object written;
          try {
            written = values.walk(value);
          } catch (Undecodable e) {
            throw e.within(Segment.KEY, entry.getKey());
          }
          if (written != value) {
            entry.setValue(written);
          }
        }
      }
    }
  }

  /**
   * The value with its values canonical: the same value when nothing changed. Nothing is made for a
   * value's path unless one is refused: the path is put together as the refusal unwinds.
   */
  @SuppressWarnings("unchecked")
  private Object walk(Object value) {
    if (value == null) {
      if (!element) {
        return null;
      }
      return leaf == null ? new LinkedHashMap<String, Object>() : leaf.zero;
    }
    if (leaf != null) {
      return value instanceof String || value instanceof Number ? canonical(value) : value;
    }
    if (value instanceof Map<?, ?> map) {
      walkObject((Map<String, Object>) map);
    } else if (value instanceof List<?> list && items != null) {
      List<Object> elements = (List<Object>) list;
      for (int i = 0; i < elements.size(); i++) {
        Object element = elements.get(i);
        Object written;
        try {
          written = items.walk(element);
        } catch (Undecodable e) {
          throw e.within(Segment.INDEX, Integer.toString(i));
        }
        if (written != element) {
          elements.set(i, written);
        }
      }
    }
    return value;
  }

  /** A leaf's canonical value: a string, or null for Go's zero time. */
  private Object canonical(Object value) {
    Object written =
        switch (leaf) {
          case QUANTITY -> quantity(value);
          case TIME -> value instanceof String text ? time(text) : value;
          case MICRO_TIME -> value instanceof String text ? microTime(text) : value;
          case BYTES -> value instanceof String text ? bytes(text) : value;
          case INT32, INT_OR_STRING ->
              integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "int32");
          case INT64 -> integer(value, Long.MIN_VALUE, Long.MAX_VALUE, "int64");
          case STRING, BOOLEAN, NUMBER -> value;
        };
    return written != null && written.equals(value) ? value : written;
  }

  private static String quantity(Object value) {
    String text;
    if (value instanceof String string) {
      text = string;
    } else if (value instanceof BigDecimal decimal) {
      text = decimalText(decimal);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        throw new Undecodable("not a quantity: " + value);
      }
      text = decimalText(BigDecimal.valueOf(number));
    } else {
      text =
          value instanceof BigInteger
              ? value.toString()
              : Long.toString(((Number) value).longValue());
    }
    try {
      return Quantity.parse(text).toString();
    } catch (QuantityFormatException e) {
      throw new Undecodable(e.getMessage());
    }
  }

  /**
   * A JSON number that Go reads into an integer of the given range: one with a fraction or an
   * exponent (which a client's JSON parser reads as a decimal), or out of the range, is refused as
   * Go refuses it; text and other JSON types are left alone (an int-or-string's text is its name,
   * another field's is left to the schema's validation).
   */
  private static Object integer(Object value, long min, long max, String type) {
    if (!(value instanceof Number number)) {
      return value;
    }
    boolean fits =
        value instanceof BigInteger big
            ? big.bitLength() < 64 && big.longValue() >= min && big.longValue() <= max
            : !(value instanceof Double || value instanceof Float || value instanceof BigDecimal)
                && number.longValue() >= min
                && number.longValue() <= max;
    if (!fits) {
      throw new Undecodable("cannot unmarshal number " + value + " into Go value of type " + type);
    }
    return value;
  }

  /**
   * A decimal number as a quantity's text: plain ({@code 0.5}, {@code 1000}) unless that is long,
   * with an exponent then ({@code 1E+300}), which a quantity may have.
   */
  private static String decimalText(BigDecimal decimal) {
    String plain = decimal.stripTrailingZeros().toPlainString();
    return plain.length() <= 40 ? plain : decimal.stripTrailingZeros().toString();
  }

  private static String time(String text) {
    Instant instant = instant(text, TIME, "2006-01-02T15:04:05Z07:00", "not an RFC 3339 time");
    return instant.equals(ZERO) ? null : Rfc3339.format(instant);
  }

  private static String microTime(String text) {
    String problem =
        TIME.matcher(text).matches()
            ? "a MicroTime has exactly six digits of fraction"
            : "not an RFC 3339 time";
    Instant instant = instant(text, MICRO_TIME, "2006-01-02T15:04:05.000000Z07:00", problem);
    return instant.equals(ZERO) ? null : TimeFormats.formatMicros(instant);
  }

  private static Instant instant(String text, Pattern form, String layout, String problem) {
    String why = problem;
    if (form.matcher(text).matches()) {
      try {
        return TimeFormats.parse(text.replace(',', '.')).toInstant();
      } catch (DateTimeParseException e) {
        why = "not a valid time";
      }
    }
    String shown = text.length() > 64 ? text.substring(0, 64) + "…" : text;
    throw new Undecodable("parsing time \"" + shown + "\" as \"" + layout + "\": " + why);
  }

  /**
   * Bytes as Go's {@code encoding/json} reads them, standard base64 with its padding (line breaks
   * ignored), written again without line breaks and with the unused bits of the last character
   * zero.
   */
  private static String bytes(String text) {
    String data =
        text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0 ? text.replaceAll("[\r\n]", "") : text;
    int bad = -1;
    int padding = data.length();
    for (int i = 0; i < data.length() && bad < 0; i++) {
      char c = data.charAt(i);
      if (c == '=') {
        padding = Math.min(padding, i);
      } else if (padding < data.length()
          || !(c >= 'A' && c <= 'Z'
              || c >= 'a' && c <= 'z'
              || c >= '0' && c <= '9'
              || c == '+'
              || c == '/')) {
        bad = i;
      }
    }
    if (bad < 0 && data.length() % 4 != 0) {
      bad = data.length() - data.length() % 4;
    }
    if (bad < 0 && data.length() - padding > 2) {
      bad = padding;
    }
    if (bad < 0) {
      try {
        return Base64.getEncoder().encodeToString(Base64.getDecoder().decode(data));
      } catch (IllegalArgumentException e) {
        bad = padding;
      }
    }
    throw new Undecodable("illegal base64 data at input byte " + bad);
  }

  /** How a step of a path is written: a field's name, a map's key, a list's index. */
  private enum Segment {
    NAME,
    KEY,
    INDEX
  }

  /**
   * Carries the first value Go could not decode out of the walk, its path put together step by step
   * as it unwinds (the step nearest the root last).
   */
  private static final class Undecodable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Deque<Segment> kinds = new ArrayDeque<>();
    private final transient Deque<String> steps = new ArrayDeque<>();

    Undecodable(String message) {
      super(message, null, false, false);
    }

    /** This refusal, one step further from the value. */
    Undecodable within(Segment kind, String step) {
      kinds.push(kind);
      steps.push(step);
      return this;
    }

    /** The value's path from the object's root, such as {@code spec.containers[0].image}. */
    FieldPath path() {
      FieldPath path = null;
      Iterator<Segment> kind = kinds.iterator();
      for (String step : steps) {
        Segment segment = kind.next();
        if (path == null) {
          path = FieldPath.of(step);
        } else if (segment == Segment.NAME) {
          path = path.child(step);
        } else if (segment == Segment.KEY) {
          path = path.key(step);
        } else {
          path = path.index(Integer.parseInt(step));
        }
      }
      return path;
    }
  }
}
