package dev.machinery.conversion;

import dev.machinery.MachineryException;
import java.util.List;

/**
 * The registrations given to a {@link Converter.Builder} conflict; lists every problem found, not
 * only the first. Immutable and safe to share between threads.
 */
public final class ConverterBuildException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  /**
   * Creates the exception.
   *
   * @param problems every problem, one sentence each
   */
  public ConverterBuildException(List<String> problems) {
    super(
        problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + " in the conversion registrations:\n  - "
            + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns every problem found.
   *
   * @return the problems, one sentence each
   */
  public List<String> problems() {
    return problems;
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
