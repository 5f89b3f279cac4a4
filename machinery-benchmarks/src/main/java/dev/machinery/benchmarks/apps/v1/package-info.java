/**
 * The benchmark document's {@code apps/v1} types, modelled field for field on Kubernetes'
 * Deployment as the benchmark data's README describes: {@link
 * dev.machinery.benchmarks.apps.v1.Deployment} and the types it holds.
 */
package dev.machinery.benchmarks.apps.v1;
