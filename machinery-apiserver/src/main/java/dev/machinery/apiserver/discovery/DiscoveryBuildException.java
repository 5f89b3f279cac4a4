package dev.machinery.apiserver.discovery;

import dev.machinery.MachineryException;
import java.util.List;

/** The resources given to a {@link Discovery.Builder} conflict; lists every problem. Immutable. */
public final class DiscoveryBuildException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  /**
   * Creates the exception.
   *
   * @param problems every problem, one sentence each
   */
  public DiscoveryBuildException(List<String> problems) {
    super(
        problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + " in the discovery resources:\n  - "
            + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns every problem.
   *
   * @return the problems
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
