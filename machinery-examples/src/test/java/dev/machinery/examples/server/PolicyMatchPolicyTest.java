package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.unversioned.discovery.Enablement;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ValidatingAdmissionPolicy's {@code matchPolicy} against a custom resource served in two versions
 * (v1 stored, v2), as kube-apiserver's policy matcher decides: a rule matches the version the
 * request was made in; under {@code Equivalent} (the default) a rule naming the other served
 * version matches too, and the policy then sees the object, {@code request.kind} and {@code
 * request.resource} in the rule's version, {@code request.requestKind} and {@code
 * request.requestResource} in the request's; under {@code Exact} it does not match. Each policy
 * refuses with a message saying what it saw.
 */
class PolicyMatchPolicyTest {
  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient client;

  @BeforeEach
  void start() throws Exception {
    server =
        SampleServer.builder(
                Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100)
            .build();
    SampleServer.loadSamples(server);
    binding =
        SampleServer.serve(
            server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "jdk");
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    String schema =
        "    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n";
    client
        .resource(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
                + "  name: gadgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n"
                + "  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}\n"
                + "  versions:\n"
                + "  - name: v1\n    served: true\n    storage: true\n"
                + schema
                + "  - name: v2\n    served: true\n    storage: false\n"
                + schema)
        .create();
    for (int i = 0; ; i++) {
      try {
        client.resource(gadget("v2", "probe")).dryRun().create();
        return;
      } catch (KubernetesClientException e) {
        if (i > 100) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  @AfterEach
  void stop() {
    client.close();
    binding.close();
    server.close();
  }

  private static String gadget(String version, String name) {
    return "apiVersion: example.com/"
        + version
        + "\nkind: Gadget\nmetadata:\n  name: "
        + name
        + "\n  namespace: default\nspec: {size: 1}\n";
  }

  /** A policy on gadgets in one version that refuses every write, saying what it saw. */
  private void policy(String name, String version, String matchPolicy) {
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n"
                + "metadata: {name: "
                + name
                + "}\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n"
                + (matchPolicy == null ? "" : "    matchPolicy: " + matchPolicy + "\n")
                + "    resourceRules:\n"
                + "    - apiGroups: [example.com]\n      apiVersions: ["
                + version
                + "]\n      operations: [CREATE]\n      resources: [gadgets]\n"
                + "  validations:\n  - expression: 'false'\n"
                + "    messageExpression: \"'object ' + object.apiVersion + ', kind '"
                + " + request.kind.version + ', resource ' + request.resource.version"
                + " + ', requestKind ' + request.requestKind.version"
                + " + ', requestResource ' + request.requestResource.version\"\n")
        .create();
    client
        .resource(
            "apiVersion: admissionregistration.k8s.io/v1\n"
                + "kind: ValidatingAdmissionPolicyBinding\nmetadata: {name: "
                + name
                + "-binding}\nspec: {policyName: "
                + name
                + ", validationActions: [Deny]}\n")
        .create();
  }

  private String refusal(String version, String name) {
    try {
      client.resource(gadget(version, name)).create();
      return "created";
    } catch (KubernetesClientException e) {
      return e.getStatus().getMessage();
    }
  }

  @Test
  void equivalentMatchesAnotherServedVersionAndSeesTheObjectInIt() {
    policy("in-v1", "v1", "Equivalent");
    assertEquals(
        "gadgets.example.com \"a\" is forbidden: ValidatingAdmissionPolicy 'in-v1' with binding"
            + " 'in-v1-binding' denied request: object example.com/v1, kind v1, resource v1,"
            + " requestKind v2, requestResource v2",
        refusal("v2", "a"));
  }

  @Test
  void aPolicyWithoutMatchPolicyIsEquivalentAsTheApiDefaultsIt() {
    policy("in-v1", "v1", null);
    assertEquals(
        "gadgets.example.com \"a\" is forbidden: ValidatingAdmissionPolicy 'in-v1' with binding"
            + " 'in-v1-binding' denied request: object example.com/v1, kind v1, resource v1,"
            + " requestKind v2, requestResource v2",
        refusal("v2", "a"));
  }

  @Test
  void exactDoesNotMatchAnotherVersion() {
    policy("in-v1", "v1", "Exact");
    assertEquals("created", refusal("v2", "a"));
    assertEquals(
        "gadgets.example.com \"b\" is forbidden: ValidatingAdmissionPolicy 'in-v1' with binding"
            + " 'in-v1-binding' denied request: object example.com/v1, kind v1, resource v1,"
            + " requestKind v1, requestResource v1",
        refusal("v1", "b"));
  }

  @Test
  void aRuleNamingTheRequestedVersionSeesTheObjectInItThoughStoredInAnother() {
    policy("in-v2", "v2", "Exact");
    assertEquals(
        "gadgets.example.com \"a\" is forbidden: ValidatingAdmissionPolicy 'in-v2' with binding"
            + " 'in-v2-binding' denied request: object example.com/v2, kind v2, resource v2,"
            + " requestKind v2, requestResource v2",
        refusal("v2", "a"));
    assertEquals("created", refusal("v1", "b"));
  }

  @Test
  void aVersionTheResourceIsNotServedInMatchesNothing() {
    policy("in-v3", "v3", "Equivalent");
    assertEquals("created", refusal("v2", "a"));
    assertEquals("created", refusal("v1", "b"));
  }
}
