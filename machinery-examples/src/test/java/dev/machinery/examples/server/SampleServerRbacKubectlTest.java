package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.Certificates;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample server with {@code --authorization-mode=RBAC} over TLS, driven by every real kubectl
 * on the machine: an admin (a token in {@code system:masters}) makes a namespace and binds {@code
 * admin} in it to jane (a client certificate); jane's {@code auth can-i} answers yes and no, {@code
 * auth can-i --list} lists her rules, a {@code get} outside her namespace is refused with
 * kube-apiserver's message, a RoleBinding to {@code cluster-admin} is refused as an escalation, and
 * her {@code --as=bob} is refused, she may create a LocalSubjectAccessReview in her namespace
 * (listed by {@code api-resources}); the admin's {@code auth can-i --as} answers for the user
 * impersonated; bob (a token, no bindings) may still ask who he is. Fails, saying what to install,
 * where no kubectl or no openssl is installed.
 */
class SampleServerRbacKubectlTest {
  @TempDir static Path dir;

  private static JdkHttpBinding binding;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    Certificates.require("SampleServerRbacKubectlTest");
    Certificates made = new Certificates(dir);
    made.authority("ca", "test-client-ca");
    Files.writeString(
        dir.resolve("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("jane", "/O=dev/O=ops/CN=jane", "ca", "client.ext", "rsa:2048");
    Files.writeString(
        dir.resolve("tokens.csv"),
        "tok-admin,admin,uid-admin,system:masters\ntok-bob,bob,uid-bob,devs\n");
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100);
    SampleServer.configureSecurity(
        builder,
        Map.of(
            "--tls-cert-file", dir.resolve("server.crt").toString(),
            "--tls-private-key-file", dir.resolve("server.key").toString(),
            "--client-ca-file", dir.resolve("ca.crt").toString(),
            "--token-auth-file", dir.resolve("tokens.csv").toString()),
        true,
        "RBAC");
    ApiServer server = builder.build();
    SampleServer.loadSamples(server);
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: tls
          cluster:
            server: https://127.0.0.1:1
            certificate-authority: %1$s/ca.crt
        users:
        - name: jane
          user:
            client-certificate: %1$s/jane.crt
            client-key: %1$s/jane.key
        - name: admin
          user:
            token: tok-admin
        - name: bob
          user:
            token: tok-bob
        contexts:
        - {name: jane, context: {cluster: tls, user: jane}}
        - {name: admin, context: {cluster: tls, user: admin}}
        - {name: bob, context: {cluster: tls, user: bob}}
        current-context: bob
        """
            .formatted(dir));
  }

  @AfterAll
  static void stop() {
    if (binding != null) {
      binding.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerRbacKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static void scenario(String name, Path binary) throws Exception {
    Kubectl kubectl = Kubectl.of(name, binary, "https://127.0.0.1:" + binding.port());
    String ns = "rbac-" + name.replace('.', '-');
    KubectlChecks checks = new KubectlChecks(name);
    checks.expect(kubectl.runIn(kubeconfig, "admin", "create", "namespace", ns), 0, "created");
    checks.expect(
        kubectl.runIn(
            kubeconfig,
            "admin",
            "create",
            "rolebinding",
            "jane-admin",
            "--clusterrole=admin",
            "--user=jane",
            "-n",
            ns),
        0,
        "rolebinding.rbac.authorization.k8s.io/jane-admin created");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "auth", "can-i", "list", "configmaps", "-n", ns),
        0,
        "yes");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "auth", "can-i", "create", "deployments.apps", "-n", ns),
        0,
        "yes");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "auth", "can-i", "list", "configmaps", "-n", "default"),
        1,
        "no");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "auth", "can-i", "create", "clusterroles"), 1, "no");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "auth", "can-i", "--list", "-n", ns),
        0,
        "Resources",
        "Non-Resource URLs",
        "configmaps",
        "deployments.apps",
        "selfsubjectaccessreviews.authorization.k8s.io",
        "[/version]");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "get", "configmaps", "-n", ns), 0, "No resources found");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "get", "configmaps", "-n", "default"),
        1,
        "Error from server (Forbidden): configmaps is forbidden: User \"jane\" cannot list resource"
            + " \"configmaps\" in API group \"\" in the namespace \"default\"");
    checks.expect(
        kubectl.runIn(
            kubeconfig,
            "jane",
            "create",
            "rolebinding",
            "steal",
            "--clusterrole=cluster-admin",
            "--user=jane",
            "-n",
            ns),
        1,
        "rolebindings.rbac.authorization.k8s.io \"steal\" is forbidden: user \"jane\""
            + " (groups=[\"dev\" \"ops\" \"system:authenticated\"]) is attempting to grant RBAC"
            + " permissions not currently held:");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "create", "configmap", "mine", "-n", ns), 0, "created");
    // kubectl --as: the admin may impersonate, jane may not.
    checks.expect(
        kubectl.runIn(
            kubeconfig, "admin", "auth", "can-i", "list", "configmaps", "-n", ns, "--as=jane"),
        0,
        "yes");
    checks.expect(
        kubectl.runIn(
            kubeconfig, "admin", "auth", "can-i", "list", "configmaps", "-n", ns, "--as=bob"),
        1,
        "no");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "get", "configmaps", "-n", ns, "--as=bob"),
        1,
        "Error from server (Forbidden): users \"bob\" is forbidden: User \"jane\" cannot"
            + " impersonate resource \"users\" in API group \"\" at the cluster scope");
    // The reviews are listed in discovery, so kubectl knows the local one and creates it.
    checks.expect(
        kubectl.runIn(kubeconfig, "bob", "api-resources", "--api-group=authorization.k8s.io"),
        0,
        "localsubjectaccessreviews",
        "LocalSubjectAccessReview",
        "selfsubjectaccessreviews",
        "subjectaccessreviews");
    checks.expect(
        kubectl.runIn(
            kubeconfig, "jane", "auth", "can-i", "create", "localsubjectaccessreviews", "-n", ns),
        0,
        "yes");
    Path review = dir.resolve("lsar-" + name + ".yaml");
    Files.writeString(
        review,
        """
        apiVersion: authorization.k8s.io/v1
        kind: LocalSubjectAccessReview
        metadata:
          namespace: %1$s
        spec:
          user: bob
          resourceAttributes: {namespace: %1$s, verb: list, resource: configmaps}
        """
            .formatted(ns));
    checks.expect(
        kubectl.runIn(
            kubeconfig,
            "jane",
            "create",
            "-f",
            review.toString(),
            "--validate=false",
            "-o",
            "jsonpath={.metadata.namespace} {.status.allowed}"),
        0,
        ns + " false");
    checks.expect(kubectl.runIn(kubeconfig, "bob", "auth", "whoami"), 0, "bob");
    checks.expect(kubectl.runIn(kubeconfig, "bob", "auth", "can-i", "get", "namespaces"), 1, "no");
    checks.expect(
        kubectl.runIn(
            kubeconfig,
            "admin",
            "get",
            "clusterroles",
            "view",
            "-o",
            "jsonpath={.rules[*].resources}"),
        0,
        "pods/log");
    assertEquals(List.of(), checks.failures, name);
  }
}
