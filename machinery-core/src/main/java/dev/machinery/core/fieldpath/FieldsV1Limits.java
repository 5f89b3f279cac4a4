package dev.machinery.core.fieldpath;

/**
 * Bounds on the {@code FieldsV1} input a reader accepts, so that hostile input is refused with a
 * {@link FieldPathException} rather than overflowing the stack or exhausting memory: the length of
 * the input (bytes of UTF-8 input, characters of a string) and the nesting depth of its JSON (that
 * of the field set, and that of the JSON inside each {@code k:} and {@code v:} key).
 *
 * @param maxLength the most bytes (or characters, for a string) the input may have
 * @param maxDepth the deepest nesting of JSON objects and arrays
 */
public record FieldsV1Limits(int maxLength, int maxDepth) {
  /** 16 MiB of input (several times the largest object kube-apiserver stores) and depth 1,000. */
  public static final FieldsV1Limits DEFAULTS = new FieldsV1Limits(16 << 20, 1_000);

  /**
   * Checks the bounds.
   *
   * @param maxLength the most bytes (or characters, for a string) the input may have
   * @param maxDepth the deepest nesting of JSON objects and arrays
   */
  public FieldsV1Limits {
    if (maxLength < 2 || maxDepth < 1) {
      throw new IllegalArgumentException("maxLength must be at least 2 and maxDepth positive");
    }
  }
}
