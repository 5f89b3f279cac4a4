package dev.machinery.core.typed;

import java.util.List;
import java.util.Objects;

/**
 * A list type: its element type and how its elements relate. An {@link ElementRelationship#ATOMIC
 * atomic} list is one value; an {@link ElementRelationship#ASSOCIATIVE associative} list with key
 * fields is Kubernetes' {@code x-kubernetes-list-type: map} (elements are objects identified by the
 * values of the keys), without keys it is a {@code set} (elements are scalars identified by their
 * value).
 *
 * @param elementType the type of the elements
 * @param relationship how the elements relate ({@code SEPARABLE} is not a list relationship)
 * @param keys the key fields of an associative list of objects, empty otherwise
 */
public record ListAtom(TypeRef elementType, ElementRelationship relationship, List<String> keys) {
  /**
   * Checks and copies the parts.
   *
   * @param elementType the type of the elements
   * @param relationship how the elements relate
   * @param keys the key fields of an associative list of objects, empty otherwise
   */
  public ListAtom {
    Objects.requireNonNull(elementType, "elementType");
    Objects.requireNonNull(relationship, "relationship");
    keys = List.copyOf(keys);
  }

  /**
   * Returns an atomic list.
   *
   * @param elementType the type of the elements
   * @return the list type
   */
  public static ListAtom atomic(TypeRef elementType) {
    return new ListAtom(elementType, ElementRelationship.ATOMIC, List.of());
  }

  /**
   * Returns a set-like list ({@code x-kubernetes-list-type: set}).
   *
   * @param elementType the type of the elements, a scalar
   * @return the list type
   */
  public static ListAtom set(TypeRef elementType) {
    return new ListAtom(elementType, ElementRelationship.ASSOCIATIVE, List.of());
  }

  /**
   * Returns an associative list of objects ({@code x-kubernetes-list-type: map}).
   *
   * @param elementType the type of the elements, a struct
   * @param keys the key fields, at least one
   * @return the list type
   */
  public static ListAtom map(TypeRef elementType, String... keys) {
    return new ListAtom(elementType, ElementRelationship.ASSOCIATIVE, List.of(keys));
  }

  /**
   * Returns this list type with another relationship.
   *
   * @param other the relationship
   * @return the list type
   */
  public ListAtom withRelationship(ElementRelationship other) {
    return new ListAtom(elementType, other, keys);
  }
}
