package dev.machinery.restmapper;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A kubectl-style argument that is not well formed, naming it and the forms expected. Immutable.
 */
public final class ResourceArgumentException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String argument;

  /**
   * Creates the exception.
   *
   * @param argument the argument as given
   * @param message what is wrong and the forms expected
   */
  public ResourceArgumentException(String argument, String message) {
    super(message);
    this.argument = Objects.requireNonNull(argument, "argument");
  }

  /**
   * Returns the argument as given.
   *
   * @return the argument
   */
  public String argument() {
    return argument;
  }
}
