package dev.machinery.unversioned.unstructured;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A field of an unstructured object holds a value of another type than the accessor expects, such
 * as a number where {@code metadata.labels} should hold an object. Names the path, the value found
 * and the type expected. Immutable.
 */
public final class UnstructuredFieldException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String path;

  /**
   * Creates the exception.
   *
   * @param path the dotted path of the field, such as {@code metadata.labels}
   * @param message the message, naming the path, the value found and the type expected
   */
  public UnstructuredFieldException(String path, String message) {
    super(message);
    this.path = Objects.requireNonNull(path, "path");
  }

  /**
   * Returns the dotted path of the field.
   *
   * @return the path
   */
  public String path() {
    return path;
  }
}
