/**
 * Machinery conversion: typed conversion and deep-copy functions between classes, registered once
 * in an immutable {@link dev.machinery.conversion.Converter}, the annotations that ask the
 * compile-time generator (artifact {@code machinery-conversion-processor}) to write them, and the
 * root exception {@link dev.machinery.MachineryException}. The lowest layer of Machinery: it knows
 * classes, not API groups, and needs nothing beyond the JDK.
 */
module dev.machinery.conversion {
  exports dev.machinery;
  exports dev.machinery.conversion;
}
