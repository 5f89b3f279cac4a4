package dev.machinery.core.codec;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown in {@link FieldValidation#STRICT} mode when a document has unknown or duplicate fields.
 * Lists them all, not the first only, as Kubernetes' {@code strict decoding error}, within bounds a
 * hostile document cannot inflate: {@link #problems()} keeps the first 100 and {@link
 * #omittedCount()} counts the rest; the message names the first {@value #MAX_IN_MESSAGE}.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class StrictDecodingException extends DecodeException {
  private static final long serialVersionUID = 1L;

  /** The most problems the message names. */
  public static final int MAX_IN_MESSAGE = 20;

  private final transient List<FieldProblem> problems;
  private final int omittedCount;

  /**
   * Creates the exception.
   *
   * @param problems the unknown and duplicate fields kept, in document order
   * @param omittedCount how many more were found and not kept
   */
  public StrictDecodingException(List<FieldProblem> problems, int omittedCount) {
    super(message(problems, omittedCount), problems.isEmpty() ? "" : problems.get(0).path());
    this.problems = List.copyOf(problems);
    this.omittedCount = omittedCount;
  }

  /**
   * Creates the exception for a complete list of problems.
   *
   * @param problems every unknown and duplicate field, in document order
   */
  public StrictDecodingException(List<FieldProblem> problems) {
    this(problems, 0);
  }

  private StrictDecodingException(StrictDecodingException e, String where, int document) {
    super(e.located(where), e.fieldPath(), 0, 0, e, document);
    this.problems = e.problems;
    this.omittedCount = e.omittedCount;
  }

  @Override
  StrictDecodingException in(String where, int document) {
    return new StrictDecodingException(this, where, document);
  }

  private static String message(List<FieldProblem> problems, int omittedCount) {
    String named =
        problems.stream()
            .limit(MAX_IN_MESSAGE)
            .map(FieldProblem::toString)
            .collect(Collectors.joining(", "));
    int more = problems.size() - Math.min(problems.size(), MAX_IN_MESSAGE) + omittedCount;
    return "strict decoding error: " + named + (more > 0 ? ", and " + more + " more" : "");
  }

  /**
   * Returns how many unknown or duplicate fields were found beyond those in {@link #problems()}.
   *
   * @return the count not kept
   */
  public int omittedCount() {
    return omittedCount;
  }

  /**
   * Returns the unknown and duplicate fields kept (the first 100 found).
   *
   * @return the problems: unknown fields, then duplicates, each in document order
   */
  public List<FieldProblem> problems() {
    return problems;
  }
}
