package dev.machinery.examples.apps;

import java.util.List;

/**
 * One container of a pod ({@code Container}), the fields this example models. Components are in
 * Kubernetes' field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param name the name
 * @param image the image
 * @param args the arguments
 * @param ports the ports
 * @param env the environment
 * @param resources requests and limits
 * @param livenessProbe when to restart the container
 * @param readinessProbe when the container can serve
 * @param imagePullPolicy {@code Always}, {@code IfNotPresent} or {@code Never}
 */
public record Container(
    String name,
    String image,
    List<String> args,
    List<ContainerPort> ports,
    List<EnvVar> env,
    ResourceRequirements resources,
    Probe livenessProbe,
    Probe readinessProbe,
    String imagePullPolicy) {}
