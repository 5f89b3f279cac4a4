/**
 * The benchmark's shared {@code meta.k8s.io/v1} types, {@link
 * dev.machinery.benchmarks.meta.ObjectMeta} and {@link
 * dev.machinery.benchmarks.meta.LabelSelector}, used unchanged by every version and the internal
 * form, as in Kubernetes.
 */
@GenerateDeepCopy
package dev.machinery.benchmarks.meta;

import dev.machinery.conversion.GenerateDeepCopy;
