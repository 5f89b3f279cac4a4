/**
 * Discovery documents built from a Scheme, as kube-apiserver serves them: {@link
 * dev.machinery.apiserver.discovery.Discovery} answers {@code /api}, {@code /apis}, {@code
 * /apis/{group}}, {@code /apis/{group}/{version}} and the aggregated form, from the resources
 * described by {@link dev.machinery.unversioned.discovery.ResourceInfo} and the groups and versions
 * an {@link dev.machinery.unversioned.discovery.Enablement} switches on.
 */
package dev.machinery.apiserver.discovery;
