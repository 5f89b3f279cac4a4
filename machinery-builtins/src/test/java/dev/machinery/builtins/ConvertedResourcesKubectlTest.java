package dev.machinery.builtins;

import dev.machinery.apiserver.testing.Kubectl;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Resources kube-apiserver serves in more than one shape, through every real kubectl on the
 * machine:
 *
 * <ul>
 *   <li>{@code kubectl autoscale}: kubectl 1.27 to 1.32 write an {@code autoscaling/v1}
 *       HorizontalPodAutoscaler, 1.33 an {@code autoscaling/v2} one; either is read in both
 *       versions, the CPU target the same.
 *   <li>An {@code events.k8s.io/v1} Event, as client-go's new event recorder and the scheduler
 *       write them, is seen among the core Events: {@code kubectl get events}, a field selector on
 *       the object it is about, {@code kubectl events}, and back through its own group with {@code
 *       kubectl get events.events.k8s.io}.
 * </ul>
 */
class ConvertedResourcesKubectlTest extends KubectlSuite {
  @TestFactory
  Stream<DynamicTest> autoscaleWritesEitherVersion() throws IOException {
    return everyKubectl(ConvertedResourcesKubectlTest::autoscale);
  }

  @TestFactory
  Stream<DynamicTest> eventsOfTheEventsGroupAreCoreEvents() throws IOException {
    return everyKubectl(ConvertedResourcesKubectlTest::events);
  }

  private static void autoscale(Kubectl kubectl) throws Exception {
    String ns = namespace("hpa", kubectl);
    expect(kubectl.run("create", "namespace", ns), 0, "namespace/" + ns + " created");
    expect(
        kubectl.run("create", "deployment", "web", "--image=nginx", "-n", ns),
        0,
        "deployment.apps/web created");
    // kubectl 1.27 to 1.32 write autoscaling/v1, 1.33 autoscaling/v2.
    expect(
        kubectl.run("autoscale", "deployment", "web", "--max=3", "--cpu-percent=70", "-n", ns),
        0,
        "horizontalpodautoscaler.autoscaling/web autoscaled");
    expect(
        kubectl.run(
            "get",
            "hpa",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.apiVersion} {.spec.minReplicas} {.spec.maxReplicas}"
                + " {.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.averageUtilization}"),
        0,
        "autoscaling/v2 1 3 cpu 70");
    expect(
        kubectl.run(
            "get",
            "horizontalpodautoscalers.v1.autoscaling",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}"),
        0,
        "autoscaling/v1 70");
    Kubectl.Result table = kubectl.run("get", "hpa", "-n", ns);
    expect(table, 0, "Deployment/web");
    expect(table, 0, "cpu: <unknown>/70%");
    expect(kubectl.run("delete", "namespace", ns, "--wait=false"), 0, "deleted");
  }

  private static void events(Kubectl kubectl) throws Exception {
    String ns = namespace("events", kubectl);
    expect(kubectl.run("create", "namespace", ns), 0, "namespace/" + ns + " created");
    String event =
        "apiVersion: events.k8s.io/v1\n"
            + "kind: Event\n"
            + "metadata: {name: web.scheduled, namespace: "
            + ns
            + "}\n"
            + "eventTime: 2026-11-30T01:00:00.000000Z\n"
            + "reportingController: default-scheduler\n"
            + "reportingInstance: default-scheduler-1\n"
            + "action: Binding\n"
            + "reason: Scheduled\n"
            + "regarding: {kind: Pod, namespace: "
            + ns
            + ", name: web}\n"
            + "note: Successfully assigned web to node-1\n"
            + "type: Normal\n";
    expect(
        kubectl.run(Map.of(), event, "create", "-f", "-"),
        0,
        "event.events.k8s.io/web.scheduled created");
    Kubectl.Result table = kubectl.run("get", "events", "-n", ns);
    expect(table, 0, "Scheduled");
    expect(table, 0, "pod/web");
    expect(table, 0, "Successfully assigned web to node-1");
    expect(
        kubectl.run(
            "get",
            "events",
            "-n",
            ns,
            "--field-selector",
            "involvedObject.kind=Pod,involvedObject.name=web",
            "-o",
            "jsonpath={.items[*].message}"),
        0,
        "Successfully assigned web to node-1");
    expect(kubectl.run("events", "-n", ns), 0, "Successfully assigned web to node-1");
    expect(
        kubectl.run(
            "get",
            "events.events.k8s.io",
            "web.scheduled",
            "-n",
            ns,
            "-o",
            "jsonpath={.regarding.name} {.note}"),
        0,
        "web Successfully assigned web to node-1");
    expect(kubectl.run("delete", "namespace", ns, "--wait=false"), 0, "deleted");
  }
}
