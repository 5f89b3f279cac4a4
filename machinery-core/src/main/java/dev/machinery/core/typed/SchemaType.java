package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A type of a {@link Schema}, to check values against and to compute their field sets, as
 * structured-merge-diff's {@code ParseableType} and {@code TypedValue}. Values are JSON trees as
 * Jackson reads them. Immutable and safe to share between threads.
 *
 * @param schema the schema the type belongs to
 * @param ref the type
 */
public record SchemaType(Schema schema, TypeRef ref) {
  /** A value of unknown type: maps granular, lists atomic, as Kubernetes treats unknown kinds. */
  public static final SchemaType DEDUCED = Schema.builder().build().type(Schema.DEDUCED);

  /**
   * Checks the parts.
   *
   * @param schema the schema the type belongs to
   * @param ref the type
   */
  public SchemaType {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(ref, "ref");
  }

  /**
   * Checks a value against the type, duplicates in associative lists included.
   *
   * @param value the value ({@code null} or JSON null is a valid value of any type)
   * @throws TypedException listing every error, each with its path
   */
  public void validate(JsonNode value) {
    validate(value, false);
  }

  /**
   * Checks a value against the type.
   *
   * @param value the value
   * @param allowDuplicates whether two elements of an associative list may have the same key (as
   *     kube-apiserver allows in objects it already stores)
   * @throws TypedException listing every error, each with its path
   */
  public void validate(JsonNode value, boolean allowDuplicates) {
    List<ValidationError> errors = new TypedWalker(schema, allowDuplicates).validate(ref, value);
    if (!errors.isEmpty()) {
      throw new TypedException(errors);
    }
  }

  /**
   * Returns the set of fields the value holds, after checking it (duplicates refused): every
   * scalar, every atomic list or map as one member, every element of an associative list as a
   * member with its fields below it, every field of a map not declared by a struct, and every null
   * or empty map.
   *
   * @param value the value
   * @return the field set
   * @throws TypedException if the value does not fit the type
   */
  public FieldSet toFieldSet(JsonNode value) {
    return toFieldSet(value, false);
  }

  /**
   * Returns the set of fields the value holds, after checking it. Elements of an associative list
   * that share a key (allowed only when asked) are together one member, with nothing below it.
   *
   * @param value the value
   * @param allowDuplicates whether two elements of an associative list may have the same key
   * @return the field set
   * @throws TypedException if the value does not fit the type
   */
  public FieldSet toFieldSet(JsonNode value, boolean allowDuplicates) {
    validate(value, allowDuplicates);
    return new TypedWalker(schema, allowDuplicates).toFieldSet(ref, value);
  }

  /**
   * Compares an old and a new value of the type, as structured-merge-diff's {@code
   * TypedValue.Compare}, after checking both (elements of associative lists may share a key, as in
   * stored objects). An atomic list or map, and a list or map empty or null on both sides, is one
   * field compared as a whole; items of associative lists are matched by key, whatever their order;
   * items that share a key are compared as one group.
   *
   * @param oldValue the old value (null is a JSON null)
   * @param newValue the new value (null is a JSON null)
   * @return the fields added, modified and removed
   * @throws TypedException if a value does not fit the type
   */
  public Comparison compare(JsonNode oldValue, JsonNode newValue) {
    JsonNode lhs = orNull(oldValue);
    JsonNode rhs = orNull(newValue);
    validate(lhs, true);
    validate(rhs, true);
    return new TypedMerging(schema).compare(ref, lhs, rhs);
  }

  /**
   * Merges an applied value into a live one, as structured-merge-diff's {@code TypedValue.Merge},
   * after checking both (the live value's associative lists may hold items that share a key, the
   * applied value's may not). Granular maps and structs are merged field by field; associative
   * lists item by item, matched by key, the live order kept and new items placed where the applied
   * order puts them; atomic values, scalars, and lists or maps empty on both sides are taken from
   * the applied value when it holds them. Neither input is changed.
   *
   * @param live the live value (null is a JSON null)
   * @param applied the applied value (null is a JSON null)
   * @return the merged value, a new tree; a JSON null when nothing is left
   * @throws TypedException if a value does not fit the type
   */
  public JsonNode merge(JsonNode live, JsonNode applied) {
    JsonNode lhs = orNull(live);
    JsonNode rhs = orNull(applied);
    validate(lhs, true);
    validate(rhs, false);
    return orNull(new TypedMerging(schema).merge(ref, lhs, rhs));
  }

  /**
   * Returns the set with every struct field that has paths below it made a member too, as
   * structured-merge-diff's {@code EnsureNamedFieldsAreMembers}: a set holding {@code .a.b.c} comes
   * to own {@code .a} when {@code a} is a declared field, but not {@code .a.b} when {@code b} is a
   * key of a map. Removing by such a set removes the structs an owner no longer fills.
   *
   * @param set the set, of paths in this type
   * @return the set with the named fields on its paths as members
   */
  public FieldSet withNamedFieldsAsMembers(FieldSet set) {
    FieldSet.Builder out = FieldSet.builder();
    addNamedFields(set, ref, new ArrayList<>(), out);
    return out.build();
  }

  private void addNamedFields(
      FieldSet set, TypeRef at, List<PathElement> prefix, FieldSet.Builder out) {
    Atom atom = at == null ? null : schema.resolve(at);
    for (PathElement member : set.members()) {
      out.insert(extend(prefix, member));
    }
    for (var child : set.children().entrySet()) {
      PathElement element = child.getKey();
      TypeRef next = null;
      if (element instanceof PathElement.Field field && atom != null && atom.map() != null) {
        StructField declared = atom.map().field(field.name());
        if (declared != null) {
          out.insert(extend(prefix, element));
          next = declared.type();
        } else {
          next = atom.map().elementType();
        }
      } else if (element instanceof PathElement.Key && atom != null && atom.list() != null) {
        next = atom.list().elementType();
      }
      prefix.add(element);
      addNamedFields(child.getValue(), next, prefix, out);
      prefix.remove(prefix.size() - 1);
    }
  }

  private static FieldPath extend(List<PathElement> prefix, PathElement element) {
    List<PathElement> path = new ArrayList<>(prefix.size() + 1);
    path.addAll(prefix);
    path.add(element);
    return new FieldPath(path);
  }

  /**
   * Returns the value without the fields of the set, as structured-merge-diff's {@code
   * TypedValue.RemoveItems}, after checking it (shared keys allowed). A member of the set removes
   * the whole field or item, its content included; a map or list left empty becomes a JSON null.
   * The input is not changed.
   *
   * @param value the value
   * @param items the fields to remove
   * @return the rest, a new tree; a JSON null when nothing is left
   * @throws TypedException if the value does not fit the type
   */
  public JsonNode removeItems(JsonNode value, FieldSet items) {
    JsonNode checked = orNull(value);
    validate(checked, true);
    return new TypedMerging(schema).remove(ref, checked, items, false);
  }

  /**
   * Returns only the fields of the set, with the maps, structs and list items that lead to them, as
   * structured-merge-diff's {@code TypedValue.ExtractItems}, after checking the value (shared keys
   * allowed). A member of the set keeps a scalar, an atomic value or a list item whole; of a
   * granular map or list it keeps only what the set names below it (as in Go), so extract by the
   * {@link FieldSet#leaves() leaves} of a set. The input is not changed.
   *
   * @param value the value
   * @param items the fields to keep
   * @return the extracted fields, a new tree; a JSON null when none is held
   * @throws TypedException if the value does not fit the type
   */
  public JsonNode extractItems(JsonNode value, FieldSet items) {
    JsonNode checked = orNull(value);
    validate(checked, true);
    return new TypedMerging(schema).remove(ref, checked, items, true);
  }

  /**
   * Returns only the fields of the set, as {@link #extractItems(JsonNode, FieldSet)} does, with,
   * when asked, the key fields of every associative list item on the way to a field of the set that
   * the value holds (Go's {@code WithAppendKeyFields}), so each extracted item can still be told by
   * its key.
   *
   * @param value the value
   * @param items the fields to keep
   * @param withKeyFields whether to keep the key fields of the items that lead to them
   * @return the extracted fields, a new tree; a JSON null when none is held
   * @throws TypedException if the value does not fit the type
   */
  public JsonNode extractItems(JsonNode value, FieldSet items, boolean withKeyFields) {
    if (!withKeyFields) {
      return extractItems(value, items);
    }
    JsonNode checked = orNull(value);
    FieldSet held = toFieldSet(checked, true);
    FieldSet.Builder keys = FieldSet.builder();
    for (FieldPath path : items) {
      if (!held.has(path)) {
        continue;
      }
      List<PathElement> elements = path.elements();
      for (int i = 0; i < elements.size(); i++) {
        if (elements.get(i) instanceof PathElement.Key key) {
          for (PathElement.KeyField field : key.fields()) {
            List<PathElement> keyPath = new ArrayList<>(elements.subList(0, i + 1));
            keyPath.add(PathElement.field(field.name()));
            keys.insert(new FieldPath(keyPath));
          }
        }
      }
    }
    return new TypedMerging(schema).remove(ref, checked, items.union(keys.build()), true);
  }

  /**
   * Returns a field set recorded under an earlier shape of this type brought in line with the type
   * as it is now, as structured-merge-diff's {@code ReconcileFieldSetWithSchema}: where the set
   * holds fields below a list or map that is now atomic, it holds that list or map instead, whole.
   * Fields the type no longer declares are left as they are; a field set recorded against an atomic
   * list or map that has since become granular is already correct.
   *
   * @param set the fields, of paths in this type
   * @return the reconciled set; the same set when nothing changed
   */
  public FieldSet reconcile(FieldSet set) {
    FieldSet.Builder atomic = FieldSet.builder();
    reconcile(set, ref, new ArrayList<>(), atomic);
    FieldSet roots = atomic.build();
    return roots.isEmpty() ? set : set.recursiveDifference(roots).union(roots);
  }

  /**
   * Collects the paths under {@code prefix} that are atomic lists or maps with fields below them in
   * the set.
   */
  private void reconcile(
      FieldSet set, TypeRef at, List<PathElement> prefix, FieldSet.Builder atomic) {
    Atom atom = schema.resolve(at);
    if (atom == null) {
      return;
    }
    MapAtom map = atom.map();
    ListAtom list = atom.list();
    if (map != null ? isDeduced(map) : atom.scalar() != null || list == null) {
      return;
    }
    for (var child : set.children().entrySet()) {
      PathElement element = child.getKey();
      TypeRef next;
      if (map != null) {
        StructField declared =
            element instanceof PathElement.Field field ? map.field(field.name()) : null;
        next = declared != null ? declared.type() : map.elementType();
      } else {
        next = list.elementType();
      }
      if (next == null || child.getValue().isEmpty()) {
        continue;
      }
      prefix.add(element);
      Atom inner = schema.resolve(next);
      if (inner != null && isAtomic(inner)) {
        atomic.insert(new FieldPath(List.copyOf(prefix)));
      } else {
        reconcile(child.getValue(), next, prefix, atomic);
      }
      prefix.remove(prefix.size() - 1);
    }
  }

  /**
   * Whether the type is a list or map held as a whole; as structured-merge-diff handles atoms, a
   * map comes before a scalar, and a scalar before a list.
   */
  private static boolean isAtomic(Atom atom) {
    if (atom.map() != null) {
      return !isDeduced(atom.map()) && atom.map().relationship() == ElementRelationship.ATOMIC;
    }
    return atom.scalar() == null
        && atom.list() != null
        && atom.list().relationship() == ElementRelationship.ATOMIC;
  }

  /**
   * Whether the map is of unknown shape: no fields, its values of the deduced type or an inline
   * untyped scalar (as CRDs that preserve unknown fields have).
   */
  private static boolean isDeduced(MapAtom map) {
    TypeRef values = map.elementType();
    if (!map.fields().isEmpty() || values == null) {
      return false;
    }
    return values.name() != null
        ? Schema.DEDUCED.equals(values.name())
        : values.inlined().scalar() == ScalarType.UNTYPED;
  }

  private static JsonNode orNull(JsonNode value) {
    return value == null || value.isMissingNode() ? NullNode.getInstance() : value;
  }
}
