package dev.machinery.core.codec;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown in {@link FieldValidation#STRICT} mode when a document has unknown or duplicate fields.
 * Lists every one of them, not the first only, as Kubernetes' {@code strict decoding error}.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class StrictDecodingException extends DecodeException {
  private static final long serialVersionUID = 1L;

  private final transient List<FieldProblem> problems;

  /**
   * Creates the exception.
   *
   * @param problems every unknown and duplicate field, in document order
   */
  public StrictDecodingException(List<FieldProblem> problems) {
    super(
        "strict decoding error: "
            + problems.stream().map(FieldProblem::toString).collect(Collectors.joining(", ")),
        problems.isEmpty() ? "" : problems.get(0).path());
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns every unknown and duplicate field found.
   *
   * @return the problems, in document order
   */
  public List<FieldProblem> problems() {
    return problems;
  }
}
