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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Real CustomResourceDefinitions (kubernetes/sample-controller's Foo, and Gateway API's
 * GatewayClass, Gateway and HTTPRoute; copies under {@code src/test/resources/crds}, sources in its
 * README) installed on the sample server by every real kubectl on the machine, each against a
 * server of its own: create, wait for {@code Established}, discovery, create the projects' sample
 * objects, get with printer columns, {@code -o yaml}, explain, the refusals of invalid objects with
 * kube-apiserver's messages, scale, delete. Fails, saying what to install, where no kubectl is
 * installed.
 */
class SampleServerCrdKubectlTest {
  private static final Path CRDS = Path.of("src/test/resources/crds");

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerCrdKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static void scenario(String name, Path binary) throws Exception {
    ApiServer server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Kubectl k = Kubectl.of(name, binary, binding.port());
      List<String> failures = new ArrayList<>();
      String foos = CRDS.resolve("sample-controller/crd-status-subresource.yaml").toString();
      String foo = CRDS.resolve("sample-controller/example-foo.yaml").toString();
      expect(
          failures,
          k.run("create", "-f", foos),
          0,
          "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io created");
      expect(
          failures,
          k.run(
              "wait",
              "--for",
              "condition=established",
              "--timeout=30s",
              "crd/foos.samplecontroller.k8s.io"),
          0,
          "condition met");
      expect(
          failures,
          k.run("api-resources", "--api-group=samplecontroller.k8s.io"),
          0,
          "foos",
          "samplecontroller.k8s.io/v1alpha1",
          "true",
          "Foo");
      expect(
          failures,
          k.run("create", "-n", "default", "-f", foo),
          0,
          "foo.samplecontroller.k8s.io/example-foo created");
      expect(failures, k.run("get", "foos", "-n", "default"), 0, "NAME", "AGE", "example-foo");
      expect(
          failures,
          k.run("get", "foo", "example-foo", "-n", "default", "-o", "yaml"),
          0,
          "apiVersion: samplecontroller.k8s.io/v1alpha1",
          "kind: Foo",
          "deploymentName: example-foo",
          "replicas: 1",
          "generation: 1");
      expect(
          failures,
          k.run(
              Map.of(),
              "{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                  + "\"metadata\":{\"name\":\"too-many\"},\"spec\":{\"replicas\":11}}",
              "create",
              "-n",
              "default",
              "-f",
              "-"),
          1,
          "The Foo \"too-many\" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body"
              + " should be less than or equal to 10");
      expect(
          failures,
          k.run(
              Map.of(),
              "{\"apiVersion\":\"samplecontroller.k8s.io/v1alpha1\",\"kind\":\"Foo\","
                  + "\"metadata\":{\"name\":\"typo\"},\"spec\":{\"replica\":1}}",
              "create",
              "-n",
              "default",
              "-f",
              "-"),
          1,
          "strict decoding error: unknown field \"spec.replica\"");
      expect(failures, k.run("explain", "foo.spec"), 0, "KIND:", "Foo", "replicas", "<integer>");
      expect(
          failures,
          k.run("apply", "-n", "default", "-f", foo),
          0,
          "foo.samplecontroller.k8s.io/example-foo");
      expect(
          failures,
          k.run(
              Map.of(),
              "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata:\n  name:"
                  + " example-foo\nspec:\n  deploymentName: example-foo\n  replicas: 3\n",
              "apply",
              "-n",
              "default",
              "-f",
              "-"),
          0,
          "foo.samplecontroller.k8s.io/example-foo configured");
      expect(
          failures,
          k.run(
              "patch",
              "foo",
              "example-foo",
              "-n",
              "default",
              "--type=merge",
              "-p",
              "{\"spec\":{\"replicas\":4}}"),
          0,
          "foo.samplecontroller.k8s.io/example-foo patched");
      expect(
          failures,
          k.run(
              "patch",
              "foo",
              "example-foo",
              "-n",
              "default",
              "--type=strategic",
              "-p",
              "{\"spec\":{\"replicas\":5}}"),
          1,
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json");
      expect(
          failures,
          k.run("get", "foo", "example-foo", "-n", "default", "-o", "jsonpath={.spec.replicas}"),
          0,
          "4");

      // A definition over 256 KiB: kubectl apply (client-side) puts all of it in the
      // last-applied-configuration annotation, which the annotations' limit refuses, as
      // kube-apiserver refuses it; kubectl create does not.
      Path big = Files.createTempFile("big-crd", ".yaml");
      Files.writeString(
          big,
          "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
              + "  name: bigs.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n"
              + "  names: {plural: bigs, kind: Big}\n  versions:\n  - name: v1\n"
              + "    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n"
              + "        type: object\n        description: "
              + "x".repeat(300 * 1024)
              + "\n");
      expect(
          failures,
          k.run("apply", "-f", big.toString()),
          1,
          "The CustomResourceDefinition \"bigs.example.com\" is invalid: metadata.annotations:"
              + " Too long: may not be more than 262144 bytes");
      expect(
          failures,
          k.run("create", "-f", big.toString()),
          0,
          "customresourcedefinition.apiextensions.k8s.io/bigs.example.com created");
      Files.delete(big);

      for (String crd : List.of("gatewayclasses", "gateways", "httproutes")) {
        expect(
            failures,
            k.run(
                "create",
                "-f",
                CRDS.resolve(
                        "gateway-api/config/crd/standard/gateway.networking.k8s.io_"
                            + crd
                            + ".yaml")
                    .toString()),
            0,
            "customresourcedefinition.apiextensions.k8s.io/"
                + crd
                + ".gateway.networking.k8s.io"
                + " created");
      }
      expect(
          failures,
          k.run(
              "wait",
              "--for",
              "condition=established",
              "--timeout=30s",
              "crd/gatewayclasses.gateway.networking.k8s.io",
              "crd/gateways.gateway.networking.k8s.io",
              "crd/httproutes.gateway.networking.k8s.io"),
          0,
          "condition met");
      expect(
          failures,
          k.run(
              "create",
              "-n",
              "default",
              "-f",
              CRDS.resolve("gateway-api/examples/standard/basic-http.yaml").toString()),
          0,
          "gatewayclass.gateway.networking.k8s.io/example created",
          "gateway.gateway.networking.k8s.io/my-gateway created",
          "httproute.gateway.networking.k8s.io/http-app-1 created");
      expect(
          failures,
          k.run("get", "gatewayclasses"),
          0,
          "NAME",
          "CONTROLLER",
          "ACCEPTED",
          "AGE",
          "acme.io/gateway-controller");
      expect(
          failures,
          k.run("get", "gateways", "-n", "default"),
          0,
          "CLASS",
          "ADDRESS",
          "PROGRAMMED",
          "my-gateway",
          "example");
      expect(
          failures,
          k.run("get", "httproutes", "-n", "default"),
          0,
          "HOSTNAMES",
          "http-app-1",
          "[\"foo.com\"]");
      expect(
          failures,
          k.run("get", "httproute", "http-app-1", "-n", "default", "-o", "yaml"),
          0,
          "kind: Service",
          "weight: 1",
          "group: gateway.networking.k8s.io");
      expect(
          failures,
          k.run(
              Map.of(),
              "{\"apiVersion\":\"gateway.networking.k8s.io/v1\",\"kind\":\"Gateway\","
                  + "\"metadata\":{\"name\":\"bad-port\"},\"spec\":{\"gatewayClassName\":\"example\","
                  + "\"listeners\":[{\"name\":\"http\",\"protocol\":\"HTTP\",\"port\":70000}]}}",
              "create",
              "-n",
              "default",
              "-f",
              "-"),
          1,
          "The Gateway \"bad-port\" is invalid: spec.listeners[0].port: Invalid value: 70000:"
              + " spec.listeners[0].port in body should be less than or equal to 65535");
      expect(failures, k.run("explain", "gateways.spec.listeners.port"), 0, "<integer>");
      // Gateway API's CEL rules (x-kubernetes-validations) are enforced, with their messages.
      expect(
          failures,
          k.run(
              Map.of(),
              "{\"apiVersion\":\"gateway.networking.k8s.io/v1\",\"kind\":\"Gateway\","
                  + "\"metadata\":{\"name\":\"bad-tls\"},\"spec\":{\"gatewayClassName\":\"example\","
                  + "\"listeners\":[{\"name\":\"http\",\"protocol\":\"HTTP\",\"port\":80,"
                  + "\"tls\":{\"mode\":\"Terminate\",\"certificateRefs\":[{\"name\":\"cert\"}]}}]}}",
              "create",
              "-n",
              "default",
              "-f",
              "-"),
          1,
          "The Gateway \"bad-tls\" is invalid: spec.listeners: Invalid value: \"array\": tls must"
              + " not be specified for protocols ['HTTP', 'TCP', 'UDP']");
      expect(
          failures,
          k.run(
              "patch",
              "gatewayclass",
              "example",
              "--type=merge",
              "-p",
              "{\"spec\":{\"controllerName\":\"acme.io/other-controller\"}}"),
          1,
          "The GatewayClass \"example\" is invalid: spec.controllerName: Invalid value:"
              + " \"string\": Value is immutable");
      expect(
          failures,
          k.run(
              "patch",
              "gatewayclass",
              "example",
              "--type=merge",
              "-p",
              "{\"spec\":{\"description\":\"the example class\"}}"),
          0,
          "gatewayclass.gateway.networking.k8s.io/example patched");
      expect(
          failures,
          k.run(
              "delete",
              "-n",
              "default",
              "-f",
              CRDS.resolve("gateway-api/examples/standard/basic-http.yaml").toString()),
          0,
          "httproute.gateway.networking.k8s.io \"http-app-1\" deleted");
      expect(
          failures,
          k.run("delete", "crd", "foos.samplecontroller.k8s.io"),
          0,
          "customresourcedefinition.apiextensions.k8s.io \"foos.samplecontroller.k8s.io\" deleted");
      // The definition's kind stops being served once the controller has seen the deletion, as
      // in kube-apiserver: a client with a fresh discovery cache then no longer knows it.
      String unknown = "the server doesn't have a resource type \"foos\"";
      Kubectl.Result after = null;
      for (int attempt = 0; attempt < 50; attempt++) {
        after = Kubectl.of(name, binary, binding.port()).run("get", "foos", "-n", "default");
        if (after.all().contains(unknown)) {
          break;
        }
        Thread.sleep(100);
      }
      expect(failures, after, 1, unknown);
      assertEquals(List.of(), failures);
    }
  }

  private static void expect(
      List<String> failures, Kubectl.Result result, int exitCode, String... contains) {
    List<String> missing = new ArrayList<>();
    for (String text : contains) {
      if (!result.all().contains(text)) {
        missing.add(text);
      }
    }
    if (result.exitCode() != exitCode || !missing.isEmpty()) {
      failures.add(
          "expected exit "
              + exitCode
              + " and "
              + missing
              + ", got exit "
              + result.exitCode()
              + ":\n"
              + result.all());
    }
  }
}
