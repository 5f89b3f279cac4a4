package dev.machinery.core.schema;

import dev.machinery.MachineryException;

/**
 * Thrown when a group, version, kind or resource identifier, or one of their string forms, is
 * malformed. The message quotes the offending input and says what was expected.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class MalformedIdentifierException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String input;

  /**
   * Creates the exception.
   *
   * @param input the offending input, as given
   * @param message the full message
   */
  public MalformedIdentifierException(String input, String message) {
    super(message);
    this.input = input;
  }

  /**
   * Returns the offending input as it was given.
   *
   * @return the input
   */
  public String input() {
    return input;
  }
}
