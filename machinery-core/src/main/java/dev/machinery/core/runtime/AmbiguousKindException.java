package dev.machinery.core.runtime;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;

/**
 * Thrown when an object's Java type is registered under several kinds and the object does not say
 * (by its {@code apiVersion} and {@code kind}) which one it is. The message and {@link
 * #candidates()} list every kind it could be.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class AmbiguousKindException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient Class<?> type;
  private final transient List<GroupVersionKind> candidates;

  /**
   * Creates the exception.
   *
   * @param type the object's type
   * @param candidates every kind the type is registered under
   * @param message the full message
   */
  public AmbiguousKindException(Class<?> type, List<GroupVersionKind> candidates, String message) {
    super(message);
    this.type = type;
    this.candidates = List.copyOf(candidates);
  }

  /**
   * Returns the object's type.
   *
   * @return the type
   */
  public Class<?> type() {
    return type;
  }

  /**
   * Returns every kind the type is registered under.
   *
   * @return the candidates, in registration order
   */
  public List<GroupVersionKind> candidates() {
    return candidates;
  }
}
