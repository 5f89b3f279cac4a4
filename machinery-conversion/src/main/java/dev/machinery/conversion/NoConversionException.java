package dev.machinery.conversion;

import java.util.Objects;

/**
 * No conversion function is registered for a class pair, or no deep-copy function for a class.
 * Names both classes (the same class twice for a deep copy) and, when raised during a nested
 * conversion, the field path. Like every {@link ConversionException}, complete and unchanged once
 * it reaches the caller.
 */
public final class NoConversionException extends ConversionException {
  private static final long serialVersionUID = 1L;

  private final transient Class<?> source;
  private final transient Class<?> target;

  /**
   * Creates the exception.
   *
   * @param source the class converted from
   * @param target the class asked for
   * @param problem the message, naming both classes
   */
  public NoConversionException(Class<?> source, Class<?> target, String problem) {
    super(problem);
    this.source = Objects.requireNonNull(source, "source");
    this.target = Objects.requireNonNull(target, "target");
  }

  /**
   * Returns the class converted from.
   *
   * @return the source class
   */
  public Class<?> source() {
    return source;
  }

  /**
   * Returns the class asked for.
   *
   * @return the target class
   */
  public Class<?> target() {
    return target;
  }
}
