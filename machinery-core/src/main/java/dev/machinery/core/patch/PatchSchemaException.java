package dev.machinery.core.patch;

import dev.machinery.MachineryException;
import java.util.List;

/**
 * An OpenAPI document whose patch metadata cannot be read: an {@code x-kubernetes-patch-strategy}
 * or {@code x-kubernetes-patch-merge-key} that is not a string, a strategy Kubernetes does not
 * have, a {@code $ref} to a schema the document lacks. Every problem is listed with where it is (a
 * JSON pointer into the document), so that one build reports all of them.
 *
 * <p>Immutable; safe to share between threads.
 */
public final class PatchSchemaException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** The problems, each {@code <pointer>: <what>}. */
  @SuppressWarnings("serial") // an immutable List.copyOf of strings
  private final List<String> problems;

  PatchSchemaException(List<String> problems) {
    super(
        problems.size() == 1
            ? problems.get(0)
            : problems.size() + " problems in the patch metadata: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /**
   * Returns every problem, each as {@code <JSON pointer>: <what is wrong>}.
   *
   * @return the problems, in document order
   */
  public List<String> problems() {
    return problems;
  }
}
