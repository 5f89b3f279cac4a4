/**
 * The generic registry: a resource's objects in storage with kube-apiserver's rules for
 * server-managed metadata, concurrency, status, validation and dry runs ({@link
 * dev.machinery.apiserver.registry.ResourceStore}), and continue tokens. Internal to the module.
 */
package dev.machinery.apiserver.registry;
