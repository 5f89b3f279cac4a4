package dev.machinery.unversioned.validation;

import java.util.Objects;

/**
 * The path of a field inside an object, as Kubernetes writes it in errors ({@code field.Path}):
 * {@code spec.containers[0].env[HOME]} — names joined by dots, list indexes and map keys in
 * brackets.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class FieldPath {
  private final FieldPath parent;
  private final String name;
  private final String index;

  private FieldPath(FieldPath parent, String name, String index) {
    this.parent = parent;
    this.name = name;
    this.index = index;
  }

  /**
   * A path of one or more names: {@code of("metadata", "labels")} is {@code metadata.labels}.
   *
   * @param root the first name
   * @param more further names
   * @return the path
   */
  public static FieldPath of(String root, String... more) {
    FieldPath path = new FieldPath(null, Objects.requireNonNull(root, "root"), null);
    for (String name : more) {
      path = path.child(name);
    }
    return path;
  }

  /**
   * The path of a named field below this one.
   *
   * @param name the field's name
   * @return the path
   */
  public FieldPath child(String name) {
    return new FieldPath(this, Objects.requireNonNull(name, "name"), null);
  }

  /**
   * The path of a list element below this one: {@code [3]}.
   *
   * @param index the element's index
   * @return the path
   */
  public FieldPath index(int index) {
    return new FieldPath(this, null, Integer.toString(index));
  }

  /**
   * The path of a map entry below this one: {@code [app]}.
   *
   * @param key the entry's key
   * @return the path
   */
  public FieldPath key(String key) {
    return new FieldPath(this, null, Objects.requireNonNull(key, "key"));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FieldPath path && toString().equals(path.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /**
   * Returns the path as Kubernetes writes it.
   *
   * @return the text, such as {@code metadata.labels[app]}
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    append(text);
    return text.toString();
  }

  private void append(StringBuilder text) {
    if (parent != null) {
      parent.append(text);
    }
    if (index != null) {
      text.append('[').append(index).append(']');
    } else {
      if (parent != null) {
        text.append('.');
      }
      text.append(name);
    }
  }
}
