package dev.machinery.core.typed;

import java.util.Objects;

/**
 * A reference to a type: either the name of a type of the {@link Schema} (so types can refer to
 * themselves) or a type given inline, optionally with the element relationship of the named list or
 * map overridden (OpenAPI's {@code x-kubernetes-map-type} beside a {@code $ref}).
 *
 * @param name the named type, or null when the type is inline
 * @param inlined the inline type, or null when the type is named
 * @param relationship the element relationship that overrides the named type's, or null
 */
public record TypeRef(String name, Atom inlined, ElementRelationship relationship) {
  /**
   * Checks that exactly one of the name and the inline type is given.
   *
   * @param name the named type, or null when the type is inline
   * @param inlined the inline type, or null when the type is named
   * @param relationship the element relationship that overrides the named type's, or null
   */
  public TypeRef {
    if ((name == null) == (inlined == null)) {
      throw new IllegalArgumentException("a type reference is either named or inline");
    }
  }

  /**
   * Returns a reference to a named type.
   *
   * @param name the type's name in the schema
   * @return the reference
   */
  public static TypeRef named(String name) {
    return new TypeRef(Objects.requireNonNull(name, "name"), null, null);
  }

  /**
   * Returns an inline type.
   *
   * @param atom the type
   * @return the reference
   */
  public static TypeRef inline(Atom atom) {
    return new TypeRef(null, Objects.requireNonNull(atom, "atom"), null);
  }

  /**
   * Returns this reference with the element relationship of the list or map it names overridden.
   *
   * @param relationship the relationship
   * @return the reference
   */
  public TypeRef withRelationship(ElementRelationship relationship) {
    return new TypeRef(name, inlined, relationship);
  }

  @Override
  public String toString() {
    String text = name != null ? name : "inlined " + inlined;
    return relationship == null ? text : text + " (" + relationship + ")";
  }
}
