package dev.machinery.conversion;

import dev.machinery.MachineryException;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A value that cannot be converted, with the path of the field that holds it, such as {@code
 * spec.template.spec.containers[1].protocol}.
 *
 * <p>Conversion functions report the problem where they find it, with an empty path; each enclosing
 * generated function adds its field name as the exception passes through it, so that the caller
 * sees the full path from the object it converted. Paths use the Java property names, which are
 * usually the JSON names. The path is complete once the exception reaches the caller, and the
 * exception is not changed afterwards.
 */
public class ConversionException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String problem;
  private final ArrayDeque<String> segments = new ArrayDeque<>();

  /**
   * Creates an exception for a problem at the current position.
   *
   * @param problem what was wrong, with the offending value quoted, and what was expected
   */
  public ConversionException(String problem) {
    super(problem);
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /**
   * Creates an exception for a problem at the current position, with its cause.
   *
   * @param problem what was wrong, with the offending value quoted, and what was expected
   * @param cause the underlying failure
   */
  public ConversionException(String problem, Throwable cause) {
    super(problem, cause);
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /**
   * Records that the problem lies inside a field. Called by generated code as the exception leaves
   * a conversion function.
   *
   * @param field the Java property name
   * @return this exception
   */
  public ConversionException within(String field) {
    segments.addFirst(Objects.requireNonNull(field, "field"));
    return this;
  }

  /**
   * Records that the problem lies inside an element of a list.
   *
   * @param index the element's index
   * @return this exception
   */
  public ConversionException withinIndex(int index) {
    segments.addFirst("[" + index + "]");
    return this;
  }

  /**
   * Records that the problem lies inside a value of a map.
   *
   * @param key the entry's key
   * @return this exception
   */
  public ConversionException withinKey(Object key) {
    segments.addFirst("[" + key + "]");
    return this;
  }

  /**
   * Returns the path from the converted object to the field at fault, such as {@code
   * spec.containers[0].ports[1].protocol}; empty when the problem is the object itself.
   *
   * @return the path
   */
  public String path() {
    StringBuilder path = new StringBuilder();
    for (String segment : segments) {
      if (path.length() > 0 && segment.charAt(0) != '[') {
        path.append('.');
      }
      path.append(segment);
    }
    return path.toString();
  }

  /**
   * Returns the problem without the path.
   *
   * @return the problem
   */
  public String problem() {
    return problem;
  }

  /**
   * Returns the path, if any, and the problem: {@code spec.protocol: "SCTP" is not one of TCP,
   * UDP}.
   *
   * @return the message
   */
  @Override
  public String getMessage() {
    String path = path();
    return path.isEmpty() ? problem : path + ": " + problem;
  }

  /**
   * A fault of the program, not of the input: {@code InternalError}.
   *
   * @return {@code InternalError}
   */
  @Override
  public String statusReason() {
    return "InternalError";
  }

  /**
   * A fault of the program, not of the input: 500.
   *
   * @return 500
   */
  @Override
  public int statusCode() {
    return 500;
  }
}
