package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.builtins.BuiltinKinds;
import java.io.File;
import java.io.IOException;
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
 * Every kubectl on the machine (kubectl.1.27 to kubectl.1.33 beside the one on the PATH, or that
 * one alone) applies a ValidatingAdmissionPolicy and its binding to a server with the built-in
 * kinds, and is refused a ConfigMap the policy denies, printing what it prints for kube-apiserver's
 * refusal; with a binding whose {@code validationActions} are {@code [Warn]}, a ConfigMap the
 * policy fails is created and kubectl prints kube-apiserver's {@code Warning: Validation failed for
 * ValidatingAdmissionPolicy ...}.
 */
class KubectlValidatingAdmissionPolicyTest {
  private static final String POLICY =
      """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: one-key
      spec:
        failurePolicy: Fail
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: ["v1"]
            operations: ["CREATE", "UPDATE"]
            resources: ["configmaps"]
        validations:
        - expression: "!has(object.data) || size(object.data) <= 1"
          messageExpression: "'configmap ' + object.metadata.name + ' has too many keys'"
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: one-key-binding
      spec:
        policyName: one-key
        validationActions: [Deny]
      """;

  private static final String REFUSED =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: two
        namespace: default
      data:
        a: "1"
        b: "2"
      """;

  private static final String WARN_POLICY =
      """
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicy
      metadata:
        name: no-debug
      spec:
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: ["v1"]
            operations: ["CREATE", "UPDATE"]
            resources: ["configmaps"]
        validations:
        - expression: "!has(object.metadata.labels) || !('debug' in object.metadata.labels)"
          messageExpression: "'configmap ' + object.metadata.name + ' is labelled debug'"
      ---
      apiVersion: admissionregistration.k8s.io/v1
      kind: ValidatingAdmissionPolicyBinding
      metadata:
        name: no-debug-binding
      spec:
        policyName: no-debug
        validationActions: [Warn]
      """;

  private static final String WARNED =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: warned
        namespace: default
        labels:
          debug: "true"
      data:
        a: "1"
      """;

  private static final String WARNED_AND_REFUSED =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: both
        namespace: default
        labels:
          debug: "true"
      data:
        a: "1"
        b: "2"
      """;

  static List<Path> kubectls() throws IOException {
    List<Path> found = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path == null) {
      return found;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path kubectl = Path.of(dir, "kubectl");
      if (Files.isExecutable(kubectl)) {
        Path real = kubectl.toRealPath();
        for (int minor = 27; minor <= 33; minor++) {
          Path versioned = real.resolveSibling("kubectl.1." + minor);
          if (Files.isExecutable(versioned)) {
            found.add(versioned);
          }
        }
        if (found.isEmpty()) {
          found.add(real);
        }
        return found;
      }
    }
    return found;
  }

  @Test
  void everyKubectlIsRefusedWithThePolicysMessage() throws Exception {
    List<Path> kubectls = kubectls();
    if (kubectls.isEmpty()) {
      throw new AssertionFailedError(
          "KubectlValidatingAdmissionPolicyTest needs kubectl (1.27 to 1.33) on the PATH");
    }
    List<String> failures = new ArrayList<>();
    for (Path kubectl : kubectls) {
      ApiServer server = BuiltinKinds.apiServer().build();
      try (JdkHttpBinding binding =
          JdkHttpBinding.start(
              server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8)) {
        Path dir = Files.createTempDirectory("kubectl-vap");
        Files.writeString(dir.resolve("policy.yaml"), POLICY);
        Files.writeString(dir.resolve("refused.yaml"), REFUSED);
        Files.writeString(dir.resolve("warn-policy.yaml"), WARN_POLICY);
        Files.writeString(dir.resolve("warned.yaml"), WARNED);
        Files.writeString(dir.resolve("both.yaml"), WARNED_AND_REFUSED);
        Files.writeString(
            dir.resolve("namespace.yaml"),
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n");
        String serverFlag = "--server=http://127.0.0.1:" + binding.port();
        String cache = "--cache-dir=" + dir.resolve("cache");
        Run namespace =
            run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("namespace.yaml"));
        Run policy = run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("policy.yaml"));
        Run refused = run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("refused.yaml"));
        Run warnPolicy =
            run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("warn-policy.yaml"));
        Run warned = run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("warned.yaml"));
        Run both = run(kubectl, serverFlag, cache, "apply", "-f", dir.resolve("both.yaml"));
        // A refusal carries the warnings given before it, as kube-apiserver's does: kubectl
        // prints them above the error.
        String bothExpected =
            "Warning: Validation failed for ValidatingAdmissionPolicy 'no-debug' with binding"
                + " 'no-debug-binding': configmap both is labelled debug\n"
                + "The configmaps \"both\" is invalid: : ValidatingAdmissionPolicy 'one-key' with"
                + " binding 'one-key-binding' denied request: configmap both has too many keys\n";
        if (both.exit() == 0 || !both.output().equals(bothExpected)) {
          failures.add(kubectl.getFileName() + " (Warn and Deny):\n" + both.output());
        }
        // A Warn binding admits and kubectl prints the Warning header on stderr.
        if (warnPolicy.exit() != 0
            || warned.exit() != 0
            || !warned
                .output()
                .contains(
                    "Warning: Validation failed for ValidatingAdmissionPolicy 'no-debug' with"
                        + " binding 'no-debug-binding': configmap warned is labelled debug\n")
            || !warned.output().contains("configmap/warned created")) {
          failures.add(
              kubectl.getFileName() + " (Warn):\n" + warnPolicy.output() + warned.output());
        }
        // kubectl prints a 422 from its causes, as it does for kube-apiserver's refusal (one
        // cause, without a field).
        String expected =
            "The configmaps \"two\" is invalid: : ValidatingAdmissionPolicy 'one-key' with binding"
                + " 'one-key-binding' denied request: configmap two has too many keys\n";
        if (namespace.exit() != 0
            || policy.exit() != 0
            || refused.exit() == 0
            || !refused.output().equals(expected)) {
          failures.add(
              kubectl.getFileName()
                  + ":\n"
                  + namespace.output()
                  + policy.output()
                  + refused.output());
        }
      } finally {
        server.close();
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(kubectls.size() >= 1);
  }

  private record Run(int exit, String output) {}

  private static Run run(
      Path kubectl, String server, String cache, String verb, String flag, Path file)
      throws Exception {
    Process process =
        new ProcessBuilder(kubectl.toString(), server, cache, verb, flag, file.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Run(-1, output + "(timed out)");
    }
    return new Run(process.exitValue(), output);
  }
}
