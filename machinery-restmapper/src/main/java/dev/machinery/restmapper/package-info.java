/**
 * Mapping between kinds and REST resources, as Kubernetes' {@code meta.RESTMapper}: {@link
 * dev.machinery.restmapper.RESTMapper} and its {@link dev.machinery.restmapper.RESTMapping}s;
 * {@link dev.machinery.restmapper.DefaultRESTMapper}, {@link
 * dev.machinery.restmapper.MultiRESTMapper}, {@link dev.machinery.restmapper.PriorityRESTMapper}
 * and {@link dev.machinery.restmapper.LazyRESTMapper}; {@link
 * dev.machinery.restmapper.DiscoveryRESTMapper} built from discovery documents (short names,
 * categories) or a Scheme; {@link dev.machinery.restmapper.ResourceArguments} for kubectl-style
 * arguments.
 */
package dev.machinery.restmapper;
