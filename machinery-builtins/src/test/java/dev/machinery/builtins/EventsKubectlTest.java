package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * An {@code events.k8s.io/v1} Event, as client-go's new event recorder and the scheduler write
 * them, is seen by every real kubectl on the machine among the core Events: {@code kubectl get
 * events}, a field selector on the object it is about, {@code kubectl events}, and back through its
 * own group with {@code kubectl get events.events.k8s.io}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class EventsKubectlTest {
  private ApiServer server;
  private HttpBinding binding;

  @BeforeAll
  void start() throws IOException {
    server = BuiltinKinds.apiServer().build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterAll
  void stop() {
    if (binding != null) {
      binding.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws IOException {
    Map<String, Path> installed = Kubectl.requireInstalled("EventsKubectlTest");
    List<DynamicTest> tests = new ArrayList<>();
    installed.forEach(
        (name, binary) ->
            tests.add(
                DynamicTest.dynamicTest(
                    name, () -> scenario(Kubectl.of(name, binary, binding.port())))));
    return tests.stream();
  }

  private static void scenario(Kubectl kubectl) throws Exception {
    String ns = "events-" + kubectl.name.replace("kubectl", "k").replace(".", "-");
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

  private static void expect(Kubectl.Result result, int exitCode, String text) {
    assertEquals(exitCode, result.exitCode(), result.all());
    if (!result.out().contains(text)) {
      throw new AssertionError("expected \"" + text + "\" in: " + result.all());
    }
  }
}
