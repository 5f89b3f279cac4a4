/**
 * The storage side of RBAC, as Go's {@code pkg/registry/rbac}: {@link
 * dev.machinery.apiserver.registry.rbac.RbacSupport} defines the four RBAC resources with their
 * validation and escalation prevention (made as the request's user), reconciles the default roles
 * and bindings at start, and keeps aggregated ClusterRoles up to date.
 */
package dev.machinery.apiserver.registry.rbac;
