/**
 * What a server knows of each resource it serves, as Go's {@code
 * k8s.io/apiserver/pkg/registry/rest}: {@link
 * dev.machinery.apiserver.registry.rest.ResourceDefinition} (names, scope, verbs, subresources,
 * schemas and the strategies a write goes through), {@link
 * dev.machinery.apiserver.registry.rest.ObjectNormalizer} and {@link
 * dev.machinery.apiserver.registry.rest.ResourceValidator} (a resource's own normalization and
 * validation), {@link dev.machinery.apiserver.registry.rest.UnstructuredConversion} (how objects
 * without classes move between versions) and {@link
 * dev.machinery.apiserver.registry.rest.ResourceList} (the list kinds a Scheme registers). Every
 * other package of the server depends on it; it depends on none of them but negotiation's views.
 */
package dev.machinery.apiserver.registry.rest;
