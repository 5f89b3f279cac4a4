/**
 * The benchmark's {@link dev.machinery.benchmarks.meta.LabelSelector}, a {@code meta.k8s.io/v1}
 * type the library does not ship yet, used unchanged by every version and the internal form, as in
 * Kubernetes. Objects carry the library's own {@code ObjectMeta}.
 */
@GenerateDeepCopy
package dev.machinery.benchmarks.meta;

import dev.machinery.conversion.GenerateDeepCopy;
