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
 * {@code kubectl autoscale} through every real kubectl on the machine: kubectl 1.27 to 1.32 write
 * an {@code autoscaling/v1} HorizontalPodAutoscaler, 1.33 an {@code autoscaling/v2} one; either is
 * read in both versions, the CPU target the same.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class AutoscaleKubectlTest {
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
    Map<String, Path> installed = Kubectl.requireInstalled("AutoscaleKubectlTest");
    List<DynamicTest> tests = new ArrayList<>();
    installed.forEach(
        (name, binary) ->
            tests.add(
                DynamicTest.dynamicTest(
                    name, () -> scenario(Kubectl.of(name, binary, binding.port())))));
    return tests.stream();
  }

  private static void scenario(Kubectl kubectl) throws Exception {
    String ns = "hpa-" + kubectl.name.replace("kubectl", "k").replace(".", "-");
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
    expect(kubectl.run("delete", "namespace", ns, "--wait=false"), 0, "deleted");
  }

  private static void expect(Kubectl.Result result, int exitCode, String text) {
    assertEquals(exitCode, result.exitCode(), result.all());
    if (!result.out().contains(text)) {
      throw new AssertionError("expected \"" + text + "\" in: " + result.all());
    }
  }
}
