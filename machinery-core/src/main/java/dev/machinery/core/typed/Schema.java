package dev.machinery.core.typed;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A set of named types that refer to each other by name (so recursive types work), as
 * structured-merge-diff's {@code schema.Schema}. Every schema holds the two common types of
 * Kubernetes' schemas: {@value #UNTYPED_ATOMIC} (any value, held as a whole) and {@value #DEDUCED}
 * (any value, its shape deduced from the value: maps granular, lists atomic). Build one with {@link
 * #builder()}, from OpenAPI with {@link OpenApiSchemas}, or from Java classes with {@link
 * JavaSchemas}. A schema converted from OpenAPI may make each named type when it is first resolved
 * ({@link OpenApiSchemas#fromOpenApiLazily}); it is equal to the schema made all at once. Immutable
 * (as seen from outside) and safe to share between threads.
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

  /** A type made lazily that turned out to be none (an alias, an empty type). */
  private static final Atom NONE = Atom.scalar(ScalarType.UNTYPED);

  private final Map<String, Atom> types;

  /** Lazily: every name the maker may know, in order; null when all types are in {@code types}. */
  private final Set<String> names;

  /** Lazily: makes a named type (null for none); null when all types are in {@code types}. */
  private final Function<String, Atom> maker;

  /** Lazily: every type, made when first asked for all of them. */
  private volatile Map<String, Atom> all;

  private Schema(Map<String, Atom> types) {
    this.types = Collections.unmodifiableMap(types);
    this.names = null;
    this.maker = null;
    this.all = this.types;
  }

  private Schema(Set<String> names, Map<String, Atom> common, Function<String, Atom> maker) {
    this.types = new ConcurrentHashMap<>(common);
    this.names = names;
    this.maker = maker;
  }

  /**
   * A schema whose named types are made by the maker when first resolved, each once (what {@link
   * Builder#build()} adds is added too when the maker has no type of that name).
   *
   * @param names every name the maker may have a type of, in order
   * @param maker makes the type of a name, null when there is none; it must not resolve other types
   *     of the schema
   */
  static Schema lazy(List<String> names, Function<String, Atom> maker) {
    Set<String> ordered = new java.util.LinkedHashSet<>(names);
    Map<String, Atom> common = new LinkedHashMap<>();
    if (ordered.add(UNTYPED_ATOMIC)) {
      common.put(UNTYPED_ATOMIC, UNTYPED_ATOMIC_ATOM);
    }
    if (ordered.add(DEDUCED)) {
      common.put(DEDUCED, DEDUCED_ATOM);
    }
    return new Schema(Collections.unmodifiableSet(ordered), common, Objects.requireNonNull(maker));
  }

  /** The named type, made now when the schema makes its types lazily. */
  private Atom lookup(String name) {
    if (maker == null) {
      return types.get(name);
    }
    Atom atom = types.get(name);
    if (atom == null) {
      if (!names.contains(name)) {
        return null;
      }
      synchronized (this) {
        atom = types.get(name);
        if (atom == null) {
          atom = maker.apply(name);
          if (atom == null) {
            atom =
                switch (name) {
                  // The common types, when the maker has none of their names.
                  case UNTYPED_ATOMIC -> UNTYPED_ATOMIC_ATOM;
                  case DEDUCED -> DEDUCED_ATOM;
                  default -> NONE;
                };
          }
          types.put(name, atom);
        }
      }
    }
    return atom == NONE ? null : atom;
  }

  /** Every named type, in order (all made now when the schema makes them lazily). */
  private Map<String, Atom> all() {
    Map<String, Atom> made = all;
    if (made == null) {
      Map<String, Atom> every = new LinkedHashMap<>();
      for (String name : names) {
        Atom atom = lookup(name);
        if (atom != null) {
          every.put(name, atom);
        }
      }
      made = Collections.unmodifiableMap(every);
      all = made;
    }
    return made;
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
    return all().keySet();
  }

  /**
   * Returns a named type.
   *
   * @param name the type's name
   * @return the type, or null when the schema has none of that name
   */
  public Atom namedType(String name) {
    return lookup(name);
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
    Atom atom = ref.name() != null ? lookup(ref.name()) : ref.inlined();
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
    return o instanceof Schema s && all().equals(s.all());
  }

  @Override
  public int hashCode() {
    return all().hashCode();
  }

  @Override
  public String toString() {
    return "Schema" + all().keySet();
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
