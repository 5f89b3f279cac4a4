package dev.machinery.core.fieldpath;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path to a field of an object: a list of {@link PathElement}s from the object's root, like
 * {@code .spec.containers[name="nginx"].image}. The empty path is the whole object.
 *
 * <p>Paths are ordered element by element, a path before the longer paths it begins. {@link
 * #toString()} prints the elements one after the other, as Go's {@code Path.String()} does.
 * Immutable and safe to share between threads.
 *
 * @param elements the elements, from the root
 */
public record FieldPath(List<PathElement> elements) implements Comparable<FieldPath> {
  private static final FieldPath EMPTY = new FieldPath(List.of());

  /**
   * Copies the elements.
   *
   * @param elements the elements, from the root
   */
  public FieldPath {
    elements = List.copyOf(elements);
  }

  /**
   * Returns the empty path, the whole object.
   *
   * @return the empty path
   */
  public static FieldPath empty() {
    return EMPTY;
  }

  /**
   * Returns the path of these parts: a {@link PathElement} as it is, a {@code String} a field, an
   * {@code Integer} or {@code Long} an index, a {@link JsonNode} a set-like list's value. Keys are
   * given as elements, {@code PathElement.key("name", "nginx")}.
   *
   * @param parts the parts, from the root
   * @return the path
   * @throws IllegalArgumentException if a part is of another type
   */
  public static FieldPath of(Object... parts) {
    List<PathElement> elements = new ArrayList<>(parts.length);
    for (Object part : parts) {
      if (part instanceof PathElement element) {
        elements.add(element);
      } else if (part instanceof String name) {
        elements.add(PathElement.field(name));
      } else if (part instanceof Integer || part instanceof Long) {
        elements.add(PathElement.index(((Number) part).longValue()));
      } else if (part instanceof JsonNode value) {
        elements.add(PathElement.value(value));
      } else {
        throw new IllegalArgumentException(
            "a path part must be a PathElement, a String, an Integer, a Long or a JsonNode; got "
                + (part == null ? "null" : part.getClass().getName()));
      }
    }
    return new FieldPath(elements);
  }

  /**
   * Returns the number of elements.
   *
   * @return the length
   */
  public int size() {
    return elements.size();
  }

  /**
   * Returns whether this is the empty path.
   *
   * @return whether there are no elements
   */
  public boolean isEmpty() {
    return elements.isEmpty();
  }

  /**
   * Returns this path with one more element at its end.
   *
   * @param element the element to append
   * @return the longer path
   */
  public FieldPath append(PathElement element) {
    Objects.requireNonNull(element, "element");
    List<PathElement> longer = new ArrayList<>(elements.size() + 1);
    longer.addAll(elements);
    longer.add(element);
    return new FieldPath(longer);
  }

  /**
   * Compares element by element; a path is before the longer paths it begins.
   *
   * @param other the path to compare with
   * @return negative, zero or positive as this path is before, the same as, or after the other
   */
  @Override
  public int compareTo(FieldPath other) {
    int n = Math.min(elements.size(), other.elements.size());
    for (int i = 0; i < n; i++) {
      int c = elements.get(i).compareTo(other.elements.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(elements.size(), other.elements.size());
  }

  /**
   * Returns the path as Go prints it, like {@code .spec.containers[name="nginx"].image}; the empty
   * path prints as the empty string.
   *
   * @return the path's text
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (PathElement element : elements) {
      b.append(element);
    }
    return b.toString();
  }
}
