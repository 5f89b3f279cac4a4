package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.machinery.apiserver.testing.Kubectl;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Quantities as users write them, through every real kubectl on the machine: a manifest's {@code
 * cpu: 0.5} (a YAML number, which kubectl sends as a JSON number) is accepted and written {@code
 * 500m}, as kube-apiserver writes it; {@code kubectl create quota} and {@code kubectl set
 * resources} see their values in the canonical form; a value that is not a quantity is refused
 * naming its field. And a manifest's key with no value (a YAML null) is kept as {@code ""}, as Go's
 * decoding reads it, in a ConfigMap's data and its labels.
 */
class QuantitiesKubectlTest extends KubectlSuite {
  @TestFactory
  Stream<DynamicTest> quantitiesAsKubeApiserverWritesThem() throws IOException {
    return everyKubectl(QuantitiesKubectlTest::quantities);
  }

  private static void quantities(Kubectl kubectl) throws Exception {
    String ns = namespace("quantities", kubectl);
    expect(kubectl.run("create", "namespace", ns), 0, "namespace/" + ns + " created");
    String deployment =
        "apiVersion: apps/v1\n"
            + "kind: Deployment\n"
            + "metadata: {name: web, namespace: "
            + ns
            + "}\n"
            + "spec:\n"
            + "  selector: {matchLabels: {app: web}}\n"
            + "  template:\n"
            + "    metadata: {labels: {app: web}}\n"
            + "    spec:\n"
            + "      containers:\n"
            + "      - name: web\n"
            + "        image: nginx\n"
            + "        resources:\n"
            + "          requests: {cpu: 0.5, memory: 1.5Gi}\n"
            + "          limits: {cpu: 1, memory: 2048Mi}\n";
    expect(kubectl.run(Map.of(), deployment, "apply", "-f", "-"), 0, "deployment.apps/web created");
    String resources =
        "jsonpath={.spec.template.spec.containers[0].resources.requests.cpu}"
            + " {.spec.template.spec.containers[0].resources.requests.memory}"
            + " {.spec.template.spec.containers[0].resources.limits.cpu}"
            + " {.spec.template.spec.containers[0].resources.limits.memory}";
    expect(
        kubectl.run("get", "deployment", "web", "-n", ns, "-o", resources), 0, "500m 1536Mi 1 2Gi");
    // Applied again unchanged: kubectl's three-way patch sees the manifest's 0.5 differ from the
    // live 500m and sends it, as it does to kube-apiserver ("configured"); written, it is the same
    // object, so nothing is stored.
    String version =
        kubectl
            .run("get", "deployment", "web", "-n", ns, "-o", "jsonpath={.metadata.resourceVersion}")
            .out();
    expect(
        kubectl.run(Map.of(), deployment, "apply", "-f", "-"), 0, "deployment.apps/web configured");
    assertFalse(version.isBlank());
    assertEquals(
        version,
        kubectl
            .run("get", "deployment", "web", "-n", ns, "-o", "jsonpath={.metadata.resourceVersion}")
            .out());
    expect(
        kubectl.run("set", "resources", "deployment", "web", "-n", ns, "--limits=cpu=1.5"),
        0,
        "resource requirements updated");
    expect(
        kubectl.run("get", "deployment", "web", "-n", ns, "-o", resources),
        0,
        "500m 1536Mi 1500m 2Gi");
    expect(
        kubectl.run("create", "quota", "q", "-n", ns, "--hard=requests.cpu=2.0,pods=10"),
        0,
        "resourcequota/q created");
    expect(
        kubectl.run(
            "get",
            "quota",
            "q",
            "-n",
            ns,
            "-o",
            "jsonpath={.spec.hard.requests\\.cpu} {.spec.hard.pods}"),
        0,
        "2 10");
    Kubectl.Result refused =
        kubectl.run(Map.of(), deployment.replace("cpu: 0.5", "cpu: half"), "apply", "-f", "-");
    if (refused.exitCode() == 0
        || !refused.all().contains("resources.requests[cpu]: quantity \"half\"")) {
      throw new AssertionError("expected the quantity refused: " + refused.all());
    }
    // A manifest's key with no value is a YAML null, which kube-apiserver's Go decoding reads as
    // "" in a map of strings: the ConfigMap keeps its key and the label selects it.
    String blanks =
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata:\n"
            + "  name: blanks\n"
            + "  namespace: "
            + ns
            + "\n"
            + "  labels:\n"
            + "    tier:\n"
            + "data:\n"
            + "  empty:\n"
            + "  full: x\n";
    expect(kubectl.run(Map.of(), blanks, "create", "-f", "-"), 0, "configmap/blanks created");
    expect(
        kubectl.run(
            "get", "configmaps", "-n", ns, "-l", "tier=", "-o", "jsonpath={.items[*].data}"),
        0,
        "{\"empty\":\"\",\"full\":\"x\"}");
    // A Secret's key with no value is Go's nil bytes, which kube-apiserver reads back from its
    // protobuf as empty; a struct's null in a list is the struct's empty value.
    String secret =
        "apiVersion: v1\n"
            + "kind: Secret\n"
            + "metadata:\n"
            + "  name: blanks\n"
            + "  namespace: "
            + ns
            + "\n"
            + "data:\n"
            + "  empty:\n"
            + "  full: eA==\n";
    expect(kubectl.run(Map.of(), secret, "create", "-f", "-"), 0, "secret/blanks created");
    expect(
        kubectl.run("get", "secret", "blanks", "-n", ns, "-o", "jsonpath={.data}"),
        0,
        "{\"empty\":\"\",\"full\":\"eA==\"}");
    String account =
        "apiVersion: v1\n"
            + "kind: ServiceAccount\n"
            + "metadata:\n"
            + "  name: blanks\n"
            + "  namespace: "
            + ns
            + "\n"
            + "imagePullSecrets:\n"
            + "- \n"
            + "- name: pull\n";
    expect(kubectl.run(Map.of(), account, "create", "-f", "-"), 0, "serviceaccount/blanks created");
    expect(
        kubectl.run(
            "get", "serviceaccount", "blanks", "-n", ns, "-o", "jsonpath={.imagePullSecrets}"),
        0,
        "[{},{\"name\":\"pull\"}]");
    expect(kubectl.run("delete", "namespace", ns, "--wait=false"), 0, "deleted");
  }
}
