package dev.machinery.core.merge;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An apply refused because other managers own fields it would change; applying again with force
 * takes them. Callers that serve Kubernetes' API turn it into a {@code 409 Conflict}.
 */
public final class ConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The conflicts. */
  private final transient List<Conflict> conflicts;

  /**
   * Creates the exception.
   *
   * @param conflicts the conflicts, at least one, in the order to report them
   */
  public ConflictException(List<Conflict> conflicts) {
    super(message(conflicts));
    this.conflicts = List.copyOf(conflicts);
  }

  /**
   * Returns the conflicts: by manager, then in the owner's field set order.
   *
   * @return the conflicts, never empty
   */
  public List<Conflict> conflicts() {
    return conflicts;
  }

  private static String message(List<Conflict> conflicts) {
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("a conflict exception needs at least one conflict");
    }
    if (conflicts.size() == 1) {
      return conflicts.get(0).toString();
    }
    return conflicts.size()
        + " conflicts: "
        + conflicts.stream().map(Conflict::toString).collect(Collectors.joining("; "));
  }
}
