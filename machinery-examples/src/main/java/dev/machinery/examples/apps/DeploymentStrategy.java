package dev.machinery.examples.apps;

/**
 * How a Deployment replaces pods ({@code DeploymentStrategy}). Components are in Kubernetes' field
 * order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param type {@code RollingUpdate} or {@code Recreate}
 * @param rollingUpdate the rolling update parameters
 */
public record DeploymentStrategy(String type, RollingUpdateDeployment rollingUpdate) {}
