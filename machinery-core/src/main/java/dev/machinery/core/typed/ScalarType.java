package dev.machinery.core.typed;

/** The kinds of scalar a schema knows, as structured-merge-diff's {@code Scalar} names them. */
public enum ScalarType {
  /** An integer or floating-point number. */
  NUMERIC,
  /** A string. */
  STRING,
  /** {@code true} or {@code false}. */
  BOOLEAN,
  /** Any scalar: a number, a string or a boolean (an int-or-string, a quantity, a date). */
  UNTYPED;

  /**
   * Returns the name structured-merge-diff gives the kind: {@code numeric}, {@code string}, {@code
   * boolean}, {@code untyped}.
   *
   * @return the name
   */
  public String schemaName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
