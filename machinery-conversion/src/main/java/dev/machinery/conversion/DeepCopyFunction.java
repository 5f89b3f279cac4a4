package dev.machinery.conversion;

/**
 * Copies an object so that the copy shares no mutable state with the original.
 *
 * <p>A function receives {@code null} for {@code null} and returns {@code null}. Functions are
 * called from many threads at once and must be stateless.
 *
 * @param <T> the class copied
 */
@FunctionalInterface
public interface DeepCopyFunction<T> {
  /**
   * Copies {@code in}.
   *
   * @param in the object, possibly {@code null}
   * @return the copy
   */
  T deepCopy(T in);
}
