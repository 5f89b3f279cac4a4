package dev.machinery.cluster.controller.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.ContainerPort;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.api.core.v1.ServicePort;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which pods belong in endpoints and what a Service port resolves to, the cases of Go's {@code
 * TestShouldPodBeInEndpoints} (endpointslice util) and {@code TestFindPort} (podutil).
 */
class EndpointPodsTest {
  private static Pod pod(String restart, String phase, String ip, boolean deleting) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("p");
    meta.setNamespace("ns");
    if (deleting) {
      meta.setDeletionTimestamp(Instant.parse("2020-01-01T00:00:00Z"));
    }
    pod.setMetadata(meta);
    PodSpec spec = new PodSpec();
    spec.setRestartPolicy(restart);
    pod.setSpec(spec);
    PodStatus status = new PodStatus();
    status.setPhase(phase);
    status.setPodIP(ip);
    pod.setStatus(status);
    return pod;
  }

  static Stream<Arguments> shouldBeInEndpoints() {
    String ip = "1.2.3.4";
    return Stream.of(
        Arguments.of(
            "Failed pod, restartPolicy Never", pod("Never", "Failed", ip, false), false, false),
        Arguments.of(
            "Succeeded pod, restartPolicy Never",
            pod("Never", "Succeeded", ip, false),
            false,
            false),
        Arguments.of(
            "Succeeded pod, restartPolicy OnFailure",
            pod("OnFailure", "Succeeded", ip, false),
            false,
            false),
        Arguments.of(
            "Failed pod, restartPolicy OnFailure",
            pod("OnFailure", "Failed", ip, false),
            false,
            true),
        Arguments.of(
            "Running pod, restartPolicy Never", pod("Never", "Running", ip, false), false, true),
        Arguments.of(
            "Failed pod, restartPolicy Always", pod("Always", "Failed", ip, false), false, true),
        Arguments.of(
            "Pending pod without an IP", pod("Always", "Pending", null, false), false, false),
        Arguments.of(
            "Pod with an IPv6 address only",
            pod("Always", "Running", "fd00::1", false),
            false,
            false),
        Arguments.of(
            "Terminating pod, terminating excluded",
            pod("Always", "Running", ip, true),
            false,
            false),
        Arguments.of(
            "Terminating pod, terminating included",
            pod("Always", "Running", ip, true),
            true,
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void shouldBeInEndpoints(String name, Pod pod, boolean includeTerminating, boolean expected) {
    assertEquals(expected, EndpointPods.shouldBeInEndpoints(pod, includeTerminating), name);
  }

  private static Pod withPorts(ContainerPort... ports) {
    Pod pod = pod("Always", "Running", "1.2.3.4", false);
    Container container = new Container();
    container.setName("c");
    container.setPorts(List.of(ports));
    pod.getSpec().setContainers(List.of(container));
    return pod;
  }

  private static ContainerPort port(String name, int number, String protocol) {
    ContainerPort port = new ContainerPort();
    port.setName(name);
    port.setContainerPort(number);
    port.setProtocol(protocol);
    return port;
  }

  private static ServicePort servicePort(IntOrString target, String protocol) {
    ServicePort port = new ServicePort();
    port.setPort(80);
    port.setTargetPort(target);
    port.setProtocol(protocol);
    return port;
  }

  static Stream<Arguments> findPort() {
    return Stream.of(
        Arguments.of(
            "no container ports, int target",
            withPorts(),
            servicePort(IntOrString.ofInt(93), "TCP"),
            OptionalInt.of(93)),
        Arguments.of(
            "named port found",
            withPorts(port("foo", 8080, "TCP"), port("bar", 9000, "TCP")),
            servicePort(IntOrString.ofString("bar"), "TCP"),
            OptionalInt.of(9000)),
        Arguments.of(
            "named port missing",
            withPorts(port("foo", 8080, "TCP")),
            servicePort(IntOrString.ofString("baz"), "TCP"),
            OptionalInt.empty()),
        Arguments.of(
            "same name, other protocol",
            withPorts(port("dns", 53, "UDP")),
            servicePort(IntOrString.ofString("dns"), "TCP"),
            OptionalInt.empty()),
        Arguments.of(
            "protocol chosen among equal names",
            withPorts(port("dns", 53, "TCP"), port("dns", 54, "UDP")),
            servicePort(IntOrString.ofString("dns"), "UDP"),
            OptionalInt.of(54)),
        Arguments.of(
            "unset protocols are TCP",
            withPorts(port("web", 8080, null)),
            servicePort(IntOrString.ofString("web"), null),
            OptionalInt.of(8080)),
        Arguments.of(
            "no target: the Service port",
            withPorts(),
            servicePort(null, "TCP"),
            OptionalInt.of(80)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void findPort(String name, Pod pod, ServicePort port, OptionalInt expected) {
    assertEquals(expected, EndpointPods.findPort(pod, port), name);
  }
}
