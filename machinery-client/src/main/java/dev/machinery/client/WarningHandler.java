package dev.machinery.client;

/**
 * Receives the warnings a server sends in {@code Warning} headers ({@code rest.WarningHandler}):
 * deprecated versions, unknown fields under {@code fieldValidation=Warn}, admission's warnings.
 * Implementations must be safe for concurrent use: every request of a client calls the same
 * handler.
 */
@FunctionalInterface
public interface WarningHandler {
  /** Drops every warning. */
  WarningHandler NONE = (code, agent, text) -> {};

  /**
   * Handles one warning.
   *
   * @param code the warn code, 299 for Kubernetes' warnings
   * @param agent the warn agent, such as {@code -}
   * @param text the warning's text, unquoted
   */
  void handle(int code, String agent, String text);
}
