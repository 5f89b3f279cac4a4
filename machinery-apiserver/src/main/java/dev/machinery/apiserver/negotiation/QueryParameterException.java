package dev.machinery.apiserver.negotiation;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A query parameter that cannot be read: names the parameter, its value and what was expected.
 * Immutable.
 */
public final class QueryParameterException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String parameter;

  /**
   * Creates the exception.
   *
   * @param parameter the parameter name
   * @param message what is wrong, with the value, and what was expected
   */
  public QueryParameterException(String parameter, String message) {
    super(message);
    this.parameter = Objects.requireNonNull(parameter, "parameter");
  }

  /**
   * Returns the parameter name.
   *
   * @return the name
   */
  public String parameter() {
    return parameter;
  }
}
