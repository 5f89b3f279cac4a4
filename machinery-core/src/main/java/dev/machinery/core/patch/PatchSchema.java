package dev.machinery.core.patch;

import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What a strategic merge patch knows about a JSON value: an object's fields with their strategies
 * and merge keys, a map's value schema, a list's element schema, or nothing (a value of unknown
 * type merges as a JSON merge patch does). The merge, the diff and the three-way union read only
 * this; where it comes from (Java types, {@link JavaPatchSchemas}; OpenAPI, {@link
 * OpenApiPatchSchemas}) is decided by who builds it. Nested schemas are reached through suppliers,
 * resolved when a patch first needs them, so recursive types cost nothing until they are walked.
 * Immutable; thread-safe.
 */
final class PatchSchema {
  /** A value the patch knows nothing about. */
  static final PatchSchema NONE = new PatchSchema(Shape.NONE, "", Map.of(), true, null);

  enum Shape {
    OBJECT,
    MAP,
    LIST,
    NONE
  }

  /**
   * A field of an object (or the values of a map): its schema, resolved when needed, its strategies
   * and merge key.
   */
  record Field(Supplier<PatchSchema> type, Set<String> strategies, String mergeKey) {
    static final Field UNKNOWN = new Field(() -> NONE, Set.of(), null);

    PatchSchema schema() {
      return type.get();
    }

    boolean merges() {
      return strategies.contains("merge");
    }

    boolean replaces() {
      return strategies.contains("replace");
    }

    boolean retainsKeys() {
      return strategies.contains("retainKeys");
    }
  }

  final Shape shape;
  private final String owner;
  private final Map<String, Field> fields;
  private final boolean open;
  private final Supplier<PatchSchema> element;

  private PatchSchema(
      Shape shape,
      String owner,
      Map<String, Field> fields,
      boolean open,
      Supplier<PatchSchema> element) {
    this.shape = shape;
    this.owner = owner;
    this.fields = fields;
    this.open = open;
    this.element = element;
  }

  /**
   * An object with declared fields.
   *
   * @param owner the type's name, as an error message names it ({@code Container})
   * @param open whether fields it does not declare are kept (and merged without strategies)
   */
  static PatchSchema object(String owner, Map<String, Field> fields, boolean open) {
    return new PatchSchema(Shape.OBJECT, owner, Map.copyOf(fields), open, null);
  }

  /** A map whose values have one schema. */
  static PatchSchema map(String owner, Supplier<PatchSchema> values) {
    return new PatchSchema(Shape.MAP, owner, Map.of(), true, values);
  }

  /** A list whose elements have one schema. */
  static PatchSchema list(String owner, Supplier<PatchSchema> elements) {
    return new PatchSchema(Shape.LIST, owner, Map.of(), true, elements);
  }

  /**
   * The field of an object where its strategy is needed (its values differ, and are both objects or
   * both lists): as {@link #field}, but a field an object type does not declare (and does not keep
   * as unknown fields) is an error, as in Kubernetes.
   *
   * @param path where the field is, for the message
   */
  Field fieldWithStrategy(String name, String path) {
    if (shape == Shape.OBJECT && !open && !fields.containsKey(name)) {
      throw new PatchException(
          PatchException.Kind.MALFORMED,
          path
              + ": unable to find api field in struct "
              + owner
              + " for the json field \""
              + name
              + "\"");
    }
    return field(name);
  }

  /** The field of an object, or of a map's values; UNKNOWN when the schema does not know it. */
  Field field(String name) {
    if (shape == Shape.OBJECT) {
      return fields.getOrDefault(name, Field.UNKNOWN);
    }
    if (shape == Shape.MAP) {
      return new Field(element, Set.of(), null);
    }
    return Field.UNKNOWN;
  }

  /**
   * The schema of a list's elements; for an object schema, the object itself (a list found where
   * the type declares one object holds objects of that type, as Kubernetes reads it).
   */
  PatchSchema element() {
    if (shape == Shape.OBJECT) {
      return this;
    }
    return shape == Shape.LIST ? element.get() : NONE;
  }

  /**
   * A supplier that resolves once and then keeps its answer; a race resolves twice to equal
   * schemas, which is harmless.
   */
  static Supplier<PatchSchema> memoized(Supplier<PatchSchema> resolve) {
    return new Supplier<>() {
      private volatile PatchSchema resolved;

      @Override
      public PatchSchema get() {
        PatchSchema schema = resolved;
        if (schema == null) {
          schema = resolve.get();
          resolved = schema;
        }
        return schema;
      }
    };
  }

  @Override
  public String toString() {
    return shape + (owner.isEmpty() ? "" : " " + owner);
  }
}
