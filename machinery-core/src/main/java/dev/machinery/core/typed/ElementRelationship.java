package dev.machinery.core.typed;

/**
 * How the elements of a list or map relate to each other, as structured-merge-diff's {@code
 * ElementRelationship} says; it decides which paths an object's field set holds.
 */
public enum ElementRelationship {
  /**
   * A list whose elements are identified by key fields ({@code x-kubernetes-list-type: map}) or by
   * their value ({@code set}): each element is a member of the field set on its own.
   */
  ASSOCIATIVE,
  /**
   * A list or map that is one value: the field set holds it as a single member and nothing below it
   * ({@code x-kubernetes-list-type: atomic}, {@code x-kubernetes-map-type: atomic}).
   */
  ATOMIC,
  /**
   * A map or struct whose fields are owned one by one ({@code x-kubernetes-map-type: granular}, the
   * default of maps and structs).
   */
  SEPARABLE
}
