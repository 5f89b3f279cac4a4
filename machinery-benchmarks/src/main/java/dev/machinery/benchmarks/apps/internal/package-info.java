/**
 * The internal form of the benchmark's Deployment, differing from {@code apps/v1} as Kubernetes'
 * does: {@code replicas} is a plain {@code int} and {@code PodSpec} has no deprecated {@code
 * serviceAccount}. Deep copies are generated.
 */
@GenerateDeepCopy
package dev.machinery.benchmarks.apps.internal;

import dev.machinery.conversion.GenerateDeepCopy;
