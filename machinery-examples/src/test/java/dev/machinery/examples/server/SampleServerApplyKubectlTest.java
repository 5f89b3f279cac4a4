package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Server-side apply through every real kubectl on the machine, each in its own namespace: {@code
 * apply --server-side} creates, re-applies without a change, changes a field; another {@code
 * --field-manager} conflicts (the error kubectl prints is kube-apiserver's) until it forces; a
 * field no longer applied disappears; {@code --show-managed-fields} shows the entries; an unknown
 * field is refused; a server dry run changes nothing; and kubectl's move from client-side to
 * server-side apply and back goes without conflicts. Fails, saying what to install, where no
 * kubectl is installed.
 */
class SampleServerApplyKubectlTest {
  private static ApiServer server;
  private static JdkHttpBinding binding;

  @BeforeAll
  static void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterAll
  static void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerApplyKubectlTest");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> scenario(Kubectl.of(e.getKey(), e.getValue(), binding.port()))));
  }

  static String deployment(String ns, String name, int replicas, String image, String extra) {
    return "apiVersion: apps/v1\n"
        + "kind: Deployment\n"
        + "metadata:\n"
        + "  name: "
        + name
        + "\n"
        + "  namespace: "
        + ns
        + "\n"
        + "  labels:\n"
        + "    app: "
        + name
        + "\n"
        + extra
        + "spec:\n"
        + "  replicas: "
        + replicas
        + "\n"
        + "  selector:\n"
        + "    matchLabels:\n"
        + "      app: "
        + name
        + "\n"
        + "  template:\n"
        + "    metadata:\n"
        + "      labels:\n"
        + "        app: "
        + name
        + "\n"
        + "    spec:\n"
        + "      containers:\n"
        + "      - name: web\n"
        + "        image: "
        + image
        + "\n";
  }

  static void scenario(Kubectl k) throws Exception {
    String ns = "apply-" + k.name.replace("kubectl", "k").replace(".", "-");
    KubectlChecks c = new KubectlChecks(k.name);
    Path file = Files.createTempFile("apply", ".yaml");
    c.expect(k.run("create", "namespace", ns), 0, "namespace/" + ns + " created");

    // Create, then apply again unchanged: nothing is written.
    Files.writeString(file, deployment(ns, "web", 2, "nginx:1.27", "    tier: front\n"));
    c.expect(
        k.run("apply", "--server-side", "-f", file.toString()),
        0,
        "deployment.apps/web serverside-applied");
    String version = resourceVersion(k, ns, "web");
    c.expect(
        k.run("apply", "--server-side", "-f", file.toString()),
        0,
        "deployment.apps/web serverside-applied");
    c.same("resourceVersion after an unchanged apply", version, resourceVersion(k, ns, "web"));

    // The entries, shown only when asked for.
    c.expect(
        k.run("get", "deploy", "web", "-n", ns, "-o", "yaml", "--show-managed-fields"),
        0,
        "managedFields:",
        "manager: kubectl\n",
        "operation: Apply",
        "fieldsType: FieldsV1",
        "f:replicas: {}",
        "k:{\"name\":\"web\"}:",
        "f:tier: {}");
    c.absent(k.run("get", "deploy", "web", "-n", ns, "-o", "yaml"), "managedFields");

    // Another manager's change conflicts, as kube-apiserver words it, until forced. It applies
    // only what it manages: the replicas.
    Files.writeString(
        file,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: "
            + ns
            + "\nspec:\n  replicas: 3\n");
    c.expect(
        k.run("apply", "--server-side", "--field-manager=scaler", "-f", file.toString()),
        1,
        "Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas",
        "--force-conflicts");
    c.same("replicas after a refused apply", "2", jsonpath(k, ns, "web", "{.spec.replicas}"));
    c.expect(
        k.run(
            "apply",
            "--server-side",
            "--field-manager=scaler",
            "--force-conflicts",
            "-f",
            file.toString()),
        0,
        "deployment.apps/web serverside-applied");
    c.same("replicas after a forced apply", "3", jsonpath(k, ns, "web", "{.spec.replicas}"));

    // kubectl's own apply, with the label gone and a new image: the label disappears, and
    // replicas, now the scaler's, stay as the scaler set them.
    Files.writeString(file, deployment(ns, "web", 3, "nginx:1.28", ""));
    c.expect(
        k.run("apply", "--server-side", "-f", file.toString()),
        0,
        "deployment.apps/web serverside-applied");
    c.same(
        "labels after dropping one",
        "{\"app\":\"web\"}",
        jsonpath(k, ns, "web", "{.metadata.labels}"));
    c.same(
        "image", "nginx:1.28", jsonpath(k, ns, "web", "{.spec.template.spec.containers[0].image}"));

    // A server dry run changes nothing.
    Files.writeString(file, deployment(ns, "web", 3, "nginx:1.29", ""));
    c.expect(
        k.run("apply", "--server-side", "--dry-run=server", "-f", file.toString()),
        0,
        "deployment.apps/web serverside-applied (server dry run)");
    c.same(
        "image after a dry run",
        "nginx:1.28",
        jsonpath(k, ns, "web", "{.spec.template.spec.containers[0].image}"));

    // A field the kind does not have is refused, naming it.
    Files.writeString(
        file,
        deployment(ns, "web", 3, "nginx:1.28", "").replace("  replicas: 3\n", "  replicaz: 3\n"));
    c.expect(
        k.run("apply", "--server-side", "--validate=false", "-f", file.toString()),
        1,
        ".spec.replicaz: field not declared in schema");

    // From client-side apply to server-side apply and back, without conflicts.
    Files.writeString(file, deployment(ns, "moving", 1, "nginx:1.27", ""));
    c.expect(k.run("apply", "-f", file.toString()), 0, "deployment.apps/moving created");
    Files.writeString(file, deployment(ns, "moving", 2, "nginx:1.28", ""));
    c.expect(
        k.run("apply", "--server-side", "-f", file.toString()),
        0,
        "deployment.apps/moving serverside-applied");
    c.same("replicas after the move", "2", jsonpath(k, ns, "moving", "{.spec.replicas}"));
    c.expect(
        k.run("get", "deploy", "moving", "-n", ns, "-o", "yaml", "--show-managed-fields"),
        0,
        "manager: kubectl\n",
        "operation: Apply",
        "\"replicas\":2");
    Files.writeString(file, deployment(ns, "moving", 4, "nginx:1.28", ""));
    c.expect(k.run("apply", "-f", file.toString()), 0, "deployment.apps/moving configured");
    c.same(
        "replicas back on client-side apply", "4", jsonpath(k, ns, "moving", "{.spec.replicas}"));

    c.expect(k.run("delete", "namespace", ns), 0, "namespace \"" + ns + "\" deleted");
    Files.delete(file);
    assertEquals(List.of(), c.failures);
  }

  private static String resourceVersion(Kubectl k, String ns, String name) throws Exception {
    return jsonpath(k, ns, name, "{.metadata.resourceVersion}");
  }

  private static String jsonpath(Kubectl k, String ns, String name, String path) throws Exception {
    return k.run("get", "deploy", name, "-n", ns, "-o", "jsonpath=" + path).out().trim();
  }
}
