package dev.machinery.conversion;

/**
 * Converts an object of one class into a new object of another.
 *
 * <p>A function receives {@code null} when the value to convert is {@code null} and decides what
 * that becomes (usually {@code null}; {@code 0} for {@code Integer} to {@code int}). It must not
 * change its input, and its result must not share mutable state with it. Functions are called from
 * many threads at once and must be stateless.
 *
 * @param <A> the source class
 * @param <B> the target class
 */
@FunctionalInterface
public interface ConversionFunction<A, B> {
  /**
   * Converts {@code in}.
   *
   * @param in the object to convert, possibly {@code null}
   * @param scope nested conversion, flags and error reporting for this conversion
   * @return the new object
   * @throws ConversionException if the value cannot be represented in the target class
   */
  B convert(A in, ConversionScope scope);
}
