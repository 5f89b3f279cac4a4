package dev.machinery.core.runtime;

import dev.machinery.MachineryException;
import java.util.List;

/**
 * Thrown by {@link Scheme.Builder#build()} with every conflict among the registrations at once (a
 * kind registered to two types, a version priority naming an unknown version, a group with no
 * internal version, ...), one per line of the message and one per element of {@link #problems()}.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class SchemeBuildException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  /**
   * Creates the exception.
   *
   * @param problems every conflict found, in registration order
   */
  public SchemeBuildException(List<String> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns every conflict found.
   *
   * @return the problems, in registration order
   */
  public List<String> problems() {
    return problems;
  }

  private static String message(List<String> problems) {
    StringBuilder out =
        new StringBuilder("the scheme has ")
            .append(problems.size())
            .append(problems.size() == 1 ? " problem:" : " problems:");
    for (String problem : problems) {
      out.append("\n  - ").append(problem);
    }
    return out.toString();
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
