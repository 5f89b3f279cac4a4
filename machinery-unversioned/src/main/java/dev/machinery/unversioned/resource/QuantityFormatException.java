package dev.machinery.unversioned.resource;

import dev.machinery.MachineryException;

/**
 * A string that is not a Kubernetes quantity: malformed, with an unknown suffix, or beyond the
 * bounds a quantity may take. Carries the offending text.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class QuantityFormatException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** Kubernetes' grammar for a quantity, as its error messages quote it. */
  static final String GRAMMAR = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

  private final String text;

  QuantityFormatException(String text, String problem) {
    super("quantity " + show(text) + ": " + problem);
    this.text = text;
  }

  private static String show(String text) {
    if (text.length() > 40) {
      return "\"" + text.substring(0, 40) + "…\" (" + text.length() + " characters)";
    }
    return "\"" + text + "\"";
  }

  /**
   * Returns the text that failed to parse.
   *
   * @return the text
   */
  public String text() {
    return text;
  }
}
