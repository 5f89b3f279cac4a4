package dev.machinery.core.runtime;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Optional;

/**
 * Thrown when a kind or a Java type is not registered in a {@link Scheme}. The message names what
 * was asked for and what is registered nearby (the kinds of that version, the versions of that
 * group, a differently capitalised kind).
 *
 * <p>Immutable and safe to share between threads.
 */
public final class NotRegisteredException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient GroupVersionKind kind;
  private final transient Class<?> type;

  /**
   * Creates the exception for a kind.
   *
   * @param kind the kind asked for
   * @param message the full message
   */
  public NotRegisteredException(GroupVersionKind kind, String message) {
    super(message);
    this.kind = kind;
    this.type = null;
  }

  /**
   * Creates the exception for a Java type.
   *
   * @param type the type asked about
   * @param message the full message
   */
  public NotRegisteredException(Class<?> type, String message) {
    super(message);
    this.kind = null;
    this.type = type;
  }

  /**
   * Returns the kind that was asked for, when the lookup was by kind.
   *
   * @return the kind, or empty
   */
  public Optional<GroupVersionKind> kind() {
    return Optional.ofNullable(kind);
  }

  /**
   * Returns the Java type that was asked about, when the lookup was by type.
   *
   * @return the type, or empty
   */
  public Optional<Class<?>> type() {
    return Optional.ofNullable(type);
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
