package dev.machinery.apiserver.negotiation;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A media type or Accept header that is not well formed, naming the text and the fault. Immutable.
 */
public final class MalformedMediaTypeException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String input;

  /**
   * Creates the exception.
   *
   * @param input the offending text (cut to 200 characters)
   * @param message what is wrong, where, and what was expected
   */
  public MalformedMediaTypeException(String input, String message) {
    super(message);
    this.input = Objects.requireNonNull(input, "input");
  }

  /**
   * Returns the offending text, cut to 200 characters.
   *
   * @return the text
   */
  public String input() {
    return input;
  }
}
