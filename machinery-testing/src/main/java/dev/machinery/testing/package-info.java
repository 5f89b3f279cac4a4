/**
 * Test support for API types: {@link dev.machinery.testing.Fuzzer} fills any record or bean with
 * seeded random values, {@link dev.machinery.testing.SemanticEquality} compares field by field and
 * names every difference, {@link dev.machinery.testing.RoundTrip} proves conversion and encoding
 * lossless for every kind of a Scheme (shrinking a failing object before reporting it), and {@link
 * dev.machinery.testing.GoldenFixtures} keeps every kind's encoding stable across releases.
 */
package dev.machinery.testing;
