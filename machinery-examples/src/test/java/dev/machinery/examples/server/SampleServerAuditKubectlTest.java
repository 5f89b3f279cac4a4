package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.audit.AuditLogWriter;
import dev.machinery.apiserver.audit.AuditPolicyException;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample server with kube-apiserver's {@code --audit-policy-file} and {@code --audit-log-path},
 * driven by every real kubectl on the machine: {@code get pods}, {@code create configmap} and
 * {@code delete configmap} each leave their events in the log, with the user of the token, the
 * verb, the object and the code, and the configmap's objects at the level the policy gives
 * configmaps. Fails, saying what to install, where no kubectl is installed.
 */
class SampleServerAuditKubectlTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir static Path dir;

  private static JdkHttpBinding binding;
  private static AuditLogWriter writer;
  private static Path log;
  private static Path kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    Path policy = dir.resolve("policy.yaml");
    Files.writeString(
        policy,
        """
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitStages: [RequestReceived]
        rules:
        - level: None
          nonResourceURLs: ["/api*", "/openapi*", "/version"]
        - level: RequestResponse
          resources:
          - group: ""
            resources: [configmaps]
          omitManagedFields: true
        - level: Metadata
        """);
    log = dir.resolve("audit.log");
    ApiServer.Builder builder =
        SampleServer.builder(
            Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 100);
    writer = SampleServer.configureAudit(builder, policy.toString(), log.toString(), System.err);
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
        - name: plain
          cluster:
            server: http://127.0.0.1:1
        users:
        - name: nobody
          user: {}
        contexts:
        - {name: auditor, context: {cluster: plain, user: nobody}}
        current-context: auditor
        """);
  }

  @AfterAll
  static void stop() {
    if (binding != null) {
      binding.close();
    }
    if (writer != null) {
      writer.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerAuditKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static void scenario(String name, Path binary) throws Exception {
    Kubectl kubectl = Kubectl.of(name, binary, "http://127.0.0.1:" + binding.port());
    String ns = "audit-" + name.replace('.', '-');
    KubectlChecks checks = new KubectlChecks(name);
    checks.expect(kubectl.runIn(kubeconfig, "auditor", "create", "namespace", ns), 0, "created");
    checks.expect(
        kubectl.runIn(kubeconfig, "auditor", "get", "pods", "-n", ns), 0, "No resources found");
    checks.expect(
        kubectl.runIn(
            kubeconfig, "auditor", "create", "configmap", "cm", "-n", ns, "--from-literal=a=b"),
        0,
        "configmap/cm created");
    checks.expect(
        kubectl.runIn(kubeconfig, "auditor", "delete", "configmap", "cm", "-n", ns),
        0,
        "configmap \"cm\" deleted");
    List<String> expected =
        List.of(
            "list pods  200 Metadata",
            "create configmaps cm 201 RequestResponse",
            "delete configmaps cm 200 RequestResponse");
    List<JsonNode> events = List.of();
    for (int attempt = 0; attempt < 100; attempt++) {
      events = events(ns);
      if (summaries(events).containsAll(expected)) {
        break;
      }
      Thread.sleep(100);
    }
    List<String> summaries = summaries(events);
    int at = 0;
    for (String each : expected) {
      int found = summaries.subList(at, summaries.size()).indexOf(each);
      checks.same("the event \"" + each + "\" after " + at + " in " + summaries, true, found >= 0);
      at = found < 0 ? at : at + found + 1;
    }
    for (JsonNode event : events) {
      checks.same("stage", "ResponseComplete", event.get("stage").asText());
      checks.same("user", "system:anonymous", event.at("/user/username").asText());
      checks.same("groups", "system:unauthenticated", event.at("/user/groups/0").asText());
      checks.same("source", "127.0.0.1", event.at("/sourceIPs/0").asText());
      checks.same("user agent", true, event.get("userAgent").asText().startsWith("kubectl"));
      checks.same(
          "decision", "allow", event.at("/annotations/authorization.k8s.io~1decision").asText());
    }
    JsonNode create =
        events.stream()
            .filter(e -> e.get("verb").asText().equals("create"))
            .findFirst()
            .orElse(null);
    if (create != null) {
      checks.same("request's data", "b", create.at("/requestObject/data/a").asText());
      checks.same("response's data", "b", create.at("/responseObject/data/a").asText());
      checks.same(
          "managed fields left out",
          false,
          create.at("/responseObject/metadata").has("managedFields"));
      checks.same(
          "request URI",
          "/api/v1/namespaces/" + ns + "/configmaps",
          create.get("requestURI").asText().replaceAll("\\?.*", ""));
    }
    assertEquals(List.of(), checks.failures);
  }

  /** The events about the namespace, each line parsed (a line that does not parse fails). */
  private static List<JsonNode> events(String ns) throws IOException {
    List<JsonNode> found = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      JsonNode event = JSON.readTree(line);
      if (event.at("/objectRef/namespace").asText().equals(ns)) {
        found.add(event);
      }
    }
    return found;
  }

  private static List<String> summaries(List<JsonNode> events) {
    return events.stream()
        .map(
            e ->
                e.get("verb").asText()
                    + " "
                    + e.at("/objectRef/resource").asText()
                    + " "
                    + e.at("/objectRef/name").asText()
                    + " "
                    + e.at("/responseStatus/code").asInt()
                    + " "
                    + e.get("level").asText())
        .toList();
  }

  @Test
  void invalidPolicyFileIsRefusedAtStart() throws IOException {
    Path bad = dir.resolve("bad-policy.yaml");
    Files.writeString(
        bad,
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
            + "- level: Everything\n  nonResourceURLs: [/x]\n  resources: [{group: ''}]\n");
    ApiServer.Builder builder =
        SampleServer.builder(Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 0);
    AuditPolicyException e =
        assertThrows(
            AuditPolicyException.class,
            () ->
                SampleServer.configureAudit(
                    builder, bad.toString(), dir.resolve("x.log").toString(), System.err));
    assertEquals(
        "invalid audit policy file \""
            + bad
            + "\": rules[1].level: Unsupported value: \"Everything\": supported values: \"None\","
            + " \"Metadata\", \"Request\", \"RequestResponse\"; rules[1].nonResourceURLs: Invalid"
            + " value: [\"/x\"]: rules cannot apply to both regular resources and non-resource"
            + " URLs",
        e.getMessage());
  }

  @Test
  void oneFlagWithoutTheOtherAuditsNothing() {
    ByteArrayOutputStream notes = new ByteArrayOutputStream();
    ApiServer.Builder builder =
        SampleServer.builder(Enablement.all(), Duration.ofMinutes(1), null, new MemoryStorage(), 0);
    assertEquals(
        null,
        SampleServer.configureAudit(
            builder, null, "-", new PrintStream(notes, true, StandardCharsets.UTF_8)));
    assertEquals(
        "no audit log: --audit-log-path is given without --audit-policy-file\n",
        notes.toString(StandardCharsets.UTF_8));
  }
}
