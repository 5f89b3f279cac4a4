package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The sample server driven by every real kubectl on the machine (the versioned builds 1.27 to 1.33
 * and the dispatcher on the PATH), each in its own namespace: discovery, tables, versions (the
 * {@code demo.example.dev} Rollout read in {@code v1beta1} and {@code v1}), selectors, describe,
 * create/apply/diff/replace/edit/label/annotate/scale/patch, watch, delete, explain, and the errors
 * kubectl prints. Fails, saying what to install, where no kubectl is installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SampleServerKubectlTest {
  /** The binding under test: {@code jdk} here, {@code netty} in the subclass. */
  String httpBinding() {
    return "jdk";
  }

  private ApiServer server;
  private HttpBinding binding;

  @BeforeAll
  void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
  }

  @AfterAll
  void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerKubectlTest");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> scenario(Kubectl.of(e.getKey(), e.getValue(), binding.port()))));
  }

  static void scenario(Kubectl k) throws Exception {
    String ns = "ns-" + k.name.replace("kubectl", "k").replace(".", "-");
    KubectlChecks c = new KubectlChecks(k.name);
    c.expect(k.run("version"), 0, "Server Version: ", "v1.33.0");
    Kubectl.Result versions =
        c.expect(k.run("api-versions"), 0, "apps/v1\n", "demo.example.dev/v1beta1\n", "v1\n");
    // Kubernetes 1.33 serves no apps/v1beta1; the sample's own versions are in a group of its own.
    c.absent(versions, "apps/v1beta1");
    c.expect(
        k.run("api-resources"),
        0,
        "deployments",
        "deploy",
        "apps/v1",
        "rollouts",
        "demo.example.dev/v1",
        "configmaps",
        "cm",
        "namespaces",
        "ns",
        "events");
    c.expect(k.run("create", "namespace", ns), 0, "namespace/" + ns + " created");
    c.expect(
        k.run(
            "create", "configmap", "literal", "-n", ns, "--from-literal=a=1", "--from-literal=b=2"),
        0,
        "configmap/literal created");
    c.expect(k.run("get", "cm", "-n", ns), 0, "NAME", "DATA", "AGE", "literal", "2");
    c.expect(
        k.run("get", "deploy", "-A", "-o", "wide"),
        0,
        "NAMESPACE",
        "READY",
        "UP-TO-DATE",
        "CONTAINERS",
        "IMAGES",
        "SELECTOR",
        "hello",
        "nginx:1.27",
        "app=hello,tier in (web)");
    c.expect(k.run("get", "cm", "-A", "--show-labels"), 0, "LABELS", "app=hello");
    c.expect(k.run("get", "ns", "--chunk-size=1"), 0, "default", "kube-system", ns, "Active");
    c.expect(
        k.run("get", "rollouts.v1beta1.demo.example.dev", "hello", "-n", "default", "-o", "yaml"),
        0,
        "apiVersion: demo.example.dev/v1beta1",
        "kind: Rollout",
        "maxSurge: 25%",
        "cpu: 100m");
    c.expect(
        k.run("get", "rollouts.v1.demo.example.dev", "hello", "-n", "default", "-o", "json"),
        0,
        "\"apiVersion\": \"demo.example.dev/v1\"",
        "\"resourceVersion\"");
    c.expect(
        k.run("get", "deployments.v1.apps", "hello", "-n", "default", "-o", "json"),
        0,
        "\"apiVersion\": \"apps/v1\"",
        "\"progressDeadlineSeconds\": 600",
        "\"resourceVersion\"");
    c.expect(k.run("get", "cm", "-A", "-l", "app=hello"), 0, "greeting");
    c.expect(k.run("get", "cm", "-A", "-l", "app in (hello,other),!missing"), 0, "greeting");
    c.absent(k.run("get", "cm", "-A", "-l", "app notin (hello)"), "greeting");
    c.expect(
        k.run("get", "cm", "-n", ns, "--field-selector", "metadata.name=literal"), 0, "literal");
    c.expect(
        k.run("describe", "deploy", "hello", "-n", "default"),
        0,
        "Name:",
        "hello",
        "Replicas:",
        "2 desired",
        "RollingUpdateStrategy:",
        "25% max surge");
    c.expect(
        k.run("create", "configmap", "dry", "-n", ns, "--from-literal=x=y", "--dry-run=server"),
        0,
        "configmap/dry created (server dry run)");
    c.expect(k.run("get", "cm", "dry", "-n", ns), 1, "NotFound", "configmaps \"dry\" not found");

    Path manifest = Files.createTempFile("manifest", ".yaml");
    Files.writeString(manifest, manifest(ns, "v", "gone: soon\n  "));
    c.expect(
        k.run("create", "-f", manifest.toString()),
        0,
        "configmap/settings created",
        "deployment.apps/web created");
    c.expect(
        k.run("delete", "-f", manifest.toString()),
        0,
        "configmap \"settings\" deleted",
        "deployment.apps \"web\" deleted");
    c.expect(
        k.run("apply", "-f", manifest.toString()),
        0,
        "configmap/settings created",
        "deployment.apps/web created");
    Files.writeString(manifest, manifest(ns, "v", ""));
    c.expect(k.run("apply", "-f", manifest.toString()), 0, "configmap/settings configured");
    c.expect(
        k.run("get", "cm", "settings", "-n", ns, "-o", "jsonpath={.data}"), 0, "{\"k\":\"v\"}");
    Files.writeString(manifest, manifest(ns, "changed", ""));
    c.expect(k.run("diff", "-f", manifest.toString()), 1, "-  k: v", "+  k: changed");
    c.expect(k.run("replace", "-f", manifest.toString()), 0, "configmap/settings replaced");

    Path editor = Files.createTempFile("editor", ".sh");
    Files.writeString(editor, "#!/bin/sh\nsed -i 's/k: changed/k: edited/' \"$1\"\n");
    Files.setPosixFilePermissions(
        editor,
        Set.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE));
    c.expect(
        k.run(Map.of("KUBE_EDITOR", editor.toString()), null, "edit", "cm", "settings", "-n", ns),
        0,
        "configmap/settings edited");
    c.expect(k.run("get", "cm", "settings", "-n", ns, "-o", "jsonpath={.data.k}"), 0, "edited");
    c.expect(k.run("label", "cm", "settings", "-n", ns, "color=blue"), 0, "labeled");
    c.expect(
        k.run("annotate", "cm", "settings", "-n", ns, "note=hi"), 0, "configmap/settings annotate");
    c.expect(
        k.run(
            "get",
            "cm",
            "settings",
            "-n",
            ns,
            "-o",
            "jsonpath={.metadata.labels.color}/{.metadata.annotations.note}"),
        0,
        "blue/hi");
    c.expect(
        k.run("scale", "deploy", "web", "-n", ns, "--replicas=3"), 0, "deployment.apps/web scaled");
    // The sample's own kind: written in v1beta1, scaled through its scale subresource, read in v1.
    Path rollout = Files.createTempFile("rollout", ".yaml");
    Files.writeString(
        rollout,
        manifest(ns, "v", "")
            .substring(manifest(ns, "v", "").indexOf("---\n") + 4)
            .replace(
                "apiVersion: apps/v1\nkind: Deployment",
                "apiVersion: demo.example.dev/v1beta1\nkind: Rollout"));
    c.expect(k.run("create", "-f", rollout.toString()), 0, "rollout.demo.example.dev/web created");
    c.expect(
        k.run("scale", "rollouts.demo.example.dev", "web", "-n", ns, "--replicas=2"),
        0,
        "rollout.demo.example.dev/web scaled");
    c.expect(
        k.run(
            "get",
            "rollouts.v1.demo.example.dev",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.apiVersion} {.spec.replicas}/{.metadata.generation}"),
        0,
        "demo.example.dev/v1 2/2");
    // Generation 3: `replace` dropped the last-applied annotation (kube-apiserver bumps a
    // Deployment's generation when its annotations change, as they are copied to its ReplicaSets),
    // and `scale` changed the spec.
    c.expect(
        k.run(
            "get",
            "deploy",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.spec.replicas}/{.metadata.generation}"),
        0,
        "3/3");
    c.expect(
        k.run(
            "patch",
            "cm",
            "settings",
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            "{\"data\":{\"m\":\"1\"}}"),
        0,
        "patched");
    c.expect(
        k.run(
            "patch",
            "cm",
            "settings",
            "-n",
            ns,
            "--type",
            "json",
            "-p",
            "[{\"op\":\"add\",\"path\":\"/data/j\",\"value\":\"2\"}]"),
        0,
        "patched");
    c.expect(
        k.run(
            "patch",
            "deploy",
            "web",
            "-n",
            ns,
            "--type",
            "strategic",
            "-p",
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"web\",\"image\":\"nginx:2\"}]}}}}"),
        0,
        "patched");
    c.expect(
        k.run("get", "cm", "settings", "-n", ns, "-o", "jsonpath={.data}"),
        0,
        "\"j\":\"2\"",
        "\"m\":\"1\"");
    c.expect(
        k.run(
            "get",
            "deploy",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.spec.template.spec.containers[0].image}"),
        0,
        "nginx:2");

    Process watch = k.start("get", "cm", "-n", ns, "-w");
    try {
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8));
      String header = lines.readLine();
      StringBuilder seen = new StringBuilder(String.valueOf(header)).append('\n');
      boolean found = false;
      c.expect(
          k.run("create", "configmap", "watched", "-n", ns, "--from-literal=x=y"), 0, "created");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!found && System.nanoTime() < deadline) {
        String line = lines.readLine();
        if (line == null) {
          break;
        }
        seen.append(line).append('\n');
        found = line.startsWith("watched");
      }
      if (!found) {
        c.failures.add(k.name + ": get -w did not see the new ConfigMap:\n" + seen);
      }
    } finally {
      watch.destroyForcibly();
    }
    c.expect(k.run("delete", "cm", "watched", "-n", ns), 0, "configmap \"watched\" deleted");
    c.expect(k.run("get", "cm", "watched", "-n", ns), 1, "not found");
    c.expect(k.run("explain", "deployments.spec.replicas"), 0, "replicas");

    c.expect(k.run("get", "foos"), 1, "the server doesn't have a resource type \"foos\"");
    c.expect(k.run("create", "configmap", "Bad_Name", "-n", ns), 1, "is invalid", "metadata.name");
    Path strict = Files.createTempFile("strict", ".yaml");
    Files.writeString(
        strict,
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\n  namespace: "
            + ns
            + "\nbogus: field\n");
    c.expect(k.run("create", "-f", strict.toString()), 1, "unknown field \"bogus\"");
    Kubectl.Result stale = k.run("get", "cm", "settings", "-n", ns, "-o", "yaml");
    Path staleFile = Files.createTempFile("stale", ".yaml");
    Files.writeString(staleFile, stale.out());
    c.expect(k.run("label", "cm", "settings", "-n", ns, "fresh=1"), 0, "labeled");
    c.expect(
        k.run("replace", "-f", staleFile.toString()),
        1,
        "Conflict",
        "the object has been modified");
    c.expect(k.run("delete", "namespace", ns), 0, "namespace \"" + ns + "\" deleted");
    c.expect(k.run("get", "cm", "-n", ns), 0, "No resources found");
    assertEquals(List.of(), c.failures);
  }

  private static String manifest(String ns, String value, String extra) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: "
        + ns
        + "\ndata:\n  "
        + extra
        + "k: "
        + value
        + "\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: "
        + ns
        + "\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n"
        + "    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n"
        + "      - name: web\n        image: nginx\n";
  }
}
