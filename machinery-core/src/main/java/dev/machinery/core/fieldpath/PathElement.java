package dev.machinery.core.fieldpath;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a {@link FieldPath}: a field of a map or struct ({@link Field}), the element of an
 * associative list with the given key fields ({@link Key}), the element of a set-like list with the
 * given value ({@link Value}), or the element of an atomic list at an index ({@link Index}).
 *
 * <p>Elements are ordered as structured-merge-diff orders them: all fields before all keys before
 * all values before all indexes; fields by name, keys field by field (name, then value, a shorter
 * key first), values by {@code value.Compare} (numbers, strings, booleans, lists, maps, null),
 * indexes by number. Strings compare by code point. Equality agrees with the order, so the integer
 * {@code 1} and the double {@code 1.0} are the same value. {@code toString()} prints the element as
 * Go's {@code PathElement.String()} does: {@code .name}, {@code [name="nginx"]}, {@code [="a"]},
 * {@code [0]}.
 *
 * <p>Elements are immutable and safe to share between threads; JSON values are copied in and out.
 */
public sealed interface PathElement extends Comparable<PathElement>
    permits PathElement.Field, PathElement.Key, PathElement.Value, PathElement.Index {

  /**
   * Returns the element of a field.
   *
   * @param name the field name (any string, even empty)
   * @return the element
   */
  static PathElement field(String name) {
    return new Field(name);
  }

  /**
   * Returns the element of an associative list's element with these key fields, given as
   * alternating names and values, like {@code key("name", "nginx")} or {@code key("containerPort",
   * 80, "protocol", "TCP")}. Values may be {@code null}, strings, booleans, integers,
   * floating-point numbers or {@link JsonNode}s. The fields are sorted by name.
   *
   * @param namesAndValues alternating field names and values
   * @return the element
   * @throws IllegalArgumentException if a name has no value, a name is not a string, or a value is
   *     of an unsupported type
   */
  static PathElement key(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("every key field name needs a value");
    }
    List<KeyField> fields = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (!(namesAndValues[i] instanceof String name)) {
        throw new IllegalArgumentException(
            "key field name " + i / 2 + " is not a string: " + namesAndValues[i]);
      }
      fields.add(new KeyField(name, Values.of(namesAndValues[i + 1])));
    }
    return new Key(fields);
  }

  /**
   * Returns the element of an associative list's element with these key fields.
   *
   * @param fields the key fields by name, in any order
   * @return the element
   */
  static PathElement key(Map<String, JsonNode> fields) {
    List<KeyField> list = new ArrayList<>();
    fields.forEach((name, value) -> list.add(new KeyField(name, value)));
    return new Key(list);
  }

  /**
   * Returns the element of a set-like list's element with this value.
   *
   * @param value {@code null}, a string, a boolean, an integer, a floating-point number or a {@link
   *     JsonNode}
   * @return the element
   * @throws IllegalArgumentException if the value is of an unsupported type or not finite
   */
  static PathElement value(Object value) {
    return new Value(Values.of(value));
  }

  /**
   * Returns the element of an atomic list's element at an index.
   *
   * @param index the index
   * @return the element
   */
  static PathElement index(long index) {
    return new Index(index);
  }

  /**
   * Reads one element in its {@code FieldsV1} form: {@code f:name}, {@code k:{"name":"nginx"}},
   * {@code v:"value"}, {@code i:0}. The JSON of keys and values may have whitespace around it;
   * numbers in it read as doubles, as Go reads them.
   *
   * @param text the serialized element
   * @return the element
   * @throws FieldPathException if the text is not an element of a known kind
   */
  static PathElement parse(String text) {
    return PathElementText.parse(text, FieldsV1Limits.DEFAULTS, -1, true, "");
  }

  /**
   * Returns the element in its {@code FieldsV1} form, byte for byte as kube-apiserver writes it.
   *
   * @return the serialized element
   */
  default String serialize() {
    return PathElementText.serialize(this);
  }

  /**
   * Compares in structured-merge-diff's order (see the type's description).
   *
   * @param other the element to compare with
   * @return negative, zero or positive as this element is before, the same as, or after the other
   */
  @Override
  default int compareTo(PathElement other) {
    int kinds = Integer.compare(rank(this), rank(other));
    if (kinds != 0) {
      return kinds;
    }
    if (this instanceof Field f) {
      return Values.compareStrings(f.name(), ((Field) other).name());
    }
    if (this instanceof Key k) {
      return Key.compareFields(k.fields, ((Key) other).fields);
    }
    if (this instanceof Value v) {
      return Values.compare(v.value, ((Value) other).value);
    }
    return Long.compare(((Index) this).index(), ((Index) other).index());
  }

  private static int rank(PathElement e) {
    if (e instanceof Field) {
      return 0;
    }
    if (e instanceof Key) {
      return 1;
    }
    return e instanceof Value ? 2 : 3;
  }

  /**
   * A field of a map or struct; prints as {@code .name}.
   *
   * @param name the field name
   */
  record Field(String name) implements PathElement {
    /**
     * Checks the name.
     *
     * @param name the field name
     */
    public Field {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public String toString() {
      return "." + name;
    }
  }

  /**
   * The field of an associative list's key: a name and a JSON value.
   *
   * @param name the field name
   * @param value the value (copied in and out)
   */
  record KeyField(String name, JsonNode value) {
    /**
     * Checks and copies.
     *
     * @param name the field name
     * @param value the value
     */
    public KeyField {
      Objects.requireNonNull(name, "name");
      value = Values.normalize(Objects.requireNonNull(value, "value"));
    }

    /**
     * Returns the value.
     *
     * @return a copy of the value
     */
    @Override
    public JsonNode value() {
      return Values.exposed(value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof KeyField other
          && name.equals(other.name)
          && Values.compare(value, other.value) == 0;
    }

    @Override
    public int hashCode() {
      return 31 * name.hashCode() + Values.hash(value);
    }

    @Override
    public String toString() {
      return name + "=" + Values.toDisplay(value);
    }
  }

  /**
   * The element of an associative list with these key fields, sorted by name (fields of the same
   * name keep their order); prints as {@code [name="nginx",port=80]}.
   *
   * @param fields the key fields
   */
  record Key(List<KeyField> fields) implements PathElement {
    private static final Comparator<KeyField> BY_NAME =
        (a, b) -> Values.compareStrings(a.name(), b.name());

    /**
     * Sorts and copies the fields.
     *
     * @param fields the key fields
     */
    public Key {
      List<KeyField> sorted = new ArrayList<>(fields);
      sorted.sort(BY_NAME);
      fields = List.copyOf(sorted);
    }

    static int compareFields(List<KeyField> l, List<KeyField> r) {
      int n = Math.min(l.size(), r.size());
      for (int i = 0; i < n; i++) {
        int c = Values.compareStrings(l.get(i).name(), r.get(i).name());
        if (c == 0) {
          c = Values.compare(l.get(i).value, r.get(i).value);
        }
        if (c != 0) {
          return c;
        }
      }
      return Integer.compare(l.size(), r.size());
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("[");
      for (int i = 0; i < fields.size(); i++) {
        b.append(i > 0 ? "," : "").append(fields.get(i));
      }
      return b.append(']').toString();
    }
  }

  /**
   * The element of a set-like list with this value; prints as {@code [="value"]}.
   *
   * @param value the value (copied in and out)
   */
  record Value(JsonNode value) implements PathElement {
    /**
     * Checks and copies the value.
     *
     * @param value the value
     */
    public Value {
      value = Values.normalize(Objects.requireNonNull(value, "value"));
    }

    /**
     * Returns the value.
     *
     * @return a copy of the value
     */
    @Override
    public JsonNode value() {
      return Values.exposed(value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Value other && Values.compare(value, other.value) == 0;
    }

    @Override
    public int hashCode() {
      return Values.hash(value);
    }

    @Override
    public String toString() {
      return "[=" + Values.toDisplay(value) + "]";
    }
  }

  /**
   * The element of an atomic list at an index; prints as {@code [0]}.
   *
   * @param index the index
   */
  record Index(long index) implements PathElement {
    @Override
    public String toString() {
      return "[" + index + "]";
    }
  }
}
