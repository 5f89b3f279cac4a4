package dev.machinery.examples.apps;

import dev.machinery.unversioned.resource.Quantity;
import java.util.Map;

/**
 * Compute resources a container asks for and may use ({@code ResourceRequirements}). Components are
 * in Kubernetes' field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param limits the most it may use
 * @param requests what it asks for
 */
public record ResourceRequirements(Map<String, Quantity> limits, Map<String, Quantity> requests) {}
