/**
 * JMH benchmarks of Machinery against plain Jackson and fabric8's kubernetes-model: {@link
 * dev.machinery.benchmarks.CodecBenchmark} and {@link
 * dev.machinery.benchmarks.FirstDecodeBenchmark}, on the document of {@link
 * dev.machinery.benchmarks.BenchmarkData}.
 */
package dev.machinery.benchmarks;
