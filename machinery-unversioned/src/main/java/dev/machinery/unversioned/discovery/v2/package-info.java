/**
 * Aggregated discovery ({@code apidiscovery.k8s.io/v2}): {@link
 * dev.machinery.unversioned.discovery.v2.APIGroupDiscoveryList} describes every group, version and
 * resource of a server in one document, which kubectl 1.26 and later asks for first. {@link
 * dev.machinery.unversioned.discovery.v2.DiscoveryV2} registers the types.
 *
 * <p>Every class here has a generated deep copy ({@code GeneratedDeepCopy}), so the generated
 * conversions and deep copies of any API can hold these types.
 */
@GenerateDeepCopy
package dev.machinery.unversioned.discovery.v2;

import dev.machinery.conversion.GenerateDeepCopy;
