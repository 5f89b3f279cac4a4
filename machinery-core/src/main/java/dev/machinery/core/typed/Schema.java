package dev.machinery.core.typed;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A set of named types that refer to each other by name (so recursive types work), as
 * structured-merge-diff's {@code schema.Schema}. Every schema holds the two common types of
 * Kubernetes' schemas: {@value #UNTYPED_ATOMIC} (any value, held as a whole) and {@value #DEDUCED}
 * (any value, its shape deduced from the value: maps granular, lists atomic). Build one with {@link
 * #builder()}, from OpenAPI with {@link OpenApiSchemas}, or from Java classes with {@link
 * JavaSchemas}. Immutable and safe to share between threads.
 */
public final class Schema {
  /** The name of the type of any value held as one: scalars, lists and maps, all atomic. */
  public static final String UNTYPED_ATOMIC = "__untyped_atomic_";

  /**
   * The name of the type of any value whose shape is deduced from the value: a scalar, an atomic
   * list, or a granular map of deduced values.
   */
  public static final String DEDUCED = "__untyped_deduced_";

  private static final Atom UNTYPED_ATOMIC_ATOM =
      new Atom(
          ScalarType.UNTYPED,
          ListAtom.atomic(TypeRef.named(UNTYPED_ATOMIC)),
          new MapAtom(
              java.util.List.of(), TypeRef.named(UNTYPED_ATOMIC), ElementRelationship.ATOMIC));
  private static final Atom DEDUCED_ATOM =
      new Atom(
          ScalarType.UNTYPED,
          ListAtom.atomic(TypeRef.named(UNTYPED_ATOMIC)),
          new MapAtom(java.util.List.of(), TypeRef.named(DEDUCED), ElementRelationship.SEPARABLE));

  private final Map<String, Atom> types;

  private Schema(Map<String, Atom> types) {
    this.types = Collections.unmodifiableMap(types);
  }

  /**
   * Returns a builder of a schema.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the names of the types.
   *
   * @return the names, in the order they were added
   */
  public Set<String> typeNames() {
    return types.keySet();
  }

  /**
   * Returns a named type.
   *
   * @param name the type's name
   * @return the type, or null when the schema has none of that name
   */
  public Atom namedType(String name) {
    return types.get(name);
  }

  /**
   * Returns the type of the given name in this schema, to check values and compute field sets.
   *
   * @param name the type's name
   * @return the type
   */
  public SchemaType type(String name) {
    return new SchemaType(this, TypeRef.named(name));
  }

  /**
   * Returns a type given by reference in this schema.
   *
   * @param ref the reference
   * @return the type
   */
  public SchemaType type(TypeRef ref) {
    return new SchemaType(this, ref);
  }

  /**
   * Resolves a reference: the named type, or the inline type, with the relationship override
   * applied. As in structured-merge-diff, an override on a scalar does not resolve.
   *
   * @param ref the reference
   * @return the type, or null when the name is unknown or the override does not apply
   */
  public Atom resolve(TypeRef ref) {
    Atom atom = ref.name() != null ? types.get(ref.name()) : ref.inlined();
    if (atom == null || ref.relationship() == null) {
      return atom;
    }
    if (atom.map() != null) {
      return Atom.map(atom.map().withRelationship(ref.relationship()));
    }
    if (atom.list() != null) {
      return Atom.list(atom.list().withRelationship(ref.relationship()));
    }
    return null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema s && types.equals(s.types);
  }

  @Override
  public int hashCode() {
    return types.hashCode();
  }

  @Override
  public String toString() {
    return "Schema" + types.keySet();
  }

  /** Collects the named types of a schema. Not safe for concurrent use. */
  public static final class Builder {
    private final Map<String, Atom> types = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds a named type, replacing one of the same name.
     *
     * @param name the type's name
     * @param atom the type
     * @return this builder
     */
    public Builder type(String name, Atom atom) {
      types.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(atom, "atom"));
      return this;
    }

    /**
     * Tells whether a type of the name was added.
     *
     * @param name the type's name
     * @return true when it was
     */
    public boolean has(String name) {
      return types.containsKey(name);
    }

    /**
     * Builds the schema, with the common types {@value #UNTYPED_ATOMIC} and {@value #DEDUCED} added
     * unless given.
     *
     * @return the schema
     */
    public Schema build() {
      Map<String, Atom> all = new LinkedHashMap<>(types);
      all.putIfAbsent(UNTYPED_ATOMIC, UNTYPED_ATOMIC_ATOM);
      all.putIfAbsent(DEDUCED, DEDUCED_ATOM);
      return new Schema(all);
    }
  }
}
