package dev.machinery.examples.apps;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A port a container listens on ({@code ContainerPort}). Components are in Kubernetes' field order,
 * so that the JSON is written as kube-apiserver writes it.
 *
 * @param name the port's name
 * @param containerPort the port number
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}; {@code TCP} when left out, as
 *     Kubernetes' {@code +default="TCP"} (so a port applied without it is the TCP one)
 */
public record ContainerPort(
    String name, Integer containerPort, @JsonProperty(defaultValue = "TCP") String protocol) {}
