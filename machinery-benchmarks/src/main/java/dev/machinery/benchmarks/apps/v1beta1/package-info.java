/**
 * The benchmark document's {@code apps/v1beta1} types, modelled field for field on Kubernetes'
 * Deployment as the benchmark data's README describes: {@link
 * dev.machinery.benchmarks.apps.v1beta1.Deployment} and the types it holds. Conversions to and from
 * {@link dev.machinery.benchmarks.apps.internal} are generated; {@code PodSpecConversions} holds
 * the hand-written part (the deprecated {@code serviceAccount}).
 */
@GenerateConversions(
    internalPackage = "dev.machinery.benchmarks.apps.internal",
    uses = StandardConversions.class)
package dev.machinery.benchmarks.apps.v1beta1;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
