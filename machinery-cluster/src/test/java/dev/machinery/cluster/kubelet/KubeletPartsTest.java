package dev.machinery.cluster.kubelet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.ResourceRequirements;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.resource.Quantity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's pure parts: Go durations (time.ParseDuration's table), pod IPs from a CIDR, taints
 * as {@code kubectl taint} writes them, image names as the runtime reports them, QoS classes and
 * the pod annotations.
 */
class KubeletPartsTest {
  @Test
  void goDurations() {
    assertEquals(Duration.ZERO, GoDurations.parse("0"));
    assertEquals(Duration.ofSeconds(2), GoDurations.parse("2s"));
    assertEquals(Duration.ofSeconds(90), GoDurations.parse("1m30s"));
    assertEquals(Duration.ofMinutes(90), GoDurations.parse("1.5h"));
    assertEquals(Duration.ofMillis(300), GoDurations.parse("300ms"));
    assertEquals(Duration.ofNanos(10_000), GoDurations.parse("10us"));
    assertEquals(Duration.ofNanos(10_000), GoDurations.parse("10µs"));
    assertEquals(Duration.ofNanos(5), GoDurations.parse("5ns"));
    assertEquals(Duration.ofSeconds(-3), GoDurations.parse("-3s"));
    assertEquals(Duration.ofMillis(1500), GoDurations.parse("1.5s"));
    assertEquals(
        "time: invalid duration \"\"",
        assertThrows(IllegalArgumentException.class, () -> GoDurations.parse("")).getMessage());
    assertEquals(
        "time: missing unit in duration \"1\"",
        assertThrows(IllegalArgumentException.class, () -> GoDurations.parse("1")).getMessage());
    assertEquals(
        "time: unknown unit \"x\" in duration \"3x\"",
        assertThrows(IllegalArgumentException.class, () -> GoDurations.parse("3x")).getMessage());
    assertEquals(
        "time: invalid duration \"s\"",
        assertThrows(IllegalArgumentException.class, () -> GoDurations.parse("s")).getMessage());
  }

  @Test
  void podAddressesSkipNetworkGatewayAndBroadcastAndAreReused() {
    PodAddresses addresses = new PodAddresses("10.244.1.0/24");
    assertEquals("10.244.1.2", addresses.allocate("default/a"));
    assertEquals("10.244.1.3", addresses.allocate("default/b"));
    assertEquals("10.244.1.2", addresses.allocate("default/a"));
    addresses.reserve("default/c", "10.244.1.4");
    assertEquals("10.244.1.5", addresses.allocate("default/d"));
    addresses.release("default/b");
    assertEquals(java.util.Optional.empty(), addresses.held("default/b"));
    PodAddresses tiny = new PodAddresses("192.168.0.8/30");
    assertEquals("192.168.0.10", tiny.allocate("x"));
    assertThrows(IllegalStateException.class, () -> tiny.allocate("y"));
    tiny.release("x");
    assertEquals("192.168.0.10", tiny.allocate("y"));
    assertEquals(
        "pod CIDR \"10.0.0.0\": no prefix length",
        assertThrows(IllegalArgumentException.class, () -> new PodAddresses("10.0.0.0"))
            .getMessage());
    assertEquals(
        "\"10.0.0.300/24\" is not an IPv4 address or CIDR",
        assertThrows(IllegalArgumentException.class, () -> new PodAddresses("10.0.0.300/24"))
            .getMessage());
  }

  @Test
  void taintsAsKubectlTaintWritesThem() {
    Taint full = SimulatedKubelets.parseTaint("dedicated=db:NoSchedule");
    assertEquals("dedicated", full.getKey());
    assertEquals("db", full.getValue());
    assertEquals("NoSchedule", full.getEffect());
    Taint bare = SimulatedKubelets.parseTaint("example.com/drain:NoExecute");
    assertEquals("example.com/drain", bare.getKey());
    assertNull(bare.getValue());
    assertEquals(
        "taint \"k=v:Sometimes\": invalid taint effect: Sometimes, unsupported taint effect;"
            + " supported values: NoSchedule, PreferNoSchedule, NoExecute",
        assertThrows(
                IllegalArgumentException.class, () -> SimulatedKubelets.parseTaint("k=v:Sometimes"))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> SimulatedKubelets.parseTaint("novalue"));
  }

  @Test
  void imageNamesAsTheRuntimeReportsThem() {
    assertEquals("docker.io/library/nginx:latest", SimulatedKubelets.imageName("nginx"));
    assertEquals("docker.io/library/nginx:1.27", SimulatedKubelets.imageName("nginx:1.27"));
    assertEquals("docker.io/bitnami/redis:7", SimulatedKubelets.imageName("bitnami/redis:7"));
    assertEquals(
        "registry.k8s.io/pause:3.10", SimulatedKubelets.imageName("registry.k8s.io/pause:3.10"));
    assertEquals("localhost:5000/app:latest", SimulatedKubelets.imageName("localhost:5000/app"));
  }

  static Pod pod(Map<String, String> annotations, Container... containers) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("p");
    meta.setNamespace("default");
    meta.setAnnotations(annotations);
    pod.setMetadata(meta);
    PodSpec spec = new PodSpec();
    spec.setContainers(List.of(containers));
    pod.setSpec(spec);
    return pod;
  }

  static Container container(Map<String, String> requests, Map<String, String> limits) {
    Container c = new Container();
    c.setName("c");
    ResourceRequirements resources = new ResourceRequirements();
    resources.setRequests(quantities(requests));
    resources.setLimits(quantities(limits));
    c.setResources(resources);
    return c;
  }

  private static Map<String, Quantity> quantities(Map<String, String> values) {
    java.util.Map<String, Quantity> out = new java.util.LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, Quantity.parse(v)));
    return out;
  }

  @Test
  void qosClasses() {
    assertEquals(
        "BestEffort", SimulatedKubelets.qosClass(pod(Map.of(), container(Map.of(), Map.of()))));
    assertEquals(
        "Guaranteed",
        SimulatedKubelets.qosClass(
            pod(
                Map.of(),
                container(
                    Map.of("cpu", "1", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi")))));
    // Limits alone count as requests too.
    assertEquals(
        "Guaranteed",
        SimulatedKubelets.qosClass(
            pod(Map.of(), container(Map.of(), Map.of("cpu", "1", "memory", "1Gi")))));
    assertEquals(
        "Burstable",
        SimulatedKubelets.qosClass(pod(Map.of(), container(Map.of("cpu", "100m"), Map.of()))));
  }

  @Test
  void runForAndExitCodeAnnotations() {
    assertNull(SimulatedKubelets.runFor(pod(Map.of())));
    assertEquals(0, SimulatedKubelets.exitCode(pod(Map.of())));
    Pod job = pod(Map.of("sim.machinery.dev/run-for", "2s", "sim.machinery.dev/exit-code", "42"));
    assertEquals(Duration.ofSeconds(2), SimulatedKubelets.runFor(job));
    assertEquals(42, SimulatedKubelets.exitCode(job));
    assertEquals(
        "annotation sim.machinery.dev/run-for: \"soon\" is not a duration",
        assertThrows(
                IllegalArgumentException.class,
                () -> SimulatedKubelets.runFor(pod(Map.of("sim.machinery.dev/run-for", "soon"))))
            .getMessage());
    assertEquals(
        "annotation sim.machinery.dev/exit-code: \"256\" is not an exit code (0-255)",
        assertThrows(
                IllegalArgumentException.class,
                () -> SimulatedKubelets.exitCode(pod(Map.of("sim.machinery.dev/exit-code", "256"))))
            .getMessage());
  }
}
