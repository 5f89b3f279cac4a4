package dev.machinery.examples.apps;

import dev.machinery.unversioned.intstr.IntOrString;

/**
 * The bounds of a rolling update ({@code RollingUpdateDeployment}): counts or percentages.
 * Components are in Kubernetes' field order, so that the JSON is written as kube-apiserver writes
 * it.
 *
 * @param maxUnavailable how many pods may be unavailable
 * @param maxSurge how many pods may exceed the desired count
 */
public record RollingUpdateDeployment(IntOrString maxUnavailable, IntOrString maxSurge) {}
