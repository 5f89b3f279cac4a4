package dev.machinery.unversioned.discovery;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * An enablement setting ({@code --runtime-config} style) that cannot be read, naming the entry and
 * what was expected. Immutable.
 */
public final class RuntimeConfigException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final String entry;

  /**
   * Creates the exception.
   *
   * @param entry the offending entry, such as {@code apps/v1=maybe}
   * @param message the message, naming the entry and what was expected
   */
  public RuntimeConfigException(String entry, String message) {
    super(message);
    this.entry = Objects.requireNonNull(entry, "entry");
  }

  /**
   * Returns the offending entry.
   *
   * @return the entry
   */
  public String entry() {
    return entry;
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
