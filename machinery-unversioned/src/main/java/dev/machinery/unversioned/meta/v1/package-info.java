/**
 * The {@code meta.k8s.io/v1} types every API group shares: {@link
 * dev.machinery.unversioned.meta.v1.ObjectMeta}, {@link
 * dev.machinery.unversioned.meta.v1.ListMeta}, {@link dev.machinery.unversioned.meta.v1.Status},
 * the legacy discovery documents, the options, {@link dev.machinery.unversioned.meta.v1.Table},
 * {@link dev.machinery.unversioned.meta.v1.PartialObjectMetadata} and {@link
 * dev.machinery.unversioned.meta.v1.Scale}. JSON names and omission rules follow Kubernetes';
 * {@link dev.machinery.unversioned.meta.v1.MetaV1} registers them into a Scheme.
 *
 * <p>Every class here has a generated deep copy ({@code GeneratedDeepCopy}), so the generated
 * conversions and deep copies of any API can hold these types.
 */
@GenerateDeepCopy
package dev.machinery.unversioned.meta.v1;

import dev.machinery.conversion.GenerateDeepCopy;
