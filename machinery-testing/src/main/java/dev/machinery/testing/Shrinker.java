package dev.machinery.testing;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Makes a failing object smaller while it still fails: drops list elements and map entries, sets
 * optional properties to {@code null}, shortens strings, zeroes numbers; greedily, within an
 * attempt budget. It makes only objects its fuzzer could have made: values that come from a fuzz
 * function (of their type or property) are kept as they are, and collections never gain a {@code
 * null} element the fuzzer would not put there. Stateless.
 */
final class Shrinker {
  private static final int BUDGET = 3000;

  private Shrinker() {}

  /** Returns the smallest object found that still fails. */
  static Object shrink(Object failing, Fuzzer fuzzer, Predicate<Object> stillFails) {
    Object current = failing;
    int attempts = 0;
    boolean progress = true;
    while (progress && attempts < BUDGET) {
      progress = false;
      for (Object candidate : candidates(current, current.getClass(), fuzzer)) {
        if (++attempts > BUDGET) {
          break;
        }
        boolean fails;
        try {
          fails = stillFails.test(candidate);
        } catch (RuntimeException e) {
          fails = false;
        }
        if (fails) {
          current = candidate;
          progress = true;
          break;
        }
      }
    }
    return current;
  }

  /** Simpler variants of a value, most drastic first. */
  @SuppressWarnings("unchecked")
  static List<Object> candidates(Object value, Type type, Fuzzer fuzzer) {
    List<Object> out = new ArrayList<>();
    if (value == null || fuzzer.hasFunction(Fuzzer.raw(type))) {
      return out;
    }
    if (value instanceof String) {
      String text = (String) value;
      if (!text.isEmpty()) {
        out.add("");
        if (text.length() > 1) {
          out.add(
              text.substring(
                  0, text.offsetByCodePoints(0, text.codePointCount(0, text.length()) / 2)));
        }
      }
      return out;
    }
    if (value instanceof Number) {
      // An untyped double shrinks to 0.5: JSON holds a whole one as an integer.
      Object zero = value instanceof Double && Fuzzer.raw(type) == Object.class ? 0.5 : zero(value);
      if (zero != null && !zero.equals(value)) {
        out.add(zero);
      }
      return out;
    }
    if (value instanceof Boolean) {
      if ((Boolean) value) {
        out.add(false);
      }
      return out;
    }
    if (value instanceof List) {
      List<Object> list = (List<Object>) value;
      if (!list.isEmpty()) {
        out.add(new ArrayList<>());
      }
      for (int i = 0; i < list.size(); i++) {
        List<Object> fewer = new ArrayList<>(list);
        fewer.remove(i);
        out.add(fewer);
      }
      for (int i = 0; i < list.size(); i++) {
        for (Object smaller : candidates(list.get(i), Fuzzer.argument(type, 0), fuzzer)) {
          List<Object> copy = new ArrayList<>(list);
          copy.set(i, smaller);
          out.add(copy);
        }
      }
      return out;
    }
    if (value instanceof Set) {
      Set<Object> set = (Set<Object>) value;
      if (!set.isEmpty()) {
        out.add(new LinkedHashSet<>());
      }
      for (Object item : set) {
        Set<Object> fewer = new LinkedHashSet<>(set);
        fewer.remove(item);
        out.add(fewer);
      }
      return out;
    }
    if (value instanceof Map) {
      Map<Object, Object> map = (Map<Object, Object>) value;
      if (!map.isEmpty()) {
        out.add(new LinkedHashMap<>());
      }
      for (Object key : map.keySet()) {
        Map<Object, Object> fewer = new LinkedHashMap<>(map);
        fewer.remove(key);
        out.add(fewer);
      }
      for (Map.Entry<Object, Object> entry : map.entrySet()) {
        for (Object smaller : candidates(entry.getValue(), Fuzzer.argument(type, 1), fuzzer)) {
          Map<Object, Object> copy = new LinkedHashMap<>(map);
          copy.put(entry.getKey(), smaller);
          out.add(copy);
        }
      }
      return out;
    }
    Beans.Shape shape = Beans.isValue(value.getClass()) ? null : Beans.shape(value.getClass());
    if (shape == null) {
      return out;
    }
    Object[] values = shape.values(value);
    for (int i = 0; i < values.length; i++) {
      Beans.Property property = shape.properties.get(i);
      if (values[i] != null
          && !Fuzzer.raw(property.type()).isPrimitive()
          && !fuzzer.hasFunction(value.getClass(), property.name())
          && !fuzzer.hasFunction(Fuzzer.raw(property.type()))
          && !property.name().equals("apiVersion")
          && !property.name().equals("kind")) {
        Object[] copy = values.clone();
        copy[i] = null;
        out.add(shape.build(copy));
      }
    }
    for (int i = 0; i < values.length; i++) {
      Beans.Property property = shape.properties.get(i);
      if (property.name().equals("apiVersion")
          || property.name().equals("kind")
          || fuzzer.hasFunction(value.getClass(), property.name())) {
        continue;
      }
      for (Object smaller : candidates(values[i], property.type(), fuzzer)) {
        Object[] copy = values.clone();
        copy[i] = adapt(smaller, Fuzzer.raw(property.type()));
        out.add(shape.build(copy));
      }
    }
    return out;
  }

  private static Object zero(Object number) {
    if (number instanceof Integer) {
      return 0;
    } else if (number instanceof Long) {
      return 0L;
    } else if (number instanceof Double) {
      return 0.0;
    } else if (number instanceof Float) {
      return 0.0f;
    } else if (number instanceof Short) {
      return (short) 0;
    } else if (number instanceof Byte) {
      return (byte) 0;
    }
    return null;
  }

  /** A shrunk collection keeps the kind of collection its property declares. */
  private static Object adapt(Object value, Class<?> declared) {
    if (value instanceof List && Set.class.isAssignableFrom(declared)) {
      return new LinkedHashSet<>((List<?>) value);
    }
    return value;
  }
}
