package dev.machinery.testing;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.TypeAccessor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * Fills objects of any record or bean class with random values from a seed, reproducibly, with no
 * annotation or registration on the classes: every property, nested types, lists, sets and maps of
 * bounded size, enums, strings of bounded length (non-ASCII, quotes and line breaks included),
 * numbers across their whole range. Nullable properties are {@code null} with a set chance
 * (collection elements never, unless {@link Builder#nullElements} allows it); recursion stops at a
 * depth bound (deeper nullable values are {@code null}, deeper collections empty). Times are whole
 * seconds, as Kubernetes writes them. An untyped value ({@code Object}: a map, list, string, number
 * or boolean) that is a double has a fraction or is 1e21 or more, since JSON holds a whole one as
 * an integer (Go writes a float64 {@code 2.0} as {@code 2}, which reads back as an integer). The
 * {@code apiVersion} and {@code kind} of an {@link ApiObject} are left for the caller to set.
 *
 * <p>Per-type and per-property {@link FuzzFunction}s replace the rules where a type has a canonical
 * form or a property a default that would overwrite it. Immutable after {@link Builder#build()} and
 * safe to share; each call draws only from the {@code Random} it is given.
 *
 * <pre>{@code
 * Fuzzer fuzzer = Fuzzer.builder().nullChance(0.2).build();
 * Deployment deployment = fuzzer.fuzz(Deployment.class, 42L);
 * }</pre>
 */
public final class Fuzzer {
  private static final String ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._/:=\"\\' \n\tüé名字ßΩ😀";
  private static final int[] CODE_POINTS = ALPHABET.codePoints().toArray();

  private final double nullChance;
  private final int maxCollectionSize;
  private final int maxStringLength;
  private final int maxDepth;
  private final boolean nullElements;
  private final Map<Class<?>, FuzzFunction<?>> types;

  /** Property functions by declaring class, then property name. */
  private final Map<Class<?>, Map<String, FuzzFunction<?>>> properties;

  private Fuzzer(Builder builder) {
    this.nullChance = builder.nullChance;
    this.maxCollectionSize = builder.maxCollectionSize;
    this.maxStringLength = builder.maxStringLength;
    this.maxDepth = builder.maxDepth;
    this.nullElements = builder.nullElements;
    this.types = Map.copyOf(builder.types);
    Map<Class<?>, Map<String, FuzzFunction<?>>> byClass = new HashMap<>();
    builder.properties.forEach((owner, functions) -> byClass.put(owner, Map.copyOf(functions)));
    this.properties = Map.copyOf(byClass);
  }

  /**
   * Returns a builder with the defaults: null chance 0.2, collections of up to 3 elements, strings
   * of up to 16 code points, depth 8; quantities in all three formats and int-or-strings as
   * integers, percentages and names.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a fuzzer with the defaults.
   *
   * @return the fuzzer
   */
  public static Fuzzer defaults() {
    return builder().build();
  }

  /**
   * Fuzzes an object of a class from a seed.
   *
   * @param type the class
   * @param seed the seed; the same seed gives the same object
   * @param <T> the class
   * @return the object, never {@code null}
   */
  public <T> T fuzz(Class<T> type, long seed) {
    return fuzz(type, new Random(seed));
  }

  /**
   * Fuzzes an object of a class from a random source, for property-testing frameworks that hand one
   * out.
   *
   * @param type the class
   * @param random the random source
   * @param <T> the class
   * @return the object, never {@code null}
   * @throws IllegalArgumentException if the class is neither a value, a collection, a record nor a
   *     bean with a public no-argument constructor
   */
  public <T> T fuzz(Class<T> type, Random random) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(random, "random");
    @SuppressWarnings("unchecked")
    T value = (T) value(type, random, 0, false);
    return value;
  }

  Object byRules(Class<?> type, Random random, int depth) {
    return value(type, random, depth, false, false);
  }

  Object value(Type type, Random random, int depth, boolean nullable) {
    return value(type, random, depth, nullable, true);
  }

  private Object value(Type type, Random random, int depth, boolean nullable, boolean custom) {
    Class<?> raw = raw(type);
    FuzzFunction<?> function = custom ? types.get(raw) : null;
    if (function != null) {
      return function.fuzz(new FuzzContext(this, random, depth));
    }
    if (raw.isPrimitive()) {
      return primitive(raw, random);
    }
    if (nullable && (depth > maxDepth || random.nextDouble() < nullChance)) {
      return null;
    }
    if (raw == String.class) {
      return string(random, true);
    }
    if (raw == Integer.class
        || raw == Long.class
        || raw == Boolean.class
        || raw == Double.class
        || raw == Float.class
        || raw == Short.class
        || raw == Byte.class
        || raw == Character.class) {
      return primitive(unbox(raw), random);
    }
    if (raw.isEnum()) {
      Object[] constants = raw.getEnumConstants();
      return constants[random.nextInt(constants.length)];
    }
    if (raw == BigInteger.class) {
      return new BigInteger(random.nextInt(128) + 1, random).subtract(BigInteger.ONE.shiftLeft(64));
    }
    if (raw == BigDecimal.class) {
      return BigDecimal.valueOf(random.nextLong(), random.nextInt(10));
    }
    if (raw == UUID.class) {
      return new UUID(random.nextLong(), random.nextLong());
    }
    if (raw == Instant.class) {
      return Instant.ofEpochSecond(random.nextInt(Integer.MAX_VALUE));
    }
    if (raw == OffsetDateTime.class) {
      return OffsetDateTime.ofInstant(
          Instant.ofEpochSecond(random.nextInt(Integer.MAX_VALUE)), ZoneOffset.UTC);
    }
    if (raw == LocalDate.class) {
      return LocalDate.ofEpochDay(random.nextInt(100_000));
    }
    if (raw == Duration.class) {
      return Duration.ofSeconds(random.nextInt(1_000_000));
    }
    if (raw == Object.class) {
      return untyped(random, depth);
    }
    if (raw == byte[].class) {
      byte[] bytes = new byte[random.nextInt(maxCollectionSize * 4 + 1)];
      random.nextBytes(bytes);
      return bytes;
    }
    if (Collection.class.isAssignableFrom(raw)) {
      Type element = argument(type, 0);
      Collection<Object> collection =
          Set.class.isAssignableFrom(raw) ? new LinkedHashSet<>() : new ArrayList<>();
      int size = depth > maxDepth ? 0 : random.nextInt(maxCollectionSize + 1);
      for (int i = 0; i < size; i++) {
        collection.add(value(element, random, depth + 1, nullElements));
      }
      return collection;
    }
    if (Map.class.isAssignableFrom(raw)) {
      Type key = argument(type, 0);
      Type element = argument(type, 1);
      Map<Object, Object> map = new LinkedHashMap<>();
      int size = depth > maxDepth ? 0 : random.nextInt(maxCollectionSize + 1);
      for (int i = 0; i < size; i++) {
        map.put(
            value(key, random, depth + 1, false), value(element, random, depth + 1, nullElements));
      }
      return map;
    }
    Beans.Shape shape = Beans.shape(raw);
    if (shape == null) {
      throw new IllegalArgumentException(
          "cannot fuzz "
              + type.getTypeName()
              + ": not a value, collection, record or bean with a public no-argument constructor;"
              + " register a FuzzFunction for it");
    }
    Object[] values = new Object[shape.properties.size()];
    // The type fields of a kind are the caller's to set: the library's own kinds at any depth
    // (list items), a model written elsewhere (fabric8's) at the root.
    boolean apiObject =
        ApiObject.class.isAssignableFrom(raw) || (depth == 0 && TypeAccessor.find(raw).isPresent());
    Map<String, FuzzFunction<?>> ownFunctions = properties.getOrDefault(raw, Map.of());
    for (int i = 0; i < values.length; i++) {
      Beans.Property property = shape.properties.get(i);
      if (apiObject && (property.name().equals("apiVersion") || property.name().equals("kind"))) {
        values[i] = Beans.ABSENT;
        continue;
      }
      FuzzFunction<?> forProperty = ownFunctions.get(property.name());
      values[i] =
          forProperty != null
              ? forProperty.fuzz(new FuzzContext(this, random, depth + 1))
              : value(property.type(), random, depth + 1, true);
    }
    return shape.build(values);
  }

  /** Whether values of a type come from a fuzz function rather than the rules. */
  boolean hasFunction(Class<?> type) {
    return types.containsKey(type);
  }

  /** Whether a property of a class comes from a fuzz function rather than the rules. */
  boolean hasFunction(Class<?> owner, String property) {
    return properties.getOrDefault(owner, Map.of()).containsKey(property);
  }

  String string(Random random, boolean mayBeEmpty) {
    int length = random.nextInt(maxStringLength + 1);
    if (length == 0 && !mayBeEmpty) {
      length = 1;
    }
    StringBuilder text = new StringBuilder(length * 2);
    for (int i = 0; i < length; i++) {
      text.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
    }
    return text.toString();
  }

  private Object untyped(Random random, int depth) {
    switch (depth > maxDepth ? random.nextInt(4) : random.nextInt(6)) {
      case 0:
        return string(random, true);
      case 1:
        return random.nextLong();
      case 2:
        return random.nextBoolean();
      case 3:
        return untypedDouble(random);
      case 4:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = random.nextInt(maxCollectionSize + 1); i > 0; i--) {
            map.put(string(random, true), untyped(random, depth + 1));
          }
          return map;
        }
      default:
        {
          List<Object> list = new ArrayList<>();
          for (int i = random.nextInt(maxCollectionSize + 1); i > 0; i--) {
            list.add(untyped(random, depth + 1));
          }
          return list;
        }
    }
  }

  private static double finiteDouble(Random random) {
    while (true) {
      double value = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(value)) {
        return value;
      }
    }
  }

  /**
   * A double that JSON keeps a double: with a fraction, or too large to be written as an integer.
   */
  private static double untypedDouble(Random random) {
    while (true) {
      double value = finiteDouble(random);
      if (value != Math.rint(value) || Math.abs(value) >= 1e21) {
        return value;
      }
    }
  }

  private static Object primitive(Class<?> type, Random random) {
    if (type == int.class) {
      return random.nextInt();
    } else if (type == long.class) {
      return random.nextLong();
    } else if (type == boolean.class) {
      return random.nextBoolean();
    } else if (type == double.class) {
      return finiteDouble(random);
    } else if (type == float.class) {
      while (true) {
        float value = Float.intBitsToFloat(random.nextInt());
        if (Float.isFinite(value)) {
          return value;
        }
      }
    } else if (type == short.class) {
      return (short) random.nextInt();
    } else if (type == byte.class) {
      return (byte) random.nextInt();
    }
    return (char) ('a' + random.nextInt(26));
  }

  private static Class<?> unbox(Class<?> boxed) {
    if (boxed == Integer.class) {
      return int.class;
    } else if (boxed == Long.class) {
      return long.class;
    } else if (boxed == Boolean.class) {
      return boolean.class;
    } else if (boxed == Double.class) {
      return double.class;
    } else if (boxed == Float.class) {
      return float.class;
    } else if (boxed == Short.class) {
      return short.class;
    } else if (boxed == Byte.class) {
      return byte.class;
    }
    return char.class;
  }

  static Class<?> raw(Type type) {
    if (type instanceof Class<?>) {
      return (Class<?>) type;
    }
    if (type instanceof ParameterizedType) {
      return (Class<?>) ((ParameterizedType) type).getRawType();
    }
    if (type instanceof WildcardType) {
      return raw(((WildcardType) type).getUpperBounds()[0]);
    }
    if (type instanceof GenericArrayType) {
      return Object[].class;
    }
    return Object.class;
  }

  static Type argument(Type type, int index) {
    return type instanceof ParameterizedType
        ? ((ParameterizedType) type).getActualTypeArguments()[index]
        : Object.class;
  }

  /** Collects the settings and custom functions of a {@link Fuzzer}. Not thread-safe. */
  public static final class Builder {
    private double nullChance = 0.2;
    private int maxCollectionSize = 3;
    private int maxStringLength = 16;
    private int maxDepth = 8;
    private boolean nullElements;
    private final Map<Class<?>, FuzzFunction<?>> types = new LinkedHashMap<>();
    private final Map<Class<?>, Map<String, FuzzFunction<?>>> properties = new LinkedHashMap<>();

    private Builder() {
      ValueTypes.addFuzzFunctions(types);
    }

    /**
     * Sets the chance that a nullable property is {@code null}.
     *
     * @param chance between 0 and 1
     * @return this builder
     */
    public Builder nullChance(double chance) {
      if (!(chance >= 0 && chance <= 1)) {
        throw new IllegalArgumentException("nullChance must be within 0..1, got " + chance);
      }
      this.nullChance = chance;
      return this;
    }

    /**
     * Sets the largest size of lists, sets and maps.
     *
     * @param size at least 0
     * @return this builder
     */
    public Builder maxCollectionSize(int size) {
      if (size < 0) {
        throw new IllegalArgumentException("maxCollectionSize must be at least 0, got " + size);
      }
      this.maxCollectionSize = size;
      return this;
    }

    /**
     * Sets the longest string, in code points.
     *
     * @param length at least 1
     * @return this builder
     */
    public Builder maxStringLength(int length) {
      if (length < 1) {
        throw new IllegalArgumentException("maxStringLength must be at least 1, got " + length);
      }
      this.maxStringLength = length;
      return this;
    }

    /**
     * Sets the depth below which nullable values are {@code null} and collections empty, so that
     * recursive types end.
     *
     * @param depth at least 1
     * @return this builder
     */
    public Builder maxDepth(int depth) {
      if (depth < 1) {
        throw new IllegalArgumentException("maxDepth must be at least 1, got " + depth);
      }
      this.maxDepth = depth;
      return this;
    }

    /**
     * Lets list, set and map elements be {@code null} too (with the null chance), for types that
     * mean to hold them. By default elements are never {@code null}, as the elements of Kubernetes'
     * Go types ({@code []string}, {@code map[string]string}) cannot be.
     *
     * @param allowed whether elements may be {@code null}
     * @return this builder
     */
    public Builder nullElements(boolean allowed) {
      this.nullElements = allowed;
      return this;
    }

    /**
     * Replaces the rule for every value of a type.
     *
     * @param type the type
     * @param function makes its values
     * @param <T> the type
     * @return this builder
     */
    public <T> Builder forType(Class<T> type, FuzzFunction<? extends T> function) {
      types.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(function, "function"));
      return this;
    }

    /**
     * Replaces the rule for one property of one class (for example a field with a default, which
     * must be fuzzed non-empty).
     *
     * @param owner the class that declares the property
     * @param property the property name
     * @param function makes its values
     * @return this builder
     */
    public Builder forProperty(Class<?> owner, String property, FuzzFunction<?> function) {
      properties
          .computeIfAbsent(Objects.requireNonNull(owner, "owner"), o -> new LinkedHashMap<>())
          .put(
              Objects.requireNonNull(property, "property"),
              Objects.requireNonNull(function, "function"));
      return this;
    }

    /**
     * Builds the immutable fuzzer.
     *
     * @return the fuzzer
     */
    public Fuzzer build() {
      return new Fuzzer(this);
    }
  }
}
