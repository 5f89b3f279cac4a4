package dev.machinery.core.typed;

/**
 * A type: a scalar, a list, a map (or struct), or several of them at once for values whose shape is
 * only known once seen (an untyped value is a scalar, a list and a map; the value decides which
 * applies). At least one part is set for a usable type; a type with none is an error when a value
 * is checked against it, as in structured-merge-diff.
 *
 * @param scalar the scalar kind, or null
 * @param list the list type, or null
 * @param map the map or struct type, or null
 */
public record Atom(ScalarType scalar, ListAtom list, MapAtom map) {
  /**
   * Returns a scalar type.
   *
   * @param kind the kind of scalar
   * @return the type
   */
  public static Atom scalar(ScalarType kind) {
    return new Atom(kind, null, null);
  }

  /**
   * Returns a list type.
   *
   * @param list the list
   * @return the type
   */
  public static Atom list(ListAtom list) {
    return new Atom(null, list, null);
  }

  /**
   * Returns a map or struct type.
   *
   * @param map the map
   * @return the type
   */
  public static Atom map(MapAtom map) {
    return new Atom(null, null, map);
  }

  /**
   * Tells whether no part is set.
   *
   * @return true when the type has no scalar, list or map part
   */
  public boolean isEmpty() {
    return scalar == null && list == null && map == null;
  }

  // Written out rather than left to the record: its generated equals and hashCode are bootstrapped
  // by invokedynamic on first use, which costs a fresh JVM's first write milliseconds (server-side
  // apply compares types while it merges field sets).
  @Override
  public boolean equals(Object o) {
    return this == o
        || o instanceof Atom other
            && scalar == other.scalar
            && java.util.Objects.equals(list, other.list)
            && java.util.Objects.equals(map, other.map);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(scalar, list, map);
  }
}
