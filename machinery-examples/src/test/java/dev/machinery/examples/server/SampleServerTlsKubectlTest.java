package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.Certificates;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample server over TLS with kube-apiserver's flags ({@code --tls-cert-file}, {@code
 * --tls-private-key-file}, {@code --client-ca-file}, {@code --token-auth-file}, {@code
 * --anonymous-auth}), driven by every real kubectl on the machine through a kubeconfig: a user by
 * client certificate, a user by token, a bad token, a certificate from another CA, and no
 * credentials with anonymous access on and off. The certificates are made with openssl for each
 * run. Fails, saying what to install, where no kubectl or no openssl is installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SampleServerTlsKubectlTest {
  /** Whether the binding agrees to HTTP/2 when a client asks for it by ALPN. */
  boolean speaksHttp2() {
    return false;
  }

  /** The binding under test: {@code jdk} here, {@code netty} in the subclass. */
  String httpBinding() {
    return "jdk";
  }

  private Path dir;

  /** The request log of both servers: which SelfSubjectReview version each kubectl asks for. */
  private final List<String> requests = new java.util.concurrent.CopyOnWriteArrayList<>();

  private HttpBinding open;
  private HttpBinding closed;
  private Path kubeconfig;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    this.dir = dir;
    Certificates.require("SampleServerTlsKubectlTest");
    Certificates made = new Certificates(dir);
    made.authority("ca", "test-client-ca");
    made.authority("rogue-ca", "rogue-ca");
    Files.writeString(
        dir.resolve("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
    // The serving key is EC, the client keys RSA: both kinds of PKCS#8 key are read.
    made.signed("server", "/CN=127.0.0.1", "ca", "server.ext", "ec");
    made.signed("jane", "/O=dev/O=ops/CN=jane", "ca", "client.ext", "rsa:2048");
    made.signed("mallory", "/O=system:masters/CN=mallory", "rogue-ca", "client.ext", "rsa:2048");
    Files.writeString(
        dir.resolve("tokens.csv"), "tok-bob,bob,uid-bob,\"devs,qa\"\ntok-carol,carol,uid-carol\n");
    open = serve(true);
    closed = serve(false);
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
        - name: mallory
          user:
            client-certificate: %1$s/mallory.crt
            client-key: %1$s/mallory.key
        - name: bob
          user:
            token: tok-bob
        - name: bad
          user:
            token: not-a-token
        - name: nobody
          user:
            username: nobody
        contexts:
        - {name: jane, context: {cluster: tls, user: jane}}
        - {name: mallory, context: {cluster: tls, user: mallory}}
        - {name: bob, context: {cluster: tls, user: bob}}
        - {name: bad, context: {cluster: tls, user: bad}}
        - {name: nobody, context: {cluster: tls, user: nobody}}
        current-context: nobody
        """
            .formatted(dir));
  }

  // With no credentials at all kubectl asks for a user name on its standard input. A user name
  // without a password is sent as basic authentication, which kube-apiserver (since 1.19) and this
  // server ignore: the request is one without credentials.

  private HttpBinding serve(boolean anonymous) throws IOException {
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMinutes(1), requests::add, new MemoryStorage(), 100);
    SampleServer.configureSecurity(
        builder,
        Map.of(
            "--tls-cert-file", dir.resolve("server.crt").toString(),
            "--tls-private-key-file", dir.resolve("server.key").toString(),
            "--client-ca-file", dir.resolve("ca.crt").toString(),
            "--token-auth-file", dir.resolve("tokens.csv").toString()),
        anonymous);
    ApiServer server = builder.build();
    SampleServer.loadSamples(server);
    return SampleServer.serve(
        server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), httpBinding());
  }

  @AfterAll
  void stop() {
    if (open != null) {
      open.close();
    }
    if (closed != null) {
      closed.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerTlsKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private void scenario(String name, Path binary) throws Exception {
    Kubectl kubectl = Kubectl.of(name, binary, "https://127.0.0.1:" + open.port());
    Kubectl strict = Kubectl.of(name, binary, "https://127.0.0.1:" + closed.port());
    KubectlChecks checks = new KubectlChecks(name);
    String[] whoami = {"auth", "whoami"};

    int logged = requests.size();
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", whoami), 0, "jane", "[dev ops system:authenticated]");
    // kubectl 1.28 and later ask for v1; 1.27 for v1beta1 (each falls back to older on 404).
    String version = name.equals("kubectl.1.27") ? "v1beta1" : "v1";
    String answered = "POST /apis/authentication.k8s.io/" + version + "/selfsubjectreviews 201";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (requests.subList(logged, requests.size()).stream().noneMatch(l -> l.startsWith(answered))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    List<String> reviews =
        requests.subList(logged, requests.size()).stream()
            .filter(l -> l.contains("selfsubjectreviews"))
            .toList();
    if (reviews.size() != 1 || !reviews.get(0).startsWith(answered)) {
      checks.failures.add("wanted one '" + answered + "', got " + reviews);
    }
    checks.expect(
        kubectl.runIn(kubeconfig, "bob", whoami),
        0,
        "bob",
        "uid-bob",
        "[devs qa system:authenticated]");
    checks.expect(
        kubectl.runIn(kubeconfig, "nobody", whoami),
        0,
        "system:anonymous",
        "[system:unauthenticated]");
    checks.expect(
        kubectl.runIn(kubeconfig, "jane", "get", "configmaps", "-n", "default"), 0, "NAME");
    checks.expect(
        kubectl.runIn(kubeconfig, "bob", "get", "configmaps", "-n", "default"), 0, "NAME");
    checks.expect(
        kubectl.runIn(kubeconfig, "bad", "get", "configmaps"),
        1,
        "error: You must be logged in to the server (Unauthorized)");
    checks.expect(
        kubectl.runIn(kubeconfig, "mallory", "get", "configmaps"),
        1,
        "error: You must be logged in to the server (Unauthorized)");
    // A 401 to a request with basic authentication kubectl words its own way, after the prefix.
    checks.expect(
        strict.runIn(kubeconfig, "nobody", "get", "configmaps"),
        1,
        "error: You must be logged in to the server");
    checks.expect(strict.runIn(kubeconfig, "bob", "get", "configmaps", "-n", "default"), 0, "NAME");
    // Go's client asks for h2 by ALPN; GODEBUG=http2debug=2 makes it log the HTTP/2 frames it
    // writes. The Netty binding agrees to HTTP/2, the JDK binding speaks HTTP/1.1.
    Kubectl.Result traced =
        kubectl.run(
            Map.of("KUBECONFIG", kubeconfig.toString(), "GODEBUG", "http2debug=2"),
            null,
            "--context=jane",
            "get",
            "configmaps",
            "-n",
            "default");
    checks.expect(traced, 0, "NAME");
    boolean spokeHttp2 = traced.err().contains("http2: Framer");
    if (spokeHttp2 != speaksHttp2()) {
      checks.failures.add(
          name
              + (speaksHttp2() ? " did not speak HTTP/2: " : " spoke HTTP/2: ")
              + traced.err().lines().limit(5).toList());
    }
    assertEquals(List.of(), checks.failures, name);
  }
}
