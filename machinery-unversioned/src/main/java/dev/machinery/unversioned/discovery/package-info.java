/**
 * Discovery documents built from a Scheme: {@link dev.machinery.unversioned.discovery.Discovery}
 * answers {@code /api}, {@code /apis}, {@code /apis/{group}}, {@code /apis/{group}/{version}} and
 * the aggregated form, from the resources described by {@link
 * dev.machinery.unversioned.discovery.ResourceInfo} and the groups and versions an {@link
 * dev.machinery.unversioned.discovery.Enablement} switches on.
 */
package dev.machinery.unversioned.discovery;
