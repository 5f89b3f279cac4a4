/**
 * An embeddable Kubernetes-style API server: {@link dev.machinery.apiserver.ApiServer} serves a
 * Scheme's kinds as described by {@link dev.machinery.apiserver.registry.rest.ResourceDefinition}s,
 * with lists as {@link dev.machinery.apiserver.registry.rest.ResourceList} and a resource's own
 * checks as a {@link dev.machinery.apiserver.registry.rest.ResourceValidator}.
 */
package dev.machinery.apiserver;
