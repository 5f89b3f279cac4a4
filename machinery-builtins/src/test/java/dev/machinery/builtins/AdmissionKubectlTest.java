package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.audit.AuditLogWriter;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.testing.RequiredTools;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * kube-apiserver's default admission through every real kubectl on the machine (the {@code kubectl}
 * on the PATH and the builds {@code kubectl.1.27} … {@code kubectl.1.33} beside it), each in
 * namespaces of its own, on a server of {@link BuiltinKinds#apiServer(DefaultAdmission)} with
 * {@code ServiceAccount} enabled: {@code kubectl run} makes a Pod that reads back with what
 * admission adds (the {@code default} service account, its {@code kube-api-access-XXXXX} projected
 * volume mounted read-only at {@code /var/run/secrets/kubernetes.io/serviceaccount}, the two {@code
 * NoExecute} tolerations of 300 seconds, priority 0 and {@code PreemptLowerPriority}) beside what
 * defaulting adds ({@code enableServiceLinks}, {@code schedulerName}); a namespace labelled {@code
 * pod-security.kubernetes.io/enforce=restricted} refuses {@code kubectl run}'s Pod and a privileged
 * one with kube-apiserver's message; in a namespace labelled {@code
 * pod-security.kubernetes.io/warn=restricted} and {@code audit=restricted}, {@code kubectl run}
 * prints kube-apiserver's {@code Warning: would violate PodSecurity "restricted:latest": ...} and
 * the create's event in the audit log carries {@code pod-security.kubernetes.io/enforce-policy} and
 * {@code audit-violations}; {@code kubectl get priorityclasses} lists the system classes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class AdmissionKubectlTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VOLUME =
      Pattern.compile("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");

  private ApiServer server;
  private HttpBinding binding;
  private Path auditLog;
  private AuditLogWriter auditWriter;

  @BeforeAll
  void start() throws IOException {
    auditLog = Files.createTempDirectory("admission-audit").resolve("audit.log");
    auditWriter = AuditLogWriter.open(auditLog);
    server =
        BuiltinKinds.apiServer(DefaultAdmission.kubernetes().enable("ServiceAccount"))
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n"
                        + "rules:\n- level: Metadata\n"),
                auditWriter)
            .build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterAll
  void stop() {
    if (binding != null) {
      binding.close();
    }
    if (server != null) {
      server.close();
    }
    if (auditWriter != null) {
      auditWriter.close();
    }
  }

  /** Every kubectl found, by name: the versioned builds, then the dispatcher. */
  private static Map<String, Path> installed() throws IOException {
    Map<String, Path> found = new LinkedHashMap<>();
    String path = System.getenv("PATH");
    for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
      Path kubectl = Path.of(dir, "kubectl");
      if (Files.isExecutable(kubectl)) {
        Path real = kubectl.toRealPath();
        for (int minor = 27; minor <= 33; minor++) {
          Path versioned = real.resolveSibling("kubectl.1." + minor);
          if (Files.isExecutable(versioned)) {
            found.put("kubectl.1." + minor, versioned);
          }
        }
        found.put("kubectl", kubectl);
        break;
      }
    }
    RequiredTools.require(!found.isEmpty(), RequiredTools.KUBECTL, "AdmissionKubectlTest");
    return found;
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws IOException {
    return installed().entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private record Result(int exitCode, String out, String err) {
    String all() {
      return out + err;
    }
  }

  private Result kubectl(Path binary, Path cache, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.add("--server=http://127.0.0.1:" + binding.port());
    command.add("--cache-dir=" + cache);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", cache.resolve("no-kubeconfig").toString());
    Path out = Files.createTempFile("kubectl", ".out");
    Path err = Files.createTempFile("kubectl", ".err");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Result(-1, Files.readString(out), "timed out\n" + Files.readString(err));
    }
    Result result =
        new Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return result;
  }

  private void scenario(String name, Path binary) throws Exception {
    Path cache = Files.createTempDirectory("kubectl-cache");
    List<String> failures = new ArrayList<>();
    String ns = "adm-" + name.replace("kubectl", "k").replace(".", "-");
    String restricted = ns + "-r";
    expect(
        failures,
        kubectl(binary, cache, "create", "namespace", ns),
        0,
        "namespace/" + ns + " created");
    // kube-controller-manager makes each namespace's default account; nothing here does.
    expect(
        failures,
        kubectl(binary, cache, "create", "serviceaccount", "default", "-n", ns),
        0,
        "serviceaccount/default created");
    expect(
        failures,
        kubectl(binary, cache, "run", "web", "--image=nginx:1.27", "-n", ns),
        0,
        "pod/web created");
    Result got = kubectl(binary, cache, "get", "pod", "web", "-n", ns, "-o", "json");
    if (got.exitCode() != 0) {
      failures.add(name + ": get pod: " + got.all());
    } else {
      JsonNode spec = JSON.readTree(got.out()).path("spec");
      same(
          failures,
          name,
          "serviceAccountName",
          "default",
          spec.path("serviceAccountName").asText());
      same(failures, name, "serviceAccount", "default", spec.path("serviceAccount").asText());
      String volume = spec.at("/volumes/0/name").asText();
      same(failures, name, "token volume name", true, VOLUME.matcher(volume).matches());
      same(
          failures,
          name,
          "token volume",
          JSON.readTree(
              """
              {"defaultMode":420,"sources":[
               {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
               {"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},
               {"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1",
                "fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}"""),
          spec.at("/volumes/0/projected"));
      same(
          failures,
          name,
          "mount",
          JSON.readTree(
              "{\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\",\"name\":\""
                  + volume
                  + "\",\"readOnly\":true}"),
          spec.at("/containers/0/volumeMounts/0"));
      same(
          failures,
          name,
          "tolerations",
          JSON.readTree(
              """
              [{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists",
                "tolerationSeconds":300},
               {"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists",
                "tolerationSeconds":300}]"""),
          spec.path("tolerations"));
      same(failures, name, "priority", "0", spec.path("priority").toString());
      same(
          failures,
          name,
          "preemptionPolicy",
          "PreemptLowerPriority",
          spec.path("preemptionPolicy").asText());
      same(
          failures, name, "enableServiceLinks", "true", spec.path("enableServiceLinks").toString());
      same(
          failures,
          name,
          "schedulerName",
          "default-scheduler",
          spec.path("schedulerName").asText());
    }
    expect(
        failures,
        kubectl(binary, cache, "get", "priorityclasses", "-o", "name"),
        0,
        "priorityclass.scheduling.k8s.io/system-cluster-critical",
        "priorityclass.scheduling.k8s.io/system-node-critical");

    expect(failures, kubectl(binary, cache, "create", "namespace", restricted), 0, "created");
    expect(
        failures,
        kubectl(binary, cache, "create", "serviceaccount", "default", "-n", restricted),
        0,
        "serviceaccount/default created");
    expect(
        failures,
        kubectl(
            binary,
            cache,
            "label",
            "namespace",
            restricted,
            "pod-security.kubernetes.io/enforce=restricted"),
        0,
        "namespace/" + restricted + " labeled");
    expect(
        failures,
        kubectl(binary, cache, "run", "plain", "--image=nginx", "-n", restricted),
        1,
        "Error from server (Forbidden): pods \"plain\" is forbidden: violates PodSecurity"
            + " \"restricted:latest\": allowPrivilegeEscalation != false (container \"plain\" must"
            + " set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities"
            + " (container \"plain\" must set securityContext.capabilities.drop=[\"ALL\"]),"
            + " runAsNonRoot != true (pod or container \"plain\" must set"
            + " securityContext.runAsNonRoot=true), seccompProfile (pod or container \"plain\""
            + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or"
            + " \"Localhost\")\n");
    Path file = Files.createTempFile("privileged", ".yaml");
    Files.writeString(
        file,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: priv\n  namespace: "
            + restricted
            + "\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
            + "    securityContext:\n      privileged: true\n");
    expect(
        failures,
        kubectl(binary, cache, "apply", "-f", file.toString()),
        1,
        "pods \"priv\" is forbidden: violates PodSecurity \"restricted:latest\": privileged"
            + " (container \"c\" must not set securityContext.privileged=true),"
            + " allowPrivilegeEscalation != false (container \"c\" must set"
            + " securityContext.allowPrivilegeEscalation=false)");
    String warned = ns + "-w";
    expect(failures, kubectl(binary, cache, "create", "namespace", warned), 0, "created");
    expect(
        failures,
        kubectl(binary, cache, "create", "serviceaccount", "default", "-n", warned),
        0,
        "serviceaccount/default created");
    expect(
        failures,
        kubectl(
            binary,
            cache,
            "label",
            "namespace",
            warned,
            "pod-security.kubernetes.io/warn=restricted",
            "pod-security.kubernetes.io/audit=restricted"),
        0,
        "namespace/" + warned + " labeled");
    String violations =
        "would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"
            + " (container \"w\" must set securityContext.allowPrivilegeEscalation=false),"
            + " unrestricted capabilities (container \"w\" must set"
            + " securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or"
            + " container \"w\" must set securityContext.runAsNonRoot=true), seccompProfile (pod"
            + " or container \"w\" must set securityContext.seccompProfile.type to"
            + " \"RuntimeDefault\" or \"Localhost\")";
    expect(
        failures,
        kubectl(binary, cache, "run", "w", "--image=nginx", "-n", warned),
        0,
        "Warning: " + violations + "\n",
        "pod/w created");
    JsonNode event = null;
    for (int attempt = 0; attempt < 100 && event == null; attempt++) {
      event = created(warned, "w");
      if (event == null) {
        Thread.sleep(100);
      }
    }
    if (event == null) {
      failures.add(name + ": no audit event of the create of pod " + warned + "/w in " + auditLog);
    } else {
      JsonNode annotations = event.path("annotations");
      same(
          failures,
          name,
          "audit annotation enforce-policy",
          "privileged:latest",
          annotations.path("pod-security.kubernetes.io/enforce-policy").asText());
      same(
          failures,
          name,
          "audit annotation audit-violations",
          violations,
          annotations.path("pod-security.kubernetes.io/audit-violations").asText());
    }
    expect(
        failures,
        kubectl(binary, cache, "delete", "namespace", ns, restricted, warned),
        0,
        "deleted");
    assertEquals(List.of(), failures);
  }

  /** The audit event of the create of a Pod, or null when not written yet. */
  private JsonNode created(String namespace, String name) throws IOException {
    for (String line : Files.readAllLines(auditLog, StandardCharsets.UTF_8)) {
      JsonNode event = JSON.readTree(line);
      if (event.path("verb").asText().equals("create")
          && event.at("/objectRef/resource").asText().equals("pods")
          && event.at("/objectRef/namespace").asText().equals(namespace)
          && event.at("/objectRef/name").asText().equals(name)) {
        return event;
      }
    }
    return null;
  }

  private static void expect(List<String> failures, Result result, int exitCode, String... texts) {
    List<String> missing = new ArrayList<>();
    for (String text : texts) {
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

  private static void same(
      List<String> failures, String who, String what, Object expected, Object actual) {
    if (!java.util.Objects.equals(expected, actual)) {
      failures.add(who + ": " + what + ": expected <" + expected + "> but was <" + actual + ">");
    }
  }
}
