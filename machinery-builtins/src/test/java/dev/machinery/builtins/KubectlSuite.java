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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * A suite run through every real kubectl on the machine against one server of {@link
 * BuiltinKinds#apiServer()} on a loopback port: each scenario is a dynamic test per kubectl build,
 * failing (and saying what to install) where kubectl is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
abstract class KubectlSuite {
  /** What one kubectl does. */
  @FunctionalInterface
  interface Scenario {
    void run(Kubectl kubectl) throws Exception;
  }

  ApiServer server;
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

  /** The scenario once for each kubectl build installed. */
  Stream<DynamicTest> everyKubectl(Scenario scenario) throws IOException {
    Map<String, Path> installed = Kubectl.requireInstalled(getClass().getSimpleName());
    List<DynamicTest> tests = new ArrayList<>();
    installed.forEach(
        (name, binary) ->
            tests.add(
                DynamicTest.dynamicTest(
                    name, () -> scenario.run(Kubectl.of(name, binary, binding.port())))));
    return tests.stream();
  }

  /** A namespace of the suite's own for one kubectl build, such as {@code quota-k-1-27}. */
  static String namespace(String prefix, Kubectl kubectl) {
    return prefix + "-" + kubectl.name.replace("kubectl", "k").replace(".", "-");
  }

  static void expect(Kubectl.Result result, int exitCode, String text) {
    assertEquals(exitCode, result.exitCode(), result.all());
    if (!result.out().contains(text)) {
      throw new AssertionError("expected \"" + text + "\" in: " + result.all());
    }
  }
}
