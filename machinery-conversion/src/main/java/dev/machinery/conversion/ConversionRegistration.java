package dev.machinery.conversion;

/**
 * A set of conversion and deep-copy functions that registers itself into a {@link
 * Converter.Builder}. The classes that the generator writes ({@code GeneratedConversions} and
 * {@code GeneratedDeepCopy} in each processed package) implement it, and so may a hand-written
 * group of functions.
 *
 * <p>Implementations are stateless and therefore safe to share between threads.
 */
@FunctionalInterface
public interface ConversionRegistration {
  /**
   * Adds this registration's functions to a builder.
   *
   * @param builder the builder
   */
  void registerTo(Converter.Builder builder);
}
