/**
 * Machinery testing: a seeded {@link dev.machinery.testing.Fuzzer}, {@link
 * dev.machinery.testing.SemanticEquality} with readable diffs, the lossless {@link
 * dev.machinery.testing.RoundTrip} harness with shrinking and JUnit 5 dynamic tests, and {@link
 * dev.machinery.testing.GoldenFixtures} for compatibility across releases. For test scope.
 */
module dev.machinery.testing {
  requires transitive dev.machinery.unversioned;
  requires transitive org.junit.jupiter.api;

  exports dev.machinery.testing;
}
