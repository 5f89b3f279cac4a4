package dev.machinery.examples.apps;

/**
 * A port a container listens on ({@code ContainerPort}). Components are in Kubernetes' field order,
 * so that the JSON is written as kube-apiserver writes it.
 *
 * @param name the port's name
 * @param containerPort the port number
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}
 */
public record ContainerPort(String name, Integer containerPort, String protocol) {}
