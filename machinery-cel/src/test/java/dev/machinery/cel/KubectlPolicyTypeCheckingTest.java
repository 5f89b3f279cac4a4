package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.builtins.BuiltinKinds;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Every kubectl on the machine applies a ValidatingAdmissionPolicy whose expression names a field
 * Deployments do not have, and {@code kubectl get validatingadmissionpolicy -o yaml} shows the
 * status the server wrote: {@code observedGeneration} and the type checking warning, as
 * kube-apiserver's documentation shows it.
 */
class KubectlPolicyTypeCheckingTest {
  private static final String POLICY =
      """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: replicas
      spec:
        matchConstraints:
          resourceRules:
          - apiGroups: ["apps"]
            apiVersions: ["v1"]
            operations: ["CREATE", "UPDATE"]
            resources: ["deployments"]
        validations:
        - expression: "object.spec.replicaz > 1"
      """;

  private static final String STATUS =
      """
      status:
        observedGeneration: 1
        typeChecking:
          expressionWarnings:
          - fieldRef: spec.validations[0].expression
            warning: |
              apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'
               | object.spec.replicaz > 1
               | ...........^
      """;

  @Test
  void everyKubectlShowsTheTypeCheckingWarning() throws Exception {
    List<Path> kubectls = KubectlValidatingAdmissionPolicyTest.kubectls();
    if (kubectls.isEmpty()) {
      throw new AssertionFailedError(
          "KubectlPolicyTypeCheckingTest needs kubectl (1.27 to 1.33) on the PATH");
    }
    List<String> failures = new ArrayList<>();
    for (Path kubectl : kubectls) {
      ApiServer server = BuiltinKinds.apiServer().build();
      try (JdkHttpBinding binding =
          JdkHttpBinding.start(
              server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8)) {
        Path dir = Files.createTempDirectory("kubectl-typecheck");
        Files.writeString(dir.resolve("policy.yaml"), POLICY);
        String serverFlag = "--server=http://127.0.0.1:" + binding.port();
        String cache = "--cache-dir=" + dir.resolve("cache");
        String applied =
            run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("policy.yaml").toString());
        String shown = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
          shown =
              run(
                  kubectl,
                  serverFlag,
                  cache,
                  "get",
                  "validatingadmissionpolicy",
                  "replicas",
                  "-o",
                  "yaml");
          if (shown.contains("observedGeneration")) {
            break;
          }
          Thread.sleep(50);
        }
        if (!shown.endsWith(STATUS)) {
          failures.add(kubectl.getFileName() + ":\n" + applied + shown);
        }
      } finally {
        server.close();
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(kubectls.size() >= 1);
  }

  private static String run(Path kubectl, String... arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(kubectl.toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return output + "(timed out)";
    }
    return output;
  }
}
