package dev.machinery.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Compares objects field by field, as Kubernetes' semantic equality does, and lists every
 * difference with its path and both values. By default a {@code null} string, list, set or map
 * equals an empty one (on the wire, Kubernetes writes neither); {@link Builder#strictEmpties()}
 * tells them apart. Per-type overrides decide equality for a type outright (two quantities that
 * mean the same). Records and beans are compared by property; other classes with {@code equals}.
 *
 * <p>Immutable after {@link Builder#build()} and safe to share between threads.
 */
public final class SemanticEquality {
  private static final int MAX_DIFFERENCES = 50;

  private final boolean nullEqualsEmpty;
  private final Map<Class<?>, BiPredicate<Object, Object>> overrides;
  private final boolean skipNotConverted;

  private SemanticEquality(Builder builder) {
    this(builder.nullEqualsEmpty, Map.copyOf(builder.overrides), false);
  }

  private SemanticEquality(
      boolean nullEqualsEmpty,
      Map<Class<?>, BiPredicate<Object, Object>> overrides,
      boolean skipNotConverted) {
    this.nullEqualsEmpty = nullEqualsEmpty;
    this.overrides = overrides;
    this.skipNotConverted = skipNotConverted;
  }

  /**
   * Returns an equality like this one that does not compare properties marked {@code NotConverted}:
   * they are lost in conversion by design, so a conversion route must not count them as losses.
   *
   * @return the equality
   */
  public SemanticEquality ignoringNotConverted() {
    return new SemanticEquality(nullEqualsEmpty, overrides, true);
  }

  /**
   * Returns a builder with the defaults: null equals empty, and quantities compare by amount
   * ({@code 1000m} equals {@code 1}, as in Kubernetes' semantic equality).
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the default equality.
   *
   * @return the equality
   */
  public static SemanticEquality defaults() {
    return builder().build();
  }

  /**
   * Returns whether two objects are semantically equal.
   *
   * @param expected the first object
   * @param actual the second object
   * @return true if they are
   */
  public boolean equal(Object expected, Object actual) {
    return diff(expected, actual).isEmpty();
  }

  /**
   * Returns every difference between two objects (at most 50), most shallow first.
   *
   * @param expected the first object
   * @param actual the second object
   * @return the differences; empty when the objects are equal
   */
  public List<Difference> diff(Object expected, Object actual) {
    List<Difference> found = new ArrayList<>();
    compare(Path.ROOT, expected, actual, found);
    return found;
  }

  /**
   * Formats differences one a line, for a failure message.
   *
   * @param differences the differences
   * @return the text
   */
  public static String describe(List<Difference> differences) {
    StringBuilder text = new StringBuilder();
    for (Difference difference : differences) {
      text.append("\n  ").append(difference);
    }
    return text.toString();
  }

  private void compare(Path path, Object a, Object b, List<Difference> found) {
    if (found.size() >= MAX_DIFFERENCES || a == b) {
      return;
    }
    if (a == null || b == null) {
      Object present = a == null ? b : a;
      if (!(nullEqualsEmpty && isEmpty(present))) {
        found.add(new Difference(path.toString(), a, b));
      }
      return;
    }
    BiPredicate<Object, Object> override = overrides.get(a.getClass());
    if (override != null && a.getClass() == b.getClass()) {
      if (!override.test(a, b)) {
        found.add(new Difference(path.toString(), a, b));
      }
      return;
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> left = (Map<?, ?>) a;
      Map<?, ?> right = (Map<?, ?>) b;
      // Keys in the left map's order, then those only the right map has, in its order.
      for (Map.Entry<?, ?> entry : left.entrySet()) {
        compare(path.key(entry.getKey()), entry.getValue(), right.get(entry.getKey()), found);
      }
      for (Map.Entry<?, ?> entry : right.entrySet()) {
        if (!left.containsKey(entry.getKey())) {
          compare(path.key(entry.getKey()), null, entry.getValue(), found);
        }
      }
      return;
    }
    if (a instanceof List && b instanceof List || a instanceof Set && b instanceof Set) {
      Collection<?> left = (Collection<?>) a;
      Collection<?> right = (Collection<?>) b;
      if (a instanceof Set && left.size() == right.size() && left.containsAll(right)) {
        return;
      }
      Iterator<?> l = left.iterator();
      Iterator<?> r = right.iterator();
      int index = 0;
      while (l.hasNext() && r.hasNext()) {
        compare(path.index(index++), l.next(), r.next(), found);
      }
      while (l.hasNext()) {
        found.add(new Difference(path.index(index++).toString(), l.next(), null));
      }
      while (r.hasNext()) {
        found.add(new Difference(path.index(index++).toString(), null, r.next()));
      }
      return;
    }
    if (a instanceof byte[] && b instanceof byte[]) {
      if (!Arrays.equals((byte[]) a, (byte[]) b)) {
        found.add(new Difference(path.toString(), a, b));
      }
      return;
    }
    if (a.getClass() != b.getClass()) {
      if (!(a instanceof Number && b instanceof Number && a.toString().equals(b.toString()))) {
        found.add(new Difference(path.toString(), a, b));
      }
      return;
    }
    Beans.Shape shape = Beans.isValue(a.getClass()) ? null : Beans.shape(a.getClass());
    if (shape == null) {
      if (!Objects.equals(a, b)) {
        found.add(new Difference(path.toString(), a, b));
      }
      return;
    }
    for (Beans.Property property : shape.properties) {
      if (skipNotConverted && Beans.isNotConverted(property)) {
        continue;
      }
      Object left = property.read(a);
      Object right = property.read(b);
      if (!equalLeaves(left, right)) {
        compare(path.field(property.name()), left, right, found);
      }
    }
  }

  /**
   * Whether two property values are the same, or equal values of one leaf class with no rule of its
   * own: what {@link #compare} would find equal, told without building a path for them.
   */
  private boolean equalLeaves(Object left, Object right) {
    if (left == right) {
      return true;
    }
    if (left == null || right == null || left.getClass() != right.getClass()) {
      return false;
    }
    Class<?> type = left.getClass();
    return Beans.isValue(type) && !overrides.containsKey(type) && left.equals(right);
  }

  /**
   * Where a comparison stands, built as a chain and written out only for a difference: comparing
   * equal objects allocates no path strings.
   */
  private static final class Path {
    static final Path ROOT = new Path(null, null, -1);

    private final Path parent;
    private final Object name;
    private final int index;

    private Path(Path parent, Object name, int index) {
      this.parent = parent;
      this.name = name;
      this.index = index;
    }

    Path field(String field) {
      return new Path(this, field, -1);
    }

    Path key(Object key) {
      return new Path(this, key, -2);
    }

    Path index(int i) {
      return new Path(this, null, i);
    }

    @Override
    public String toString() {
      if (parent == null) {
        return "";
      }
      String before = parent.toString();
      if (index >= 0) {
        return before + "[" + index + "]";
      }
      if (index == -2) {
        return before + "[" + name + "]";
      }
      return before.isEmpty() ? String.valueOf(name) : before + "." + name;
    }
  }

  private static boolean isEmpty(Object value) {
    return value instanceof String && ((String) value).isEmpty()
        || value instanceof Collection && ((Collection<?>) value).isEmpty()
        || value instanceof Map && ((Map<?, ?>) value).isEmpty();
  }

  /** Collects the settings of a {@link SemanticEquality}. Not thread-safe. */
  public static final class Builder {
    private boolean nullEqualsEmpty = true;
    private final Map<Class<?>, BiPredicate<Object, Object>> overrides = new LinkedHashMap<>();

    private Builder() {
      ValueTypes.addEqualities(overrides);
    }

    /**
     * Tells a {@code null} string, collection or map apart from an empty one.
     *
     * @return this builder
     */
    public Builder strictEmpties() {
      this.nullEqualsEmpty = false;
      return this;
    }

    /**
     * Decides equality for every pair of values of a type.
     *
     * @param type the type
     * @param equal whether two values mean the same
     * @param <T> the type
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <T> Builder override(Class<T> type, BiPredicate<? super T, ? super T> equal) {
      overrides.put(
          Objects.requireNonNull(type, "type"),
          (BiPredicate<Object, Object>) Objects.requireNonNull(equal, "equal"));
      return this;
    }

    /**
     * Builds the immutable equality.
     *
     * @return the equality
     */
    public SemanticEquality build() {
      return new SemanticEquality(this);
    }
  }
}
