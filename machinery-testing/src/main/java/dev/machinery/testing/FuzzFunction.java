package dev.machinery.testing;

/**
 * Makes a value of one type or for one property, in place of the fuzzer's own rule: for a quantity
 * in its canonical form, or a field whose default would otherwise overwrite it. Must be stateless
 * and draw all its randomness from the context.
 *
 * @param <T> the type made
 */
@FunctionalInterface
public interface FuzzFunction<T> {
  /**
   * Makes a value.
   *
   * @param context the random source and nested fuzzing
   * @return the value
   */
  T fuzz(FuzzContext context);
}
