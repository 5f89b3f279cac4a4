package dev.machinery.unversioned.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.conversion.Property;
import dev.machinery.conversion.ProtoField;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.runtime.WireProperties;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.resource.Quantity;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The protobuf messages of API classes: each class's fields by their {@link ProtoField} numbers,
 * written in number order as Go's generated code writes them (strings, numbers and structs always,
 * pointer fields when set, maps as key-sorted entries, lists as repeated fields) and read back into
 * the class. Value types have fixed messages: times as {@code Timestamp} (seconds, nanos),
 * quantities as {@code {string=1}}, int-or-strings as {@code {type=1, intVal=2, strVal=3}}, raw
 * JSON as {@code {raw=1}}. Schemas are found once per class; thread-safe.
 */
final class ProtoMessages {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final Map<Class<?>, Schema> SCHEMAS = new ConcurrentHashMap<>();

  private final int maxDepth;

  ProtoMessages(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  /** A field: its number, property, and how it is written. */
  private record Field(int number, Property property, boolean optional, boolean rawJson) {}

  /** A class's fields in number order, and how to build it. */
  private record Schema(Class<?> type, List<Field> fields, Map<Integer, Field> byNumber) {}

  private static Schema schema(Class<?> type) {
    Schema cached = SCHEMAS.get(type);
    if (cached == null) {
      cached = build(type);
      SCHEMAS.putIfAbsent(type, cached);
    }
    return cached;
  }

  private static Schema build(Class<?> type) {
    Map<Integer, Field> byNumber = new TreeMap<>();
    for (Property property : WireProperties.standard().properties(type)) {
      ProtoField field = property.annotation(ProtoField.class);
      if (field == null) {
        continue;
      }
      if (field.value() < 1) {
        throw new IllegalStateException(
            type.getName() + "." + property.name() + ": protobuf field numbers start at 1");
      }
      Field previous =
          byNumber.put(
              field.value(), new Field(field.value(), property, field.optional(), field.rawJson()));
      if (previous != null) {
        throw new IllegalStateException(
            type.getName()
                + ": protobuf field "
                + field.value()
                + " is declared by both "
                + previous.property().name()
                + " and "
                + property.name());
      }
    }
    if (byNumber.isEmpty()) {
      throw new IllegalStateException(
          type.getName() + " declares no @ProtoField: it has no protobuf message");
    }
    List<Field> fields = new ArrayList<>(byNumber.values());
    return new Schema(type, List.copyOf(fields), Map.copyOf(byNumber));
  }

  /** Whether a class declares a protobuf message (at least one field number, none twice). */
  static boolean declares(Class<?> type) {
    try {
      schema(type);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  // ---- writing

  byte[] write(Object object) {
    ProtoWriter writer = new ProtoWriter();
    writeFields(writer, object, 0);
    return writer.toByteArray();
  }

  private void writeFields(ProtoWriter writer, Object object, int depth) {
    if (depth > maxDepth) {
      throw new EncodeException("protobuf messages are nested deeper than " + maxDepth, null);
    }
    for (Field field : schema(object.getClass()).fields()) {
      Object value;
      try {
        value = field.property().get(object);
      } catch (InvocationTargetException e) {
        throw new EncodeException("reading " + field.property().name() + " failed", e.getCause());
      }
      if (value == null && field.optional()) {
        continue;
      }
      writeValue(writer, field.number(), field.property().type(), value, field.rawJson(), depth);
    }
  }

  private void writeValue(
      ProtoWriter writer, int number, Type type, Object value, boolean rawJson, int depth) {
    Class<?> raw = raw(type);
    if (rawJson) {
      byte[] json;
      try {
        json = value == null ? new byte[0] : JSON.writeValueAsBytes(value);
      } catch (JsonProcessingException e) {
        throw new EncodeException("field " + number + " is not JSON", e);
      }
      int message = writer.beginMessage(number);
      writer.bytesField(1, json);
      writer.endMessage(message);
    } else if (Collection.class.isAssignableFrom(raw)) {
      if (value != null) {
        for (Object element : (Collection<?>) value) {
          writeValue(writer, number, argument(type, 0), element, false, depth);
        }
      }
    } else if (Map.class.isAssignableFrom(raw)) {
      if (value != null) {
        for (Map.Entry<?, ?> entry : new TreeMap<>((Map<?, ?>) value).entrySet()) {
          int pair = writer.beginMessage(number);
          writeValue(writer, 1, argument(type, 0), entry.getKey(), false, depth);
          writeValue(writer, 2, argument(type, 1), entry.getValue(), false, depth);
          writer.endMessage(pair);
        }
      }
    } else if (raw == String.class) {
      writer.stringField(number, value == null ? "" : (String) value);
    } else if (raw == byte[].class) {
      writer.bytesField(number, value == null ? new byte[0] : (byte[]) value);
    } else if (raw == long.class
        || raw == Long.class
        || raw == int.class
        || raw == Integer.class
        || raw == short.class
        || raw == Short.class) {
      writer.varintField(number, value == null ? 0 : ((Number) value).longValue());
    } else if (raw == boolean.class || raw == Boolean.class) {
      writer.varintField(number, Boolean.TRUE.equals(value) ? 1 : 0);
    } else if (raw == Instant.class || raw == Time.class || raw == MicroTime.class) {
      Instant instant =
          value == null
              ? null
              : raw == Time.class
                  ? ((Time) value).instant()
                  : raw == MicroTime.class ? ((MicroTime) value).instant() : (Instant) value;
      int timestamp = writer.beginMessage(number);
      if (instant != null) {
        writer.varintField(1, instant.getEpochSecond());
        writer.varintField(2, instant.getNano());
      }
      writer.endMessage(timestamp);
    } else if (raw == Quantity.class) {
      int quantity = writer.beginMessage(number);
      writer.stringField(1, value == null ? "" : value.toString());
      writer.endMessage(quantity);
    } else if (raw == IntOrString.class) {
      IntOrString intOrString = value == null ? IntOrString.ofInt(0) : (IntOrString) value;
      int message = writer.beginMessage(number);
      writer.varintField(1, intOrString.isInt() ? 0 : 1);
      writer.varintField(2, intOrString.isInt() ? intOrString.intValue() : 0);
      writer.stringField(3, intOrString.isInt() ? "" : intOrString.stringValue());
      writer.endMessage(message);
    } else {
      int message = writer.beginMessage(number);
      if (value != null) {
        writeFields(writer, value, depth + 1);
      }
      writer.endMessage(message);
    }
  }

  // ---- reading

  <T> T read(ProtoReader reader, Class<T> type, int depth, String where) {
    if (depth > maxDepth) {
      throw new DecodeException(where + ": messages are nested deeper than " + maxDepth, "");
    }
    Schema schema = schema(type);
    Map<Field, Object> values = new HashMap<>();
    while (reader.hasMore()) {
      long tag = reader.varint(where);
      int number = (int) (tag >>> 3);
      int wireType = (int) (tag & 7);
      Field field = schema.byNumber().get(number);
      if (field == null) {
        reader.skip(wireType, where + " field " + number);
        continue;
      }
      String at = where + "." + field.property().name();
      Type fieldType = field.property().type();
      Class<?> raw = raw(fieldType);
      if (field.rawJson()) {
        values.put(field, readRawJson(reader, at));
      } else if (Collection.class.isAssignableFrom(raw)) {
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) values.computeIfAbsent(field, f -> new ArrayList<>());
        list.add(readValue(reader, wireType, argument(fieldType, 0), depth, at));
      } else if (Map.class.isAssignableFrom(raw)) {
        @SuppressWarnings("unchecked")
        Map<Object, Object> map =
            (Map<Object, Object>) values.computeIfAbsent(field, f -> new LinkedHashMap<>());
        ProtoReader pair = reader.message(at);
        Object key = null;
        Object value = null;
        while (pair.hasMore()) {
          long pairTag = pair.varint(at);
          int pairNumber = (int) (pairTag >>> 3);
          if (pairNumber == 1) {
            key = readValue(pair, (int) (pairTag & 7), argument(fieldType, 0), depth, at);
          } else if (pairNumber == 2) {
            value = readValue(pair, (int) (pairTag & 7), argument(fieldType, 1), depth, at);
          } else {
            pair.skip((int) (pairTag & 7), at);
          }
        }
        map.put(key == null ? "" : key, value);
      } else {
        values.put(field, readValue(reader, wireType, fieldType, depth, at));
      }
    }
    return build(type, schema, values, where);
  }

  private Object readValue(ProtoReader reader, int wireType, Type type, int depth, String where) {
    Class<?> raw = raw(type);
    if (raw == String.class) {
      expect(wireType, 2, where);
      return reader.string(where);
    }
    if (raw == byte[].class) {
      expect(wireType, 2, where);
      return reader.bytes(where);
    }
    if (raw == long.class || raw == Long.class) {
      expect(wireType, 0, where);
      return reader.varint(where);
    }
    if (raw == int.class || raw == Integer.class) {
      expect(wireType, 0, where);
      return (int) reader.varint(where);
    }
    if (raw == short.class || raw == Short.class) {
      expect(wireType, 0, where);
      return (short) reader.varint(where);
    }
    if (raw == boolean.class || raw == Boolean.class) {
      expect(wireType, 0, where);
      return reader.varint(where) != 0;
    }
    expect(wireType, 2, where);
    ProtoReader message = reader.message(where);
    if (raw == Instant.class || raw == Time.class || raw == MicroTime.class) {
      long seconds = 0;
      long nanos = 0;
      boolean set = false;
      while (message.hasMore()) {
        long tag = message.varint(where);
        if ((tag >>> 3) == 1) {
          seconds = message.varint(where);
          set = true;
        } else if ((tag >>> 3) == 2) {
          nanos = message.varint(where);
          set = true;
        } else {
          message.skip((int) (tag & 7), where);
        }
      }
      if (!set) {
        return null;
      }
      Instant instant = Instant.ofEpochSecond(seconds, nanos);
      return raw == Time.class
          ? new Time(instant)
          : raw == MicroTime.class ? new MicroTime(instant) : instant;
    }
    if (raw == Quantity.class) {
      String text = "";
      while (message.hasMore()) {
        long tag = message.varint(where);
        if ((tag >>> 3) == 1) {
          text = message.string(where);
        } else {
          message.skip((int) (tag & 7), where);
        }
      }
      try {
        return Quantity.parse(text);
      } catch (RuntimeException e) {
        throw new DecodeException(where + ": " + e.getMessage(), "");
      }
    }
    if (raw == IntOrString.class) {
      long kind = 0;
      long intValue = 0;
      String text = "";
      while (message.hasMore()) {
        long tag = message.varint(where);
        switch ((int) (tag >>> 3)) {
          case 1 -> kind = message.varint(where);
          case 2 -> intValue = message.varint(where);
          case 3 -> text = message.string(where);
          default -> message.skip((int) (tag & 7), where);
        }
      }
      return kind == 1 ? IntOrString.ofString(text) : IntOrString.ofInt((int) intValue);
    }
    return read(message, raw, depth + 1, where);
  }

  private static Object readRawJson(ProtoReader reader, String where) {
    ProtoReader message = reader.message(where);
    byte[] raw = new byte[0];
    while (message.hasMore()) {
      long tag = message.varint(where);
      if ((tag >>> 3) == 1) {
        raw = message.bytes(where);
      } else {
        message.skip((int) (tag & 7), where);
      }
    }
    if (raw.length == 0) {
      return null;
    }
    try {
      return JSON.readValue(raw, Object.class);
    } catch (IOException e) {
      throw new DecodeException(where + ": the raw JSON does not parse: " + e.getMessage(), "");
    }
  }

  private static void expect(int wireType, int expected, String where) {
    if (wireType != expected) {
      throw new DecodeException(
          where + ": wire type " + wireType + " where " + expected + " was expected", "");
    }
  }

  private static <T> T build(
      Class<T> type, Schema schema, Map<Field, Object> values, String where) {
    try {
      if (type.isRecord()) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] args = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
          types[i] = components[i].getType();
          args[i] = defaultValue(types[i]);
        }
        for (Map.Entry<Field, Object> value : values.entrySet()) {
          args[value.getKey().property().index()] = value.getValue();
        }
        Constructor<T> constructor = type.getDeclaredConstructor(types);
        constructor.trySetAccessible();
        return constructor.newInstance(args);
      }
      Constructor<T> constructor = type.getConstructor();
      T object = constructor.newInstance();
      for (Map.Entry<Field, Object> value : values.entrySet()) {
        if (value.getValue() != null || !value.getKey().property().rawType().isPrimitive()) {
          value.getKey().property().set(object, value.getValue());
        }
      }
      return object;
    } catch (InvocationTargetException e) {
      throw new DecodeException(where + ": " + e.getCause().getMessage(), "");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + type.getName(), e);
    }
  }

  private static Object defaultValue(Class<?> type) {
    if (type == long.class) {
      return 0L;
    } else if (type == int.class) {
      return 0;
    } else if (type == boolean.class) {
      return false;
    } else if (type == short.class) {
      return (short) 0;
    }
    return null;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized) {
      return raw(parameterized.getRawType());
    }
    return Object.class;
  }

  private static Type argument(Type type, int index) {
    return type instanceof ParameterizedType parameterized
        ? parameterized.getActualTypeArguments()[index]
        : Object.class;
  }
}
