/**
 * Aggregated discovery ({@code apidiscovery.k8s.io/v2}): {@link
 * dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList} describes every group, version and
 * resource of a server in one document, which kubectl 1.26 and later asks for first. {@link
 * dev.machinery.unversioned.discovery.v2.DiscoveryV2} registers the types.
 */
package dev.machinery.unversioned.discovery.v2;
