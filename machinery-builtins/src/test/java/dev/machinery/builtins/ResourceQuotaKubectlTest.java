package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.testing.Kubectl;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * kube-apiserver's ResourceQuota through every real kubectl on the machine: {@code kubectl create
 * quota q --hard=pods=1}, its status written as kube-controller-manager's quota controller writes
 * it (here by {@code kubectl patch --subresource=status}: no controller runs in this module), then
 * two {@code kubectl run}: the first is admitted and counted in {@code status.used}, the second is
 * refused and kubectl prints kube's words.
 */
class ResourceQuotaKubectlTest extends KubectlSuite {
  @TestFactory
  Stream<DynamicTest> everyKubectl() throws IOException {
    return everyKubectl(ResourceQuotaKubectlTest::scenario);
  }

  private static void scenario(Kubectl kubectl) throws Exception {
    String ns = namespace("quota", kubectl);
    expect(kubectl.run("create", "namespace", ns), 0, "namespace/" + ns + " created");
    expect(
        kubectl.run("create", "quota", "q", "--hard=pods=1", "-n", ns),
        0,
        "resourcequota/q created");
    expect(
        kubectl.run(
            "patch",
            "quota",
            "q",
            "-n",
            ns,
            "--subresource=status",
            "--type=merge",
            "-p",
            "{\"status\":{\"hard\":{\"pods\":\"1\"},\"used\":{\"pods\":\"0\"}}}"),
        0,
        "resourcequota/q patched");
    expect(kubectl.run("run", "a", "--image=nginx", "-n", ns), 0, "pod/a created");
    expect(
        kubectl.run("get", "quota", "q", "-n", ns, "-o", "jsonpath={.status.used.pods}"), 0, "1");
    Kubectl.Result refused = kubectl.run("run", "b", "--image=nginx", "-n", ns);
    assertEquals(1, refused.exitCode(), kubectl.name + ": " + refused.all());
    assertEquals(
        "Error from server (Forbidden): pods \"b\" is forbidden: exceeded quota: q, requested:"
            + " pods=1, used: pods=1, limited: pods=1\n",
        withoutKlog(refused.err()),
        kubectl.name);
    expect(kubectl.run("delete", "namespace", ns, "--wait=false"), 0, "deleted");
  }

  /** stderr without klog's lines (kubectl 1.27 warns that there is no kubeconfig file). */
  private static String withoutKlog(String err) {
    StringBuilder out = new StringBuilder();
    for (String line : err.split("\n")) {
      if (!line.matches("[IWE]\\d{4} .*")) {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }
}
