package dev.machinery.unversioned.protobuf;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A {@code .proto} file that cannot be read: a syntax error, a construct outside the supported
 * proto2 subset, a duplicate name or number, or a type name that does not resolve. The message
 * names the file, the line and what was expected.
 */
public final class ProtoSchemaException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final String problem;

  /**
   * Creates the exception.
   *
   * @param file the file's path as it was given
   * @param line the 1-based line, or 0 when the problem belongs to no line
   * @param problem what is wrong, without the location
   */
  public ProtoSchemaException(String file, int line, String problem) {
    super(
        Objects.requireNonNull(file, "file")
            + (line > 0 ? ":" + line : "")
            + ": "
            + Objects.requireNonNull(problem, "problem"));
    this.file = file;
    this.line = line;
    this.problem = problem;
  }

  /**
   * Returns what is wrong, without the location.
   *
   * @return the problem, such as {@code expected ;, found "message"}
   */
  public String problem() {
    return problem;
  }

  /**
   * Returns the file the problem is in.
   *
   * @return the file's path as it was given
   */
  public String file() {
    return file;
  }

  /**
   * Returns the line of the problem.
   *
   * @return the 1-based line, or 0 when the problem belongs to no line
   */
  public int line() {
    return line;
  }
}
