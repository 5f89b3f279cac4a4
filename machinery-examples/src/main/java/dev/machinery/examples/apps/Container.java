package dev.machinery.examples.apps;

import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
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
    @PatchStrategy("merge")
        @PatchMergeKey("containerPort")
        @ListType("map")
        @ListMapKeys({"containerPort", "protocol"})
        List<ContainerPort> ports,
    @PatchStrategy("merge") @PatchMergeKey("name") @ListType("map") @ListMapKeys("name")
        List<EnvVar> env,
    ResourceRequirements resources,
    Probe livenessProbe,
    Probe readinessProbe,
    String imagePullPolicy) {}
