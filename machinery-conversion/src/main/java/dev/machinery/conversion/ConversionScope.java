package dev.machinery.conversion;

import java.util.Objects;
import java.util.Set;

/**
 * What a conversion function may use besides its input: nested conversion and deep copy through the
 * same {@link Converter}, the caller's flags, and the way to report a value that cannot be
 * converted (with the field path filled in as the error leaves each enclosing generated function).
 *
 * <p>Immutable and safe to share between threads; one scope serves a whole conversion.
 */
public final class ConversionScope {
  private final Converter converter;
  private final Set<String> flags;

  ConversionScope(Converter converter, Set<String> flags) {
    this.converter = converter;
    this.flags = Set.copyOf(flags);
  }

  /**
   * Converts a nested value through the converter's function for its class and {@code target}.
   *
   * @param in the value, possibly {@code null}
   * @param target the class wanted
   * @param <T> the class wanted
   * @return the converted value; {@code null} for {@code null}
   * @throws NoConversionException if no function is registered for the pair
   * @throws ConversionException if the function fails
   */
  public <T> T convert(Object in, Class<T> target) {
    return in == null ? null : converter.convert(in, target, this);
  }

  /**
   * Deep-copies a nested value through the converter's function for its class.
   *
   * @param in the value, possibly {@code null}
   * @param <T> the value's class
   * @return the copy; {@code null} for {@code null}
   * @throws NoConversionException if no deep-copy function is registered for the class
   */
  public <T> T deepCopy(T in) {
    return in == null ? null : converter.deepCopy(in);
  }

  /**
   * Returns whether the caller set a flag. Flags are the caller's vocabulary (for example {@code
   * "storage"} when converting for storage); Machinery defines none itself.
   *
   * @param flag the flag
   * @return true if set
   */
  public boolean hasFlag(String flag) {
    return flags.contains(Objects.requireNonNull(flag, "flag"));
  }

  /**
   * Returns every flag the caller set.
   *
   * @return the flags
   */
  public Set<String> flags() {
    return flags;
  }

  /**
   * Returns the exception for a value that cannot be converted, for the function to throw; the
   * enclosing generated functions add the field path.
   *
   * @param problem what was wrong, with the offending value quoted, and what was expected
   * @return the exception
   */
  public ConversionException fail(String problem) {
    return new ConversionException(problem);
  }

  /**
   * Returns the converter behind this scope.
   *
   * @return the converter
   */
  public Converter converter() {
    return converter;
  }
}
