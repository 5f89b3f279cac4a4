package dev.machinery.controller.clock;

/**
 * A wake-up scheduled on a {@link Clock}, which can be called off.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface Cancellable {
  /**
   * Calls the wake-up off; does nothing when it already ran or was called off.
   *
   * @return true when this call stopped it from running
   */
  boolean cancel();
}
