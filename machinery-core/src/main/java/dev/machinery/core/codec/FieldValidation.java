package dev.machinery.core.codec;

/**
 * What a decoder does with fields it does not know and fields given twice, as Kubernetes' {@code
 * fieldValidation} query parameter.
 *
 * <p>Duplicate {@code apiVersion} or {@code kind} fields are an error in every mode: they decide
 * the type, and a document must name it once. Immutable.
 */
public enum FieldValidation {
  /** Drop unknown fields silently; for a field given twice, the last value wins. */
  IGNORE,
  /**
   * Decode as {@link #IGNORE} does, and hand back every unknown and duplicate field, with its path,
   * as a warning in {@link Decoded#warnings()}.
   */
  WARN,
  /**
   * Fail with a {@link StrictDecodingException} that lists every unknown and duplicate field with
   * its path.
   */
  STRICT
}
