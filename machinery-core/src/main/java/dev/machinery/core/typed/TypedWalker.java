package dev.machinery.core.typed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.PathElement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Walks a JSON value along its type: checks it (structured-merge-diff's validating walker) or
 * collects its field set (its {@code ToFieldSet}), with the same rules and messages. Not safe for
 * concurrent use; one per walk.
 */
final class TypedWalker {
  private final Schema schema;
  private final boolean allowDuplicates;
  private final List<PathElement> path = new ArrayList<>();
  private FieldSet.Builder set;

  TypedWalker(Schema schema, boolean allowDuplicates) {
    this.schema = schema;
    this.allowDuplicates = allowDuplicates;
  }

  // ---- validation

  List<ValidationError> validate(TypeRef ref, JsonNode value) {
    List<ValidationError> errors = new ArrayList<>();
    check(ref, value, "", errors);
    return errors;
  }

  private void check(TypeRef ref, JsonNode value, String prefix, List<ValidationError> errors) {
    Atom atom = resolve(ref, value, prefix, errors);
    if (atom == null) {
      return;
    }
    if (atom.map() != null) {
      checkMap(atom.map(), value, prefix, errors);
    } else if (atom.scalar() != null) {
      String problem = scalarProblem(atom.scalar(), value);
      if (problem != null) {
        errors.add(new ValidationError(prefix, problem));
      }
    } else {
      checkList(atom.list(), value, prefix, errors);
    }
  }

  /** The type that applies to the value, or null with an error added. */
  private Atom resolve(TypeRef ref, JsonNode value, String prefix, List<ValidationError> errors) {
    Atom atom = schema.resolve(ref);
    if (atom == null) {
      errors.add(
          new ValidationError(
              prefix,
              "schema error: no type found matching: "
                  + (ref.name() != null ? ref.name() : "inlined type")));
      return null;
    }
    atom = deduce(atom, value);
    if (atom.isEmpty()) {
      errors.add(
          new ValidationError(
              prefix,
              "schema error: invalid atom: "
                  + (ref.name() != null ? "named type: " + ref.name() : "inlined")));
      return null;
    }
    return atom;
  }

  /** Of the parts of a type, the one that fits the value; all of them when none fits. */
  static Atom deduce(Atom atom, JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return atom;
    }
    if (isScalar(value)) {
      return atom.scalar() != null ? Atom.scalar(atom.scalar()) : atom;
    }
    if (value.isArray()) {
      return atom.list() != null ? Atom.list(atom.list()) : atom;
    }
    if (value.isObject()) {
      return atom.map() != null ? Atom.map(atom.map()) : atom;
    }
    return atom;
  }

  static boolean isNull(JsonNode value) {
    return value == null || value.isNull() || value.isMissingNode();
  }

  private static boolean isScalar(JsonNode value) {
    return value.isNumber() || value.isTextual() || value.isBoolean() || value.isBinary();
  }

  private static String scalarProblem(ScalarType kind, JsonNode value) {
    if (isNull(value)) {
      return null;
    }
    return switch (kind) {
      case NUMERIC ->
          value.isNumber() ? null : "expected numeric (int or float), got " + goType(value);
      case STRING -> value.isTextual() || value.isBinary() ? null : "expected string, got " + value;
      case BOOLEAN -> value.isBoolean() ? null : "expected boolean, got " + value;
      case UNTYPED -> isScalar(value) ? null : "expected any scalar, got " + value;
    };
  }

  /** The Go type an unstructured value of this JSON kind has, as Go's {@code %T} prints it. */
  private static String goType(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isBoolean()) {
      return "bool";
    }
    if (value.isArray()) {
      return "[]interface {}";
    }
    return "map[string]interface {}";
  }

  private void checkList(
      ListAtom list, JsonNode value, String prefix, List<ValidationError> errors) {
    if (isNull(value)) {
      return;
    }
    if (!value.isArray()) {
      errors.add(new ValidationError(prefix, "expected list, got " + value));
      return;
    }
    Set<PathElement> seen = new HashSet<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode child = value.get(i);
      PathElement element;
      if (list.relationship() != ElementRelationship.ASSOCIATIVE) {
        element = PathElement.index(i);
      } else {
        try {
          element = itemElement(list, child);
        } catch (ItemException e) {
          errors.add(new ValidationError(prefix, "element " + i + ": " + e.getMessage()));
          return; // without its element no error deeper in this list can be placed
        }
        if (!seen.add(element) && !allowDuplicates) {
          errors.add(new ValidationError(prefix, "duplicate entries for key " + element));
        }
      }
      check(list.elementType(), child, prefix + element, errors);
    }
  }

  private void checkMap(MapAtom map, JsonNode value, String prefix, List<ValidationError> errors) {
    if (isNull(value)) {
      return;
    }
    if (!value.isObject()) {
      errors.add(new ValidationError(prefix, "expected map, got " + value));
      return;
    }
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      String here = prefix + PathElement.field(entry.getKey());
      StructField field = map.field(entry.getKey());
      TypeRef type = field != null ? field.type() : map.elementType();
      if (type == null) {
        errors.add(new ValidationError(here, "field not declared in schema"));
        return;
      }
      check(type, entry.getValue(), here, errors);
    }
  }

  // ---- list elements

  /** An element of an associative list that cannot be identified. */
  private static final class ItemException extends Exception {
    private static final long serialVersionUID = 1L;

    ItemException(String message) {
      super(message, null, false, false);
    }
  }

  /** The element that identifies an item of an associative list, or null when none does. */
  PathElement elementOrNull(ListAtom list, JsonNode child) {
    try {
      return itemElement(list, child);
    } catch (ItemException e) {
      return null;
    }
  }

  private PathElement itemElement(ListAtom list, JsonNode child) throws ItemException {
    if (list.relationship() != ElementRelationship.ASSOCIATIVE) {
      throw new ItemException("invalid indexing of non-associative list");
    }
    if (!list.keys().isEmpty()) {
      return keyElement(list, child);
    }
    if (child.isObject()) {
      throw new ItemException("associative list without keys has an element that's a map type");
    }
    if (child.isArray()) {
      throw new ItemException("not supported: associative list with lists as elements");
    }
    if (isNull(child)) {
      throw new ItemException(
          "associative list without keys has an element that's an explicit null");
    }
    return PathElement.value(child);
  }

  private PathElement keyElement(ListAtom list, JsonNode child) throws ItemException {
    if (isNull(child)) {
      throw new ItemException("associative list with keys may not have a null element");
    }
    if (!child.isObject()) {
      throw new ItemException("associative list with keys may not have non-map elements");
    }
    Map<String, JsonNode> key = new TreeMap<>();
    for (String name : list.keys()) {
      JsonNode field = child.get(name);
      if (field != null) {
        key.put(name, field);
        continue;
      }
      Atom element = schema.resolve(list.elementType());
      if (element == null) {
        throw new ItemException(
            "couldn't find default value for " + name + ": invalid elementType for list");
      }
      if (element.map() == null) {
        throw new ItemException(
            "couldn't find default value for "
                + name
                + ": associative list may not have non-map types");
      }
      StructField declared = element.map().field(name);
      JsonNode fallback = declared == null ? null : declared.defaultValue();
      if (fallback != null) {
        key.put(name, fallback);
      }
    }
    if (key.isEmpty()) {
      StringBuilder names = new StringBuilder("[");
      for (String name : list.keys()) {
        names.append(names.length() > 1 ? " " : "").append('"').append(name).append('"');
      }
      throw new ItemException(
          "associative list with keys has an element that omits all key fields "
              + names
              + "] (and doesn't have default values for any key fields)");
    }
    return PathElement.key(key);
  }

  // ---- field sets

  FieldSet toFieldSet(TypeRef ref, JsonNode value) {
    set = FieldSet.builder();
    collect(ref, value);
    return set.build();
  }

  private void insertHere() {
    set.insert(new FieldPath(path));
  }

  private void collect(TypeRef ref, JsonNode value) {
    Atom atom = schema.resolve(ref);
    if (atom == null) {
      return; // refused by validation before
    }
    atom = deduce(atom, value);
    if (atom.map() != null) {
      collectMap(atom.map(), value);
    } else if (atom.scalar() != null) {
      insertHere();
    } else if (atom.list() != null) {
      collectList(atom.list(), value);
    }
  }

  private void collectList(ListAtom list, JsonNode value) {
    if (list.relationship() == ElementRelationship.ATOMIC) {
      insertHere();
      return;
    }
    if (isNull(value) || !value.isArray()) {
      return;
    }
    List<PathElement> elements = new ArrayList<>(value.size());
    Set<PathElement> seen = new HashSet<>();
    Set<PathElement> duplicates = new HashSet<>();
    for (JsonNode child : value) {
      PathElement element;
      try {
        element = itemElement(list, child);
      } catch (ItemException e) {
        throw new IllegalStateException("refused by validation before", e);
      }
      elements.add(element);
      if (!seen.add(element) && duplicates.add(element)) {
        path.add(element);
        insertHere(); // elements sharing a key are one member, held as a whole
        path.remove(path.size() - 1);
      }
    }
    for (int i = 0; i < value.size(); i++) {
      PathElement element = elements.get(i);
      if (duplicates.contains(element)) {
        continue;
      }
      path.add(element);
      collect(list.elementType(), value.get(i));
      insertHere();
      path.remove(path.size() - 1);
    }
  }

  private void collectMap(MapAtom map, JsonNode value) {
    if (map.relationship() == ElementRelationship.ATOMIC) {
      insertHere();
      return;
    }
    if (isNull(value) || !value.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      StructField field = map.field(entry.getKey());
      TypeRef type = field != null ? field.type() : map.elementType();
      JsonNode child = entry.getValue();
      path.add(PathElement.field(entry.getKey()));
      if (type != null) {
        collect(type, child);
      }
      if (isNull(child) || (child.isObject() && child.isEmpty()) || field == null) {
        insertHere();
      }
      path.remove(path.size() - 1);
    }
  }
}
