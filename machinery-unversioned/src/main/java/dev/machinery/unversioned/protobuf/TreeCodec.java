package dev.machinery.unversioned.protobuf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.codec.TimeFormats;
import dev.machinery.unversioned.resource.Quantity;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Converts between JSON trees and the protobuf bytes of a message described by a {@link
 * ProtoSchema}, with the JSON rules of Kubernetes' Go types ({@link KubeJson}). Encoding writes the
 * fields present in the tree in number order, as Go's generated code orders them; decoding reads
 * every field on the wire and applies the zero-value rule described in {@link SchemaProtobufCodec}.
 * Each message's plan is built once; thread-safe.
 */
final class TreeCodec {
  /** A decoded message whose JSON form is absent (a zero time, an empty raw extension). */
  private static final Object ABSENT = new Object();

  private final ProtoSchema schema;
  private final int maxDepth;
  private final ObjectMapper json;
  private final Map<String, Plan> plans = new ConcurrentHashMap<>();
  private final EnvelopeReader envelopes;

  /** Opens an embedded {@code k8s\0} envelope found in a raw extension. */
  interface EnvelopeReader {
    Map<String, Object> read(byte[] data, int depth);
  }

  TreeCodec(ProtoSchema schema, CodecLimits limits, EnvelopeReader envelopes) {
    this.schema = schema;
    this.maxDepth = limits.maxNestingDepth();
    this.envelopes = envelopes;
    JsonFactory factory =
        ObjectJson.factory(
            new JsonFactoryBuilder()
                // The JSON read here is the server's own encoding of one object, not a client's.
                .streamReadConstraints(
                    limits
                        .jsonReadConstraints()
                        .rebuild()
                        .maxDocumentLength(-1)
                        .maxTokenCount(-1)
                        .build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION));
    this.json =
        JsonMapper.builder(factory)
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
  }

  /** A field with what the codec needs to know about it. */
  private record Slot(
      FieldDescriptor field,
      String json,
      boolean inline,
      KubeJson.ZeroRule zero,
      int index,
      FieldDescriptor mapValue) {}

  /** A message's slots in number order and how its JSON is shaped. */
  private static final class Plan {
    final MessageDescriptor message;
    final KubeJson.Special special;
    final Slot[] slots;
    final Map<Integer, Slot> byNumber;

    Plan(MessageDescriptor message) {
      this.message = message;
      this.special = KubeJson.special(message);
      List<FieldDescriptor> fields = message.fields();
      this.slots = new Slot[fields.size()];
      Map<Integer, Slot> numbers = new HashMap<>();
      for (int i = 0; i < slots.length; i++) {
        FieldDescriptor field = fields.get(i);
        slots[i] =
            new Slot(
                field,
                KubeJson.jsonName(message, field),
                KubeJson.inline(message, field),
                KubeJson.zeroRule(message, field),
                i,
                field.label() == FieldDescriptor.Label.MAP
                    ? new FieldDescriptor(
                        "value",
                        2,
                        FieldDescriptor.Label.OPTIONAL,
                        field.scalar(),
                        field.messageType(),
                        null,
                        false)
                    : null);
        numbers.put(field.number(), slots[i]);
      }
      this.byNumber = Map.copyOf(numbers);
    }

    Slot slot(int number) {
      return byNumber.get(number);
    }
  }

  /** A field path, rendered only when an error needs it. */
  private record Path(Path parent, String name, int index) {
    static final Path ROOT = new Path(null, "", -1);

    Path field(String field) {
      return new Path(this, field, -1);
    }

    Path element(int at) {
      return new Path(this, null, at);
    }

    Path key(String key) {
      return new Path(this, "[" + key + "]", -2);
    }

    String render() {
      StringBuilder out = new StringBuilder();
      render(out);
      return out.toString();
    }

    private void render(StringBuilder out) {
      if (parent == null) {
        return;
      }
      parent.render(out);
      if (index >= 0) {
        out.append('[').append(index).append(']');
      } else if (index == -2) {
        out.append(name);
      } else {
        if (out.length() > 0) {
          out.append('.');
        }
        out.append(name);
      }
    }
  }

  /** A decode failure that already names its field path. */
  private static final class PathDecodeException extends DecodeException {
    private static final long serialVersionUID = 1L;

    PathDecodeException(String message, String fieldPath) {
      super(message, fieldPath);
    }
  }

  private Plan plan(String messageName) {
    Plan plan = plans.get(messageName);
    if (plan == null) {
      MessageDescriptor message =
          schema
              .message(messageName)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException("no message " + messageName + " in the schema"));
      plan = new Plan(message);
      plans.putIfAbsent(messageName, plan);
    }
    return plan;
  }

  // ---------------------------------------------------------------- encoding

  byte[] encode(String messageName, Map<String, ?> tree) {
    ProtoWriter out = new ProtoWriter();
    writeMessage(out, plan(messageName), tree, Path.ROOT, 0);
    return out.toByteArray();
  }

  /** Writes a message as a length-delimited field, in place. */
  private void writeNested(
      ProtoWriter out, int field, Plan plan, Object value, Path path, int depth) {
    int message = out.beginMessage(field);
    writeMessage(out, plan, value, path, depth);
    out.endMessage(message);
  }

  /** Writes a message's fields (without its tag and length). */
  private void writeMessage(ProtoWriter out, Plan plan, Object value, Path path, int depth) {
    if (depth > maxDepth) {
      throw encodeError(path, "messages are nested deeper than " + maxDepth);
    }
    switch (plan.special) {
      case NONE ->
          writeFields(
              out,
              plan,
              object(value, path, "an object (" + plan.message.simpleName() + ")"),
              path,
              depth);
      case TIME, MICRO_TIME -> {
        Instant instant;
        try {
          instant = TimeFormats.parse(text(value, path, "an RFC 3339 time")).toInstant();
        } catch (DateTimeException e) {
          throw encodeError(path, "expected an RFC 3339 time, found " + quote(value));
        }
        out.varintField(1, instant.getEpochSecond());
        out.varintField(2, plan.special == KubeJson.Special.TIME ? 0 : instant.getNano());
      }
      case DURATION -> {
        try {
          out.varintField(1, TimeFormats.parseDuration(text(value, path, "a duration")).toNanos());
        } catch (DateTimeException | ArithmeticException e) {
          throw encodeError(path, "expected a duration such as 1h2m3s, found " + quote(value));
        }
      }
      case QUANTITY -> {
        String text =
            value instanceof Long || value instanceof Integer || value instanceof BigInteger
                ? value.toString()
                : text(value, path, "a quantity");
        try {
          out.stringField(1, Quantity.parse(text).toString());
        } catch (IllegalArgumentException e) {
          throw encodeError(path, "expected a quantity, found " + quote(value));
        }
      }
      case INT_OR_STRING -> {
        if (value instanceof String text) {
          out.varintField(1, 1);
          out.varintField(2, 0);
          out.stringField(3, text);
        } else {
          long number = integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, path);
          out.varintField(1, 0);
          out.varintField(2, number);
          out.stringField(3, "");
        }
      }
      case RAW_JSON -> {
        try {
          out.bytesField(1, json.writeValueAsBytes(value));
        } catch (IOException e) {
          throw new EncodeException(path.render() + ": not a JSON value: " + e.getMessage(), e);
        }
      }
      case STRING_LIST -> {
        List<?> list = list(value, path);
        for (int i = 0; i < list.size(); i++) {
          out.stringField(1, text(list.get(i), path.element(i), "a string"));
        }
      }
      case SCHEMA_OR_ARRAY, SCHEMA_OR_STRING_ARRAY -> {
        Plan schemaPlan = plan(plan.message.fields().get(0).messageType());
        if (value instanceof List<?> list) {
          int number = plan.message.fields().get(1).number();
          for (int i = 0; i < list.size(); i++) {
            if (plan.special == KubeJson.Special.SCHEMA_OR_ARRAY) {
              writeNested(out, number, schemaPlan, list.get(i), path.element(i), depth + 1);
            } else {
              out.stringField(number, text(list.get(i), path.element(i), "a string"));
            }
          }
        } else {
          writeNested(
              out, plan.message.fields().get(0).number(), schemaPlan, value, path, depth + 1);
        }
      }
      case SCHEMA_OR_BOOL -> {
        if (value instanceof Boolean allows) {
          out.varintField(1, allows ? 1 : 0);
        } else {
          Plan schemaPlan = plan(plan.message.fields().get(1).messageType());
          out.varintField(1, 1);
          writeNested(out, 2, schemaPlan, value, path, depth + 1);
        }
      }
    }
  }

  private void writeFields(ProtoWriter out, Plan plan, Map<?, ?> object, Path path, int depth) {
    for (Slot slot : plan.slots) {
      FieldDescriptor field = slot.field();
      if (slot.inline()) {
        Plan inner = plan(field.messageType());
        if (depth + 1 > maxDepth) {
          throw encodeError(path, "messages are nested deeper than " + maxDepth);
        }
        int nested = out.beginMessage(field.number());
        writeFields(out, inner, object, path, depth + 1);
        out.endMessage(nested);
        continue;
      }
      Object value = object.get(slot.json());
      if (value == null) {
        continue;
      }
      Path at = path.field(slot.json());
      switch (field.label()) {
        case REPEATED -> {
          List<?> list = list(value, at);
          if (field.packed()) {
            int packed = out.beginMessage(field.number());
            for (int i = 0; i < list.size(); i++) {
              writeScalarValue(out, field.scalar(), zeroIfNull(list.get(i), field), at.element(i));
            }
            out.endMessage(packed);
          } else {
            for (int i = 0; i < list.size(); i++) {
              writeSingle(out, field, list.get(i), at.element(i), depth);
            }
          }
        }
        case MAP -> {
          Map<?, ?> map = object(value, at, "an object");
          List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
          if (field.mapKey() == ScalarType.STRING) {
            entries.sort(
                Comparator.comparing(e -> String.valueOf(e.getKey()), TreeCodec::compareUtf8));
          } else {
            entries.sort(Comparator.comparing(e -> mapKey(e.getKey(), field.mapKey(), at)));
          }
          for (Map.Entry<?, ?> entry : entries) {
            String key = String.valueOf(entry.getKey());
            Path entryPath = at.key(key);
            int pair = out.beginMessage(field.number());
            if (field.mapKey() == ScalarType.STRING) {
              out.stringField(1, key);
            } else {
              out.tag(1, field.mapKey().wireType());
              writeScalarValue(
                  out, field.mapKey(), mapKey(key, field.mapKey(), entryPath), entryPath);
            }
            writeSingle(out, slot.mapValue(), entry.getValue(), entryPath, depth);
            out.endMessage(pair);
          }
        }
        default -> writeSingle(out, field, value, at, depth);
      }
    }
  }

  private static Object zeroIfNull(Object value, FieldDescriptor field) {
    if (value != null) {
      return value;
    }
    return switch (field.scalar()) {
      case STRING, BYTES -> "";
      case BOOL -> Boolean.FALSE;
      case DOUBLE, FLOAT -> 0.0d;
      default -> 0L;
    };
  }

  private void writeSingle(
      ProtoWriter out, FieldDescriptor field, Object value, Path at, int depth) {
    if (field.scalar() != null) {
      out.tag(field.number(), field.scalar().wireType());
      writeScalarValue(out, field.scalar(), zeroIfNull(value, field), at);
    } else if (value == null) {
      out.bytesField(field.number(), new byte[0]);
    } else {
      writeNested(out, field.number(), plan(field.messageType()), value, at, depth + 1);
    }
  }

  private static Long mapKey(Object key, ScalarType type, Path at) {
    if (type == ScalarType.BOOL) {
      return "true".equals(String.valueOf(key)) ? 1L : 0L;
    }
    try {
      return Long.parseLong(String.valueOf(key));
    } catch (NumberFormatException e) {
      throw encodeError(at, "expected an integer map key, found " + quote(key));
    }
  }

  private static void writeScalarValue(ProtoWriter out, ScalarType type, Object value, Path at) {
    switch (type) {
      case STRING -> {
        byte[] bytes = text(value, at, "a string").getBytes(StandardCharsets.UTF_8);
        out.varint(bytes.length);
        out.raw(bytes);
      }
      case BYTES -> {
        byte[] bytes;
        if (value instanceof byte[] raw) {
          bytes = raw;
        } else {
          try {
            bytes = Base64.getDecoder().decode(text(value, at, "a base64 string"));
          } catch (IllegalArgumentException e) {
            throw encodeError(at, "expected a base64 string, found " + quote(value));
          }
        }
        out.varint(bytes.length);
        out.raw(bytes);
      }
      case BOOL -> {
        if (!(value instanceof Boolean b)) {
          throw encodeError(at, "expected a boolean, found " + quote(value));
        }
        out.varint(b ? 1 : 0);
      }
      case INT32 -> out.varint(integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, at));
      case INT64 -> out.varint(integer(value, Long.MIN_VALUE, Long.MAX_VALUE, at));
      case UINT32 -> out.varint(integer(value, 0, 0xFFFF_FFFFL, at));
      case UINT64 -> out.varint(unsigned64(value, at));
      case SINT32 -> {
        long n = integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, at);
        out.varint(((n << 1) ^ (n >> 63)) & 0xFFFF_FFFFL);
      }
      case SINT64 -> {
        long n = integer(value, Long.MIN_VALUE, Long.MAX_VALUE, at);
        out.varint((n << 1) ^ (n >> 63));
      }
      case FIXED32 -> out.fixed32((int) integer(value, 0, 0xFFFF_FFFFL, at));
      case SFIXED32 -> out.fixed32((int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, at));
      case FIXED64 -> out.fixed64(unsigned64(value, at));
      case SFIXED64 -> out.fixed64(integer(value, Long.MIN_VALUE, Long.MAX_VALUE, at));
      case DOUBLE -> out.fixed64(Double.doubleToRawLongBits(number(value, at)));
      case FLOAT -> out.fixed32(Float.floatToRawIntBits((float) number(value, at)));
    }
  }

  private static long integer(Object value, long min, long max, Path at) {
    long n;
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      n = ((Number) value).longValue();
    } else if (value instanceof BigInteger big && big.bitLength() < 64) {
      n = big.longValue();
    } else if (value instanceof BigInteger) {
      throw encodeError(at, "the integer " + value + " is out of range");
    } else {
      throw encodeError(at, "expected an integer, found " + quote(value));
    }
    if (n < min || n > max) {
      throw encodeError(at, "the integer " + n + " is out of range [" + min + ", " + max + "]");
    }
    return n;
  }

  private static long unsigned64(Object value, Path at) {
    if (value instanceof BigInteger big) {
      if (big.signum() < 0 || big.bitLength() > 64) {
        throw encodeError(at, "the integer " + value + " is out of range for uint64");
      }
      return big.longValue();
    }
    return integer(value, 0, Long.MAX_VALUE, at);
  }

  private static double number(Object value, Path at) {
    if (value instanceof Number n) {
      double d = n.doubleValue();
      if (Double.isFinite(d)) {
        return d;
      }
    }
    throw encodeError(at, "expected a number, found " + quote(value));
  }

  private static String text(Object value, Path at, String expected) {
    if (value instanceof String s) {
      return s;
    }
    throw encodeError(at, "expected " + expected + ", found " + quote(value));
  }

  private static Map<?, ?> object(Object value, Path at, String expected) {
    if (value instanceof Map<?, ?> map) {
      return map;
    }
    throw encodeError(at, "expected " + expected + ", found " + quote(value));
  }

  private static List<?> list(Object value, Path at) {
    if (value instanceof List<?> list) {
      return list;
    }
    throw encodeError(at, "expected an array, found " + quote(value));
  }

  private static EncodeException encodeError(Path at, String problem) {
    String path = at.render();
    return new EncodeException((path.isEmpty() ? "" : path + ": ") + problem, null);
  }

  private static String quote(Object value) {
    if (value == null) {
      return "null";
    }
    String text =
        value instanceof String s
            ? "\"" + s + "\""
            : value instanceof Map
                ? "an object"
                : value instanceof List ? "an array" : value.toString();
    return text.length() > 66 ? text.substring(0, 64) + "..." : text;
  }

  /** Go's sort.Strings order: by UTF-8 bytes, which differs from UTF-16 for surrogates. */
  static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        boolean xs = Character.isSurrogate(x);
        boolean ys = Character.isSurrogate(y);
        if (xs != ys) {
          return xs ? 1 : -1;
        }
        return Character.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  // ---------------------------------------------------------------- decoding

  Map<String, Object> decode(String messageName, ProtoReader reader, int depth) {
    Plan plan = plan(messageName);
    Object value = decodeMessage(plan, reader, Path.ROOT, depth);
    if (value instanceof Map<?, ?>) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) value;
      return map;
    }
    Map<String, Object> wrapped = new LinkedHashMap<>();
    if (value != ABSENT) {
      wrapped.put("value", value);
    }
    return wrapped;
  }

  private Object decodeMessage(Plan plan, ProtoReader reader, Path path, int depth) {
    if (depth > maxDepth) {
      throw new LimitExceededException(
          "maxNestingDepth",
          maxDepth,
          path.render() + ": messages are nested deeper than " + maxDepth,
          path.render(),
          0,
          0);
    }
    boolean empty = !reader.hasMore();
    Object[] values = readFields(plan, reader, path, depth);
    try {
      return shape(plan, values, empty, path, depth);
    } catch (DateTimeException | IllegalArgumentException e) {
      throw new PathDecodeException(path.render() + ": " + e.getMessage(), path.render());
    }
  }

  private Object shape(Plan plan, Object[] values, boolean empty, Path path, int depth) {
    switch (plan.special) {
      case NONE:
        return object(plan, values);
      case TIME:
      case MICRO_TIME:
        {
          if (empty) {
            return ABSENT;
          }
          long seconds = longAt(plan, values, 1);
          long nanos = plan.special == KubeJson.Special.TIME ? 0 : longAt(plan, values, 2);
          Instant instant = Instant.ofEpochSecond(seconds, nanos);
          int year = instant.atOffset(ZoneOffset.UTC).getYear();
          if (year < 0 || year > 9999) {
            throw new DateTimeException("the time is in the year " + year + ", outside 0 to 9999");
          }
          return plan.special == KubeJson.Special.TIME
              ? TimeFormats.formatSeconds(instant)
              : TimeFormats.formatMicros(instant);
        }
      case DURATION:
        return TimeFormats.formatDuration(Duration.ofNanos(longAt(plan, values, 1)));
      case QUANTITY:
        {
          Object text = valueAt(plan, values, 1);
          return text == null ? "0" : Quantity.parse((String) text).toString();
        }
      case INT_OR_STRING:
        if (longAt(plan, values, 1) == 1) {
          Object text = valueAt(plan, values, 3);
          return text == null ? "" : text;
        }
        return longAt(plan, values, 2);
      case RAW_JSON:
        {
          Object raw = valueAt(plan, values, 1);
          if (raw == null || ((byte[]) raw).length == 0) {
            return ABSENT;
          }
          return rawJson((byte[]) raw, path, depth);
        }
      case STRING_LIST:
        {
          Object items = valueAt(plan, values, 1);
          return items == null ? new ArrayList<>() : items;
        }
      case SCHEMA_OR_ARRAY:
      case SCHEMA_OR_STRING_ARRAY:
        {
          Object many = values[1];
          if (many instanceof List<?> list && !list.isEmpty()) {
            return list;
          }
          return values[0] == null || values[0] == ABSENT ? ABSENT : values[0];
        }
      case SCHEMA_OR_BOOL:
        {
          Object schemaValue = values[1];
          if (schemaValue != null && schemaValue != ABSENT) {
            return schemaValue;
          }
          return values[0] instanceof Boolean b ? b : Boolean.FALSE;
        }
    }
    throw new IllegalStateException("unreachable: " + plan.special);
  }

  private static Object valueAt(Plan plan, Object[] values, int number) {
    Slot slot = plan.slot(number);
    return slot == null ? null : values[slot.index()];
  }

  private static long longAt(Plan plan, Object[] values, int number) {
    Object value = valueAt(plan, values, number);
    return value instanceof Long n ? n : 0L;
  }

  private Object rawJson(byte[] raw, Path path, int depth) {
    if (Envelope.hasMagic(raw)) {
      return envelopes.read(raw, depth + 1);
    }
    try {
      return json.readValue(raw, Object.class);
    } catch (IOException e) {
      throw new PathDecodeException(
          path.render() + ": the embedded JSON does not parse: " + firstLine(e.getMessage()),
          path.render());
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private Map<String, Object> object(Plan plan, Object[] values) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Slot slot : plan.slots) {
      Object value = values[slot.index()];
      if (value == null || value == ABSENT) {
        continue;
      }
      if (slot.inline()) {
        if (value instanceof Map<?, ?> inner) {
          for (Map.Entry<?, ?> entry : inner.entrySet()) {
            out.put((String) entry.getKey(), entry.getValue());
          }
        }
        continue;
      }
      FieldDescriptor field = slot.field();
      if (field.label() == FieldDescriptor.Label.OPTIONAL
          || field.label() == FieldDescriptor.Label.REQUIRED) {
        if (field.scalar() != null && dropped(slot.zero(), value)) {
          continue;
        }
        if (value instanceof byte[] bytes) {
          value = Base64.getEncoder().encodeToString(bytes);
        }
      } else if (field.scalar() == ScalarType.BYTES) {
        value = base64All(value);
      }
      out.put(slot.json(), value);
    }
    return out;
  }

  /** Whether a singular scalar's value is left out of the tree by its field's zero rule. */
  private static boolean dropped(KubeJson.ZeroRule rule, Object value) {
    return switch (rule) {
      case KEEP -> false;
      case DROP_EMPTY_STRING ->
          "".equals(value) || (value instanceof byte[] bytes && bytes.length == 0);
      case DROP_ZERO ->
          "".equals(value)
              || Boolean.FALSE.equals(value)
              || (value instanceof Long n && n == 0)
              || (value instanceof Double d && d == 0)
              || (value instanceof byte[] bytes && bytes.length == 0);
    };
  }

  @SuppressWarnings("unchecked")
  private static Object base64All(Object value) {
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object element : list) {
        copy.add(Base64.getEncoder().encodeToString((byte[]) element));
      }
      return copy;
    }
    Map<String, Object> map = (Map<String, Object>) value;
    map.replaceAll((k, v) -> Base64.getEncoder().encodeToString((byte[]) v));
    return map;
  }

  @SuppressWarnings("unchecked")
  private Object[] readFields(Plan plan, ProtoReader reader, Path path, int depth) {
    Object[] values = new Object[plan.slots.length];
    Path at = path;
    try {
      while (reader.hasMore()) {
        at = path;
        long tag = reader.varint("");
        int number = (int) (tag >>> 3);
        int wireType = (int) (tag & 7);
        if (number == 0 || tag >>> 3 > Integer.MAX_VALUE) {
          throw new DecodeException(": field number " + (tag >>> 3) + " is not valid", "");
        }
        Slot slot = plan.slot(number);
        if (slot == null) {
          at = path.field("<field " + number + ">");
          reader.skip(wireType, "");
          continue;
        }
        FieldDescriptor field = slot.field();
        at = slot.inline() ? path : path.field(slot.json());
        switch (field.label()) {
          case REPEATED -> {
            List<Object> list = (List<Object>) values[slot.index()];
            if (list == null) {
              list = new ArrayList<>();
              values[slot.index()] = list;
            }
            if (field.scalar() != null && field.scalar().wireType() != 2 && wireType == 2) {
              ProtoReader packed = reader.message("");
              while (packed.hasMore()) {
                list.add(readScalar(packed, field.scalar()));
              }
            } else {
              Path element = at.element(list.size());
              Object value = readSingle(reader, field, wireType, element, depth);
              list.add(value == ABSENT ? null : value);
            }
          }
          case MAP -> {
            expectWireType(wireType, 2);
            Map<String, Object> map = (Map<String, Object>) values[slot.index()];
            if (map == null) {
              map = new LinkedHashMap<>();
              values[slot.index()] = map;
            }
            ProtoReader pair = reader.message("");
            Object key = null;
            Object value = null;
            FieldDescriptor valueField =
                new FieldDescriptor(
                    "value",
                    2,
                    FieldDescriptor.Label.OPTIONAL,
                    field.scalar(),
                    field.messageType(),
                    null,
                    false);
            while (pair.hasMore()) {
              long pairTag = pair.varint("");
              int pairWire = (int) (pairTag & 7);
              if (pairTag >>> 3 == 1) {
                expectWireType(pairWire, field.mapKey().wireType());
                key = readScalar(pair, field.mapKey());
              } else if (pairTag >>> 3 == 2) {
                value =
                    readSingle(
                        pair,
                        valueField,
                        pairWire,
                        at.key(key == null ? "" : String.valueOf(key)),
                        depth);
              } else {
                pair.skip(pairWire, "");
              }
            }
            if (value == null) {
              value =
                  field.scalar() != null
                      ? zeroValue(field.scalar())
                      : decodeMessage(
                          plan(field.messageType()),
                          new ProtoReader(new byte[0], 0, 0),
                          at,
                          depth + 1);
            }
            map.put(
                key == null ? String.valueOf(zeroValue(field.mapKey())) : String.valueOf(key),
                value == ABSENT ? null : value);
          }
          default -> {
            Object value = readSingle(reader, field, wireType, at, depth);
            Object previous = values[slot.index()];
            if (previous instanceof Map<?, ?> old && value instanceof Map<?, ?> update) {
              Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) old);
              merged.putAll((Map<String, Object>) update);
              value = merged;
            }
            values[slot.index()] = value;
          }
        }
      }
    } catch (PathDecodeException | LimitExceededException e) {
      throw e;
    } catch (DecodeException e) {
      String where = at.render();
      throw new PathDecodeException(
          (where.isEmpty() ? "the message" : where) + e.getMessage(), where);
    }
    return values;
  }

  private Object readSingle(
      ProtoReader reader, FieldDescriptor field, int wireType, Path at, int depth) {
    if (field.scalar() != null) {
      expectWireType(wireType, field.scalar().wireType());
      return readScalar(reader, field.scalar());
    }
    expectWireType(wireType, 2);
    return decodeMessage(plan(field.messageType()), reader.message(""), at, depth + 1);
  }

  private static void expectWireType(int found, int expected) {
    if (found != expected) {
      throw new DecodeException(": expected wire type " + expected + ", found " + found, "");
    }
  }

  private static Object zeroValue(ScalarType type) {
    return switch (type) {
      case STRING -> "";
      case BYTES -> new byte[0];
      case BOOL -> Boolean.FALSE;
      case DOUBLE, FLOAT -> 0.0d;
      default -> 0L;
    };
  }

  private static Object readScalar(ProtoReader reader, ScalarType type) {
    return switch (type) {
      case STRING -> reader.string("");
      case BYTES -> reader.bytes("");
      case BOOL -> reader.varint("") != 0;
      case INT32 -> (long) (int) reader.varint("");
      case INT64 -> reader.varint("");
      case UINT32 -> reader.varint("") & 0xFFFF_FFFFL;
      case UINT64 -> unsigned(reader.varint(""));
      case SINT32 -> {
        int n = (int) reader.varint("");
        yield (long) ((n >>> 1) ^ -(n & 1));
      }
      case SINT64 -> {
        long n = reader.varint("");
        yield (n >>> 1) ^ -(n & 1);
      }
      case FIXED32 -> Integer.toUnsignedLong(reader.fixed32(""));
      case SFIXED32 -> (long) reader.fixed32("");
      case FIXED64 -> unsigned(reader.fixed64(""));
      case SFIXED64 -> reader.fixed64("");
      case DOUBLE -> finite(Double.longBitsToDouble(reader.fixed64("")));
      case FLOAT -> finite(Float.intBitsToFloat(reader.fixed32("")));
    };
  }

  private static Object unsigned(long value) {
    return value >= 0 ? (Object) value : new BigInteger(Long.toUnsignedString(value));
  }

  private static Double finite(double value) {
    if (!Double.isFinite(value)) {
      throw new DecodeException(": " + value + " is not a JSON number", "");
    }
    return value;
  }
}
