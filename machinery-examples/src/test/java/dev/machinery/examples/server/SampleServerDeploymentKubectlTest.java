package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The sample server's Deployment is Kubernetes' own, through every real kubectl on the machine,
 * each in its own namespace: {@code kubectl create deployment} gets the defaults kube-apiserver
 * writes (Kubernetes' {@code pkg/apis/apps/v1/defaults.go} and {@code
 * pkg/apis/core/v1/defaults.go}: {@code progressDeadlineSeconds} 600, {@code revisionHistoryLimit}
 * 10, a {@code RollingUpdate} strategy of 25% and 25%, the pod template's {@code
 * terminationGracePeriodSeconds} 30, {@code dnsPolicy ClusterFirst}, {@code restartPolicy Always},
 * {@code schedulerName default-scheduler}, and each container's {@code terminationMessagePath},
 * {@code terminationMessagePolicy} and {@code imagePullPolicy}); {@code kubectl scale} goes through
 * its {@code scale} subresource; and {@code apply --server-side} treats {@code spec.selector} as
 * atomic ({@code +structType=atomic} on {@code LabelSelector}): its managed fields own the selector
 * whole, and a second manager's apply that adds a selector label conflicts on {@code
 * .spec.selector}, not on the label.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class SampleServerDeploymentKubectlTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiServer server;
  private HttpBinding binding;

  @BeforeAll
  void start() throws Exception {
    server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "netty");
  }

  @AfterAll
  void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerDeploymentKubectlTest");
    return installed.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> scenario(Kubectl.of(e.getKey(), e.getValue(), binding.port()))));
  }

  private static void scenario(Kubectl k) throws Exception {
    String ns = "deploy-" + k.name.replace("kubectl", "k").replace(".", "-");
    KubectlChecks c = new KubectlChecks(k.name);
    c.expect(k.run("create", "namespace", ns), 0, "namespace/" + ns + " created");

    c.expect(
        k.run("create", "deployment", "web", "-n", ns, "--image=nginx:1.27"),
        0,
        "deployment.apps/web created");
    c.expect(
        k.run("create", "deployment", "latest", "-n", ns, "--image=nginx"),
        0,
        "deployment.apps/latest created");
    JsonNode web = object(c, k.run("get", "deployment", "web", "-n", ns, "-o", "json"));
    if (web != null) {
      JsonNode spec = web.path("spec");
      c.same("replicas", 1, spec.path("replicas").asInt());
      c.same("progressDeadlineSeconds", 600, spec.path("progressDeadlineSeconds").asInt());
      c.same("revisionHistoryLimit", 10, spec.path("revisionHistoryLimit").asInt());
      c.same("strategy.type", "RollingUpdate", spec.at("/strategy/type").asText());
      c.same("maxSurge", "25%", spec.at("/strategy/rollingUpdate/maxSurge").asText());
      c.same("maxUnavailable", "25%", spec.at("/strategy/rollingUpdate/maxUnavailable").asText());
      c.same("selector", "{\"app\":\"web\"}", spec.at("/selector/matchLabels").toString());
      JsonNode pod = spec.at("/template/spec");
      c.same("restartPolicy", "Always", pod.path("restartPolicy").asText());
      c.same(
          "terminationGracePeriodSeconds", 30, pod.path("terminationGracePeriodSeconds").asInt());
      c.same("dnsPolicy", "ClusterFirst", pod.path("dnsPolicy").asText());
      c.same("schedulerName", "default-scheduler", pod.path("schedulerName").asText());
      c.same("securityContext", "{}", pod.path("securityContext").toString());
      JsonNode container = pod.at("/containers/0");
      c.same("container name", "nginx", container.path("name").asText());
      c.same(
          "terminationMessagePath",
          "/dev/termination-log",
          container.path("terminationMessagePath").asText());
      c.same(
          "terminationMessagePolicy", "File", container.path("terminationMessagePolicy").asText());
      c.same(
          "imagePullPolicy of a tagged image",
          "IfNotPresent",
          container.path("imagePullPolicy").asText());
      c.same("generation", 1, web.at("/metadata/generation").asInt());
    }
    JsonNode latest = object(c, k.run("get", "deployment", "latest", "-n", ns, "-o", "json"));
    if (latest != null) {
      c.same(
          "imagePullPolicy of an untagged image",
          "Always",
          latest.at("/spec/template/spec/containers/0/imagePullPolicy").asText());
    }

    // kubectl scale writes the scale subresource; the spec follows, and the generation with it.
    c.expect(
        k.run("scale", "deployment", "web", "-n", ns, "--replicas=3"),
        0,
        "deployment.apps/web scaled");
    c.expect(
        k.run(
            "get",
            "deployment",
            "web",
            "-n",
            ns,
            "-o",
            "jsonpath={.spec.replicas}/{.metadata.generation}"),
        0,
        "3/2");

    // The selector is atomic: one manager owns it whole, and another's different selector
    // conflicts on the selector itself.
    Path file = Files.createTempFile("selector", ".yaml");
    Files.writeString(file, selectorDeployment(ns, "app: sel\n"));
    c.expect(
        k.run("apply", "--server-side", "--field-manager=one", "-f", file.toString()),
        0,
        "deployment.apps/sel serverside-applied");
    JsonNode sel =
        object(
            c, k.run("get", "deployment", "sel", "-n", ns, "-o", "json", "--show-managed-fields"));
    if (sel != null) {
      JsonNode owned = null;
      for (JsonNode entry : sel.at("/metadata/managedFields")) {
        if (entry.path("manager").asText().equals("one")) {
          owned = entry.at("/fieldsV1/f:spec/f:selector");
        }
      }
      c.same("the fields manager one owns under spec.selector", "{}", String.valueOf(owned));
    }
    Files.writeString(file, selectorDeployment(ns, "app: sel\n      tier: web\n"));
    Kubectl.Result conflict =
        c.expect(
            k.run("apply", "--server-side", "--field-manager=two", "-f", file.toString()),
            1,
            "Apply failed with 1 conflict",
            "conflict with \"one\": .spec.selector\n");
    c.absent(conflict, ".spec.selector.matchLabels");
    c.expect(
        k.run("get", "deployment", "sel", "-n", ns, "-o", "jsonpath={.spec.selector.matchLabels}"),
        0,
        "{\"app\":\"sel\"}");
    c.expect(k.run("delete", "namespace", ns), 0, "namespace \"" + ns + "\" deleted");
    assertEquals(List.of(), c.failures);
  }

  /** A Deployment named {@code sel} whose selector's matchLabels are the lines given. */
  private static String selectorDeployment(String ns, String matchLabels) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sel\n  namespace: "
        + ns
        + "\nspec:\n  selector:\n    matchLabels:\n      "
        + matchLabels
        + "  template:\n    metadata:\n      labels: {app: sel, tier: web}\n"
        + "    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n";
  }

  /** The object a {@code -o json} run printed, or {@code null} with a failure recorded. */
  private static JsonNode object(KubectlChecks c, Kubectl.Result result) {
    if (result.exitCode() != 0) {
      c.failures.add(c.who + ": expected exit 0, got " + result.exitCode() + ":\n" + result.all());
      return null;
    }
    try {
      return JSON.readTree(result.out());
    } catch (java.io.IOException e) {
      c.failures.add(c.who + ": not JSON: " + e + "\n" + result.all());
      return null;
    }
  }
}
