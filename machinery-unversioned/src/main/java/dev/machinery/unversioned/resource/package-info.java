/**
 * Resource quantities as Kubernetes writes them ({@code k8s.io/apimachinery/pkg/api/resource}):
 * {@link dev.machinery.unversioned.resource.Quantity}, a fixed-point number with a decimal SI,
 * binary SI or decimal exponent suffix, such as {@code 500m}, {@code 1Gi} or {@code 1e3}.
 */
package dev.machinery.unversioned.resource;
