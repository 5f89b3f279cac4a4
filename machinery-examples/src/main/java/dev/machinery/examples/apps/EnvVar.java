package dev.machinery.examples.apps;

/**
 * An environment variable ({@code EnvVar}). Components are in Kubernetes' field order, so that the
 * JSON is written as kube-apiserver writes it.
 *
 * @param name the name
 * @param value the value
 */
public record EnvVar(String name, String value) {}
