package dev.machinery.core.typed;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A map or struct type: the declared fields with their types, the type of any other entry (a map's
 * values, or the unknown fields a struct keeps), and how the entries relate ({@link
 * ElementRelationship#SEPARABLE granular}, the default, or {@link ElementRelationship#ATOMIC
 * atomic}). A struct has fields and no element type, so an undeclared field is an error; a map has
 * only an element type. Immutable and safe to share between threads.
 */
public final class MapAtom {
  private final List<StructField> fields;
  private final Map<String, StructField> byName;
  private final TypeRef elementType;
  private final ElementRelationship relationship;

  /**
   * Creates a map type.
   *
   * @param fields the declared fields
   * @param elementType the type of undeclared entries, or null when there may be none
   * @param relationship how the entries relate, or null for granular
   */
  public MapAtom(List<StructField> fields, TypeRef elementType, ElementRelationship relationship) {
    this.fields = List.copyOf(fields);
    Map<String, StructField> index = new LinkedHashMap<>();
    for (StructField field : this.fields) {
      index.putIfAbsent(field.name(), field);
    }
    this.byName = index;
    this.elementType = elementType;
    this.relationship = relationship == null ? ElementRelationship.SEPARABLE : relationship;
  }

  /**
   * Returns a granular struct with these fields and no others.
   *
   * @param fields the fields
   * @return the type
   */
  public static MapAtom struct(StructField... fields) {
    return new MapAtom(List.of(fields), null, ElementRelationship.SEPARABLE);
  }

  /**
   * Returns a granular map whose values are all of one type.
   *
   * @param elementType the type of the values
   * @return the type
   */
  public static MapAtom of(TypeRef elementType) {
    return new MapAtom(List.of(), elementType, ElementRelationship.SEPARABLE);
  }

  /**
   * Returns the declared fields in their order.
   *
   * @return the fields
   */
  public List<StructField> fields() {
    return fields;
  }

  /**
   * Finds a declared field.
   *
   * @param name the field's name
   * @return the field, or null when none is declared by that name
   */
  public StructField field(String name) {
    return byName.get(name);
  }

  /**
   * Returns the type of undeclared entries.
   *
   * @return the type, or null when undeclared entries are not allowed
   */
  public TypeRef elementType() {
    return elementType;
  }

  /**
   * Returns how the entries relate.
   *
   * @return {@code SEPARABLE} or {@code ATOMIC}
   */
  public ElementRelationship relationship() {
    return relationship;
  }

  /**
   * Returns this type with another relationship.
   *
   * @param other the relationship
   * @return the type
   */
  public MapAtom withRelationship(ElementRelationship other) {
    return new MapAtom(fields, elementType, other);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MapAtom m
        && fields.equals(m.fields)
        && Objects.equals(elementType, m.elementType)
        && relationship == m.relationship;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fields, elementType, relationship);
  }

  @Override
  public String toString() {
    return "MapAtom[fields="
        + fields.stream().map(StructField::name).toList()
        + ", elementType="
        + elementType
        + ", relationship="
        + relationship
        + "]";
  }
}
