package dev.machinery.examples.apps;

import dev.machinery.unversioned.intstr.IntOrString;

/**
 * A TCP check ({@code TCPSocketAction}); the port is a number or a name. Components are in
 * Kubernetes' field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param port the port, by number or name
 */
public record TCPSocketAction(IntOrString port) {}
