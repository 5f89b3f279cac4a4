package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.builtins.PodSecurityChecks.Failure;
import dev.machinery.builtins.PodSecurityChecks.Level;
import dev.machinery.builtins.PodSecurityChecks.LevelVersion;
import dev.machinery.builtins.PodSecurityChecks.Version;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Pod Security Standards' checks as {@code k8s.io/pod-security-admission} 1.33 words them: the
 * cases of its {@code policy/check_*_test.go} tables (pods written as JSON, each check at the
 * version the Go test calls), then the order and versions of the checks a level runs ({@code
 * policy/registry.go}).
 */
class PodSecurityChecksTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, Object> tree(String json) {
    try {
      return JSON.readValue(json, new TypeReference<Map<String, Object>>() {});
    } catch (Exception e) {
      throw new IllegalArgumentException(json, e);
    }
  }

  /** A case: the check, its version, the pod (metadata and spec) and what Go expects. */
  private static Arguments c(
      String check, int minor, String name, String pod, String reason, String detail) {
    return Arguments.of(check, minor, name, pod, reason, detail);
  }

  private static final String SC_NONE = "";

  static Stream<Arguments> goCases() {
    return Stream.of(
        // check_allowPrivilegeEscalation_test.go
        c(
            "allowPrivilegeEscalation",
            25,
            "multiple containers",
            """
            {"spec":{"containers":[{"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"allowPrivilegeEscalation":true}},
             {"name":"d","securityContext":{"allowPrivilegeEscalation":false}}]}}""",
            "allowPrivilegeEscalation != false",
            "containers \"a\", \"b\", \"c\" must set"
                + " securityContext.allowPrivilegeEscalation=false"),
        c(
            "allowPrivilegeEscalation",
            25,
            "windows pod, admit without checking privilegeEscalation",
            "{\"spec\":{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"a\"}]}}",
            null,
            null),
        c(
            "allowPrivilegeEscalation",
            25,
            "linux pod, reject if security context is not set",
            "{\"spec\":{\"os\":{\"name\":\"linux\"},\"containers\":[{\"name\":\"a\"}]}}",
            "allowPrivilegeEscalation != false",
            "container \"a\" must set securityContext.allowPrivilegeEscalation=false"),
        c(
            "allowPrivilegeEscalation",
            8,
            "before 1.25 a windows pod is checked too",
            "{\"spec\":{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"a\"}]}}",
            "allowPrivilegeEscalation != false",
            "container \"a\" must set securityContext.allowPrivilegeEscalation=false"),
        // check_appArmorProfile_test.go
        c(
            "appArmorProfile",
            33,
            "container with default AppArmor + extra annotations",
            """
            {"metadata":{"annotations":{
             "container.apparmor.security.beta.kubernetes.io/test":"runtime/default","env":"prod"}},
             "spec":{}}""",
            null,
            null),
        c(
            "appArmorProfile",
            33,
            "container with local AppArmor + extra annotations",
            """
            {"metadata":{"annotations":{
             "container.apparmor.security.beta.kubernetes.io/test":"localhost/sec-profile01",
             "env":"dev"}},"spec":{}}""",
            null,
            null),
        c(
            "appArmorProfile",
            33,
            "pod with runtime default",
            "{\"spec\":{\"securityContext\":{\"appArmorProfile\":{\"type\":\"RuntimeDefault\"}}}}",
            null,
            null),
        c(
            "appArmorProfile",
            33,
            "unconfined pod",
            "{\"spec\":{\"securityContext\":{\"appArmorProfile\":{\"type\":\"Unconfined\"}}}}",
            "forbidden AppArmor profile",
            "pod must not set AppArmor profile type to \"Unconfined\""),
        c(
            "appArmorProfile",
            33,
            "unconfined container",
            """
            {"spec":{"securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}},
             "containers":[{"name":"foo",
              "securityContext":{"appArmorProfile":{"type":"Unconfined"}}}]}}""",
            "forbidden AppArmor profile",
            "container \"foo\" must not set AppArmor profile type to \"Unconfined\""),
        c(
            "appArmorProfile",
            33,
            "unconfined init container",
            """
            {"spec":{"securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}},
             "containers":[{"name":"foo"}],
             "initContainers":[{"name":"bar",
              "securityContext":{"appArmorProfile":{"type":"Unconfined"}}}]}}""",
            "forbidden AppArmor profile",
            "container \"bar\" must not set AppArmor profile type to \"Unconfined\""),
        c(
            "appArmorProfile",
            33,
            "multiple containers",
            """
            {"metadata":{"annotations":{
             "container.apparmor.security.beta.kubernetes.io/":"bogus",
             "container.apparmor.security.beta.kubernetes.io/a":"",
             "container.apparmor.security.beta.kubernetes.io/b":"runtime/default",
             "container.apparmor.security.beta.kubernetes.io/c":"localhost/",
             "container.apparmor.security.beta.kubernetes.io/d":"localhost/foo",
             "container.apparmor.security.beta.kubernetes.io/e":"unconfined",
             "container.apparmor.security.beta.kubernetes.io/f":"unknown"}},"spec":{}}""",
            "forbidden AppArmor profiles",
            "annotations must not set AppArmor profile type to"
                + " \"container.apparmor.security.beta.kubernetes.io/=\"bogus\"\","
                + " \"container.apparmor.security.beta.kubernetes.io/e=\"unconfined\"\","
                + " \"container.apparmor.security.beta.kubernetes.io/f=\"unknown\"\""),
        // check_capabilities_baseline_test.go
        c(
            "capabilities_baseline",
            33,
            "multiple containers",
            """
            {"spec":{"containers":[
             {"name":"a","securityContext":{"capabilities":{"add":["FOO","BAR"]}}},
             {"name":"b","securityContext":{"capabilities":{"add":["BAR","BAZ"]}}}]}}""",
            "non-default capabilities",
            "containers \"a\", \"b\" must not include \"BAR\", \"BAZ\", \"FOO\" in"
                + " securityContext.capabilities.add"),
        // check_capabilities_restricted_test.go
        c(
            "capabilities_restricted",
            25,
            "multiple containers",
            """
            {"spec":{"containers":[
             {"name":"a","securityContext":{"capabilities":{"add":["FOO","BAR"]}}},
             {"name":"b","securityContext":{"capabilities":{"add":["BAR","BAZ"]}}},
             {"name":"c","securityContext":{"capabilities":{"add":["NET_BIND_SERVICE","CHOWN"],
              "drop":["ALL","FOO"]}}}]}}""",
            "unrestricted capabilities",
            "containers \"a\", \"b\" must set securityContext.capabilities.drop=[\"ALL\"];"
                + " containers \"a\", \"b\", \"c\" must not include \"BAR\", \"BAZ\", \"CHOWN\","
                + " \"FOO\" in securityContext.capabilities.add"),
        c(
            "capabilities_restricted",
            25,
            "windows pod, admit without checking capabilities",
            "{\"spec\":{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"a\"}]}}",
            null,
            null),
        c(
            "capabilities_restricted",
            25,
            "linux pod, reject if security context is not set",
            "{\"spec\":{\"os\":{\"name\":\"linux\"},\"containers\":[{\"name\":\"a\"}]}}",
            "unrestricted capabilities",
            "container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]"),
        // check_hostNamespaces_test.go
        c(
            "hostNamespaces",
            33,
            "multiple host namespaces",
            "{\"spec\":{\"hostNetwork\":true,\"hostIPC\":true,\"hostPID\":true}}",
            "host namespaces",
            "hostNetwork=true, hostPID=true, hostIPC=true"),
        // check_hostPathVolumes_test.go
        c(
            "hostPathVolumes",
            33,
            "host path volumes",
            """
            {"spec":{"volumes":[{"name":"a","hostPath":{}},{"name":"b","hostPath":{}},
             {"name":"c","emptyDir":{}}]}}""",
            "hostPath volumes",
            "volumes \"a\", \"b\""),
        // check_hostPorts_test.go
        c(
            "hostPorts",
            33,
            "one container, one host port",
            """
            {"spec":{"containers":[{"name":"a","ports":[{"hostPort":0}]},
             {"name":"b","ports":[{"hostPort":0},{"hostPort":20}]}]}}""",
            "hostPort",
            "container \"b\" uses hostPort 20"),
        c(
            "hostPorts",
            33,
            "multiple containers, multiple host port",
            """
            {"spec":{"containers":[{"name":"a","ports":[{"hostPort":0}]},
             {"name":"b","ports":[{"hostPort":0},{"hostPort":10},{"hostPort":20}]},
             {"name":"c","ports":[{"hostPort":0},{"hostPort":10},{"hostPort":30}]}]}}""",
            "hostPort",
            "containers \"b\", \"c\" use hostPorts 10, 20, 30"),
        // check_privileged_test.go
        c(
            "privileged",
            33,
            "privileged",
            """
            {"spec":{"containers":[{"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"privileged":false}},
             {"name":"d","securityContext":{"privileged":true}},
             {"name":"e","securityContext":{"privileged":true}}]}}""",
            "privileged",
            "containers \"d\", \"e\" must not set securityContext.privileged=true"),
        // check_procMount_test.go (kube-apiserver 1.33 does not relax it for user namespaces)
        c(
            "procMount",
            33,
            "procMount",
            """
            {"spec":{"hostUsers":false,"containers":[{"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"procMount":"Default"}},
             {"name":"d","securityContext":{"procMount":"Unmasked"}},
             {"name":"e","securityContext":{"procMount":"other"}}]}}""",
            "procMount",
            "containers \"d\", \"e\" must not set securityContext.procMount to \"Unmasked\","
                + " \"other\""),
        // check_restrictedVolumes_test.go
        c(
            "restrictedVolumes",
            33,
            "host path volumes",
            """
            {"spec":{"volumes":[
             {"name":"a1","emptyDir":{}},{"name":"a2","secret":{}},
             {"name":"a3","persistentVolumeClaim":{}},{"name":"a4","downwardAPI":{}},
             {"name":"a5","configMap":{}},{"name":"a6","projected":{}},{"name":"a7","csi":{}},
             {"name":"a8","ephemeral":{}},{"name":"a9","image":{}},
             {"name":"b1","hostPath":{}},{"name":"b2","gcePersistentDisk":{}},
             {"name":"b3","awsElasticBlockStore":{}},{"name":"b4","gitRepo":{}},
             {"name":"b5","nfs":{}},{"name":"b6","iscsi":{}},{"name":"b7","glusterfs":{}},
             {"name":"b8","rbd":{}},{"name":"b9","flexVolume":{}},{"name":"b10","cinder":{}},
             {"name":"b11","cephfs":{}},{"name":"b12","flocker":{}},{"name":"b13","fc":{}},
             {"name":"b14","azureFile":{}},{"name":"b15","vsphereVolume":{}},
             {"name":"b16","quobyte":{}},{"name":"b17","azureDisk":{}},
             {"name":"b18","photonPersistentDisk":{}},{"name":"b19","portworxVolume":{}},
             {"name":"b20","scaleIO":{}},{"name":"b21","storageos":{}},
             {"name":"c1"}]}}""",
            "restricted volume types",
            "volumes \"b1\", \"b2\", \"b3\", \"b4\", \"b5\", \"b6\", \"b7\", \"b8\", \"b9\","
                + " \"b10\", \"b11\", \"b12\", \"b13\", \"b14\", \"b15\", \"b16\", \"b17\", \"b18\","
                + " \"b19\", \"b20\", \"b21\", \"c1\" use restricted volume types"
                + " \"awsElasticBlockStore\", \"azureDisk\", \"azureFile\", \"cephfs\", \"cinder\","
                + " \"fc\", \"flexVolume\", \"flocker\", \"gcePersistentDisk\", \"gitRepo\","
                + " \"glusterfs\", \"hostPath\", \"iscsi\", \"nfs\", \"photonPersistentDisk\","
                + " \"portworxVolume\", \"quobyte\", \"rbd\", \"scaleIO\", \"storageos\","
                + " \"unknown\", \"vsphereVolume\""),
        // check_runAsNonRoot_test.go
        c(
            "runAsNonRoot",
            33,
            "no explicit runAsNonRoot",
            "{\"spec\":{\"containers\":[{\"name\":\"a\"}]}}",
            "runAsNonRoot != true",
            "pod or container \"a\" must set securityContext.runAsNonRoot=true"),
        c(
            "runAsNonRoot",
            33,
            "pod runAsNonRoot=false",
            """
            {"spec":{"securityContext":{"runAsNonRoot":false},"containers":[{"name":"a"}]}}""",
            "runAsNonRoot != true",
            "pod must not set securityContext.runAsNonRoot=false"),
        c(
            "runAsNonRoot",
            33,
            "containers runAsNonRoot=false",
            """
            {"spec":{"securityContext":{"runAsNonRoot":true},"containers":[{"name":"a"},
             {"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"runAsNonRoot":false}},
             {"name":"d","securityContext":{"runAsNonRoot":false}},
             {"name":"e","securityContext":{"runAsNonRoot":true}},
             {"name":"f","securityContext":{"runAsNonRoot":true}}]}}""",
            "runAsNonRoot != true",
            "containers \"c\", \"d\" must not set securityContext.runAsNonRoot=false"),
        c(
            "runAsNonRoot",
            33,
            "pod nil, container fallthrough",
            """
            {"spec":{"containers":[{"name":"a"},{"name":"b","securityContext":{}},
             {"name":"d","securityContext":{"runAsNonRoot":true}},
             {"name":"e","securityContext":{"runAsNonRoot":true}}]}}""",
            "runAsNonRoot != true",
            "pod or containers \"a\", \"b\" must set securityContext.runAsNonRoot=true"),
        // check_runAsUser_test.go
        c(
            "runAsUser",
            33,
            "pod runAsUser=0",
            "{\"spec\":{\"securityContext\":{\"runAsUser\":0},\"containers\":[{\"name\":\"a\"}]}}",
            "runAsUser=0",
            "pod must not set runAsUser=0"),
        c(
            "runAsUser",
            33,
            "pod runAsUser=non-zero",
            "{\"spec\":{\"securityContext\":{\"runAsUser\":1000},\"containers\":[{\"name\":\"a\"}]}}",
            null,
            null),
        c(
            "runAsUser",
            33,
            "containers runAsUser=0",
            """
            {"spec":{"securityContext":{"runAsUser":1000},"containers":[{"name":"a"},
             {"name":"b","securityContext":{}},{"name":"c","securityContext":{"runAsUser":0}},
             {"name":"d","securityContext":{"runAsUser":0}},
             {"name":"e","securityContext":{"runAsUser":1}}]}}""",
            "runAsUser=0",
            "containers \"c\", \"d\" must not set runAsUser=0"),
        c(
            "runAsUser",
            22,
            "no runAsUser check before 1.23",
            "{\"spec\":{\"securityContext\":{\"runAsUser\":0},\"containers\":[{\"name\":\"a\"}]}}",
            null,
            null),
        // check_seLinuxOptions_test.go
        c(
            "seLinuxOptions",
            31,
            "invalid pod and containers",
            """
            {"spec":{"securityContext":{"seLinuxOptions":{"type":"foo","user":"bar","role":"baz"}},
             "containers":[
             {"name":"a","securityContext":{"seLinuxOptions":{"type":"container_t"}}},
             {"name":"b","securityContext":{"seLinuxOptions":{"type":"container_init_t"}}},
             {"name":"c","securityContext":{"seLinuxOptions":{"type":"container_kvm_t"}}},
             {"name":"d","securityContext":{"seLinuxOptions":{"type":"container_engine_t"}}},
             {"name":"e","securityContext":{"seLinuxOptions":{"type":"bar"}}},
             {"name":"f","securityContext":{"seLinuxOptions":{"user":"bar"}}},
             {"name":"g","securityContext":{"seLinuxOptions":{"role":"baz"}}}]}}""",
            "seLinuxOptions",
            "pod and containers \"e\", \"f\", \"g\" set forbidden"
                + " securityContext.seLinuxOptions: types \"bar\", \"foo\"; user may not be set;"
                + " role may not be set"),
        c(
            "seLinuxOptions",
            31,
            "invalid pod",
            """
            {"spec":{"securityContext":{"seLinuxOptions":{"type":"foo","user":"bar","role":"baz"}},
             "containers":[
             {"name":"d","securityContext":{"seLinuxOptions":{"type":"container_engine_t"}}}]}}""",
            "seLinuxOptions",
            "pod set forbidden securityContext.seLinuxOptions: type \"foo\"; user may not be set;"
                + " role may not be set"),
        c(
            "seLinuxOptions",
            30,
            "container_engine_t is allowed from 1.31 on",
            """
            {"spec":{"containers":[
             {"name":"d","securityContext":{"seLinuxOptions":{"type":"container_engine_t"}}}]}}""",
            "seLinuxOptions",
            "container \"d\" set forbidden securityContext.seLinuxOptions: type"
                + " \"container_engine_t\""),
        c(
            "seLinuxOptions",
            31,
            "bad user",
            "{\"spec\":{\"securityContext\":{\"seLinuxOptions\":{\"user\":\"bad\"}}}}",
            "seLinuxOptions",
            "pod set forbidden securityContext.seLinuxOptions: user may not be set"),
        c(
            "seLinuxOptions",
            31,
            "bad role",
            "{\"spec\":{\"securityContext\":{\"seLinuxOptions\":{\"role\":\"bad\"}}}}",
            "seLinuxOptions",
            "pod set forbidden securityContext.seLinuxOptions: role may not be set"),
        // check_seccompProfile_baseline_test.go
        c(
            "seccompProfile_baseline",
            0,
            "pod and containers seccomp invalid (annotations)",
            """
            {"metadata":{"annotations":{
             "seccomp.security.alpha.kubernetes.io/pod":"unconfined",
             "container.seccomp.security.alpha.kubernetes.io/a":"unconfined",
             "container.seccomp.security.alpha.kubernetes.io/b":"unknown"}},
             "spec":{"containers":[{"name":"a"},{"name":"b"}]}}""",
            "seccompProfile",
            "forbidden annotations container.seccomp.security.alpha.kubernetes.io/a=\"unconfined\","
                + " container.seccomp.security.alpha.kubernetes.io/b=\"unknown\","
                + " seccomp.security.alpha.kubernetes.io/pod=\"unconfined\""),
        c(
            "seccompProfile_baseline",
            19,
            "pod and containers seccomp invalid",
            """
            {"spec":{"securityContext":{"seccompProfile":{"type":"Unconfined"}},"containers":[
             {"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"seccompProfile":{"type":"Unconfined"}}},
             {"name":"d","securityContext":{"seccompProfile":{"type":"Unconfined"}}},
             {"name":"e","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]}}""",
            "seccompProfile",
            "pod and containers \"c\", \"d\" must not set securityContext.seccompProfile.type to"
                + " \"Unconfined\""),
        // check_seccompProfile_restricted_test.go
        c(
            "seccompProfile_restricted",
            25,
            "no explicit seccomp",
            "{\"spec\":{\"containers\":[{\"name\":\"a\"}]}}",
            "seccompProfile",
            "pod or container \"a\" must set securityContext.seccompProfile.type to"
                + " \"RuntimeDefault\" or \"Localhost\""),
        c(
            "seccompProfile_restricted",
            25,
            "no explicit seccomp, windows Pod",
            "{\"spec\":{\"os\":{\"name\":\"windows\"},\"containers\":[{\"name\":\"a\"}]}}",
            null,
            null),
        c(
            "seccompProfile_restricted",
            25,
            "containers seccomp invalid",
            """
            {"spec":{"securityContext":{"seccompProfile":{"type":"RuntimeDefault"}},"containers":[
             {"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"seccompProfile":{"type":"Unconfined"}}},
             {"name":"d","securityContext":{"seccompProfile":{"type":"Unconfined"}}}]}}""",
            "seccompProfile",
            "containers \"c\", \"d\" must not set securityContext.seccompProfile.type to"
                + " \"Unconfined\""),
        c(
            "seccompProfile_restricted",
            19,
            "pod nil, container fallthrough",
            """
            {"spec":{"containers":[{"name":"a"},{"name":"b","securityContext":{}},
             {"name":"d","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]}}""",
            "seccompProfile",
            "pod or containers \"a\", \"b\" must set securityContext.seccompProfile.type to"
                + " \"RuntimeDefault\" or \"Localhost\""),
        // check_sysctls_test.go
        c(
            "sysctls",
            26,
            "forbidden sysctls",
            "{\"spec\":{\"securityContext\":{\"sysctls\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}}",
            "forbidden sysctls",
            "a, b"),
        c(
            "sysctls",
            26,
            "net.ipv4.ip_local_reserved_ports before 1.27",
            sysctl("net.ipv4.ip_local_reserved_ports"),
            "forbidden sysctls",
            "net.ipv4.ip_local_reserved_ports"),
        c(
            "sysctls",
            27,
            "net.ipv4.ip_local_reserved_ports in 1.27",
            sysctl("net.ipv4.ip_local_reserved_ports"),
            null,
            null),
        c(
            "sysctls",
            28,
            "net.ipv4.tcp_keepalive_time before 1.29",
            sysctl("net.ipv4.tcp_keepalive_time"),
            "forbidden sysctls",
            "net.ipv4.tcp_keepalive_time"),
        c(
            "sysctls",
            29,
            "net.ipv4.tcp_keepalive_time",
            sysctl("net.ipv4.tcp_keepalive_time"),
            null,
            null),
        c(
            "sysctls",
            29,
            "net.ipv4.tcp_fin_timeout",
            sysctl("net.ipv4.tcp_fin_timeout"),
            null,
            null),
        c(
            "sysctls",
            29,
            "net.ipv4.tcp_keepalive_intvl",
            sysctl("net.ipv4.tcp_keepalive_intvl"),
            null,
            null),
        c(
            "sysctls",
            29,
            "net.ipv4.tcp_keepalive_probes",
            sysctl("net.ipv4.tcp_keepalive_probes"),
            null,
            null),
        c(
            "sysctls",
            31,
            "net.ipv4.tcp_rmem before 1.32",
            sysctl("net.ipv4.tcp_rmem"),
            "forbidden sysctls",
            "net.ipv4.tcp_rmem"),
        c("sysctls", 32, "net.ipv4.tcp_rmem", sysctl("net.ipv4.tcp_rmem"), null, null),
        c("sysctls", 32, "net.ipv4.tcp_wmem", sysctl("net.ipv4.tcp_wmem"), null, null),
        // check_windowsHostProcess_test.go
        c(
            "windowsHostProcess",
            33,
            "host process",
            """
            {"spec":{"securityContext":{"windowsOptions":{"hostProcess":true}},"containers":[
             {"name":"a"},{"name":"b","securityContext":{}},
             {"name":"c","securityContext":{"windowsOptions":{}}},
             {"name":"d","securityContext":{"windowsOptions":{"hostProcess":false}}},
             {"name":"e","securityContext":{"windowsOptions":{"hostProcess":true}}},
             {"name":"f","securityContext":{"windowsOptions":{"hostProcess":true}}}]}}""",
            "hostProcess",
            "pod and containers \"e\", \"f\" must not set"
                + " securityContext.windowsOptions.hostProcess=true"));
  }

  private static String sysctl(String name) {
    return "{\"spec\":{\"securityContext\":{\"sysctls\":[{\"name\":\""
        + name
        + "\",\"value\":\"1\"}]}}}";
  }

  @ParameterizedTest(name = "{0} v1.{1}: {2}")
  @MethodSource("goCases")
  void checkAsGoWordsIt(
      String check, int minor, String name, String pod, String reason, String detail) {
    Map<String, Object> tree = tree(pod);
    @SuppressWarnings("unchecked")
    Failure failure =
        PodSecurityChecks.check(
            check,
            minor,
            (Map<String, Object>) tree.get("metadata"),
            (Map<String, Object>) tree.get("spec"));
    if (reason == null) {
      assertNull(failure, SC_NONE + failure);
    } else {
      assertEquals(new Failure(reason, detail), failure);
    }
  }

  private static LevelVersion lv(String level, String version) {
    return new LevelVersion(Level.parse(level), Version.parse(version));
  }

  /** registry.go: baseline checks by id, then restricted ones; overridden baseline checks go. */
  @Test
  void checksOfEachLevelInGoOrder() {
    List<String> baseline =
        List.of(
            "appArmorProfile",
            "capabilities_baseline",
            "hostNamespaces",
            "hostPathVolumes",
            "hostPorts",
            "privileged",
            "procMount",
            "seLinuxOptions",
            "seccompProfile_baseline",
            "sysctls",
            "windowsHostProcess");
    assertEquals(baseline, PodSecurityChecks.checkIds(lv("baseline", "latest")));
    assertEquals(
        List.of(
            "appArmorProfile",
            "hostNamespaces",
            "hostPorts",
            "privileged",
            "procMount",
            "seLinuxOptions",
            "sysctls",
            "windowsHostProcess",
            "allowPrivilegeEscalation",
            "capabilities_restricted",
            "restrictedVolumes",
            "runAsNonRoot",
            "runAsUser",
            "seccompProfile_restricted"),
        PodSecurityChecks.checkIds(lv("restricted", "latest")));
    // Before 1.8 restricted has only its volume and root checks over baseline's.
    assertEquals(
        List.of(
            "appArmorProfile",
            "capabilities_baseline",
            "hostNamespaces",
            "hostPorts",
            "privileged",
            "procMount",
            "seLinuxOptions",
            "seccompProfile_baseline",
            "sysctls",
            "windowsHostProcess",
            "restrictedVolumes",
            "runAsNonRoot"),
        PodSecurityChecks.checkIds(lv("restricted", "v1.7")));
    assertEquals(List.of(), PodSecurityChecks.checkIds(lv("privileged", "latest")));
    // A version newer than any check evaluates as latest.
    assertEquals(
        PodSecurityChecks.checkIds(lv("restricted", "latest")),
        PodSecurityChecks.checkIds(lv("restricted", "v1.99")));
  }

  /** The refusal kube-apiserver words for a plain privileged container under restricted. */
  @Test
  void aggregateDetailOfAPrivilegedPod() {
    Map<String, Object> pod =
        tree(
            """
            {"spec":{"containers":[{"name":"c","image":"nginx",
             "securityContext":{"privileged":true}}]}}""");
    @SuppressWarnings("unchecked")
    List<Failure> failures =
        PodSecurityChecks.evaluate(
            lv("restricted", "latest"), null, (Map<String, Object>) pod.get("spec"));
    assertEquals(
        "privileged (container \"c\" must not set securityContext.privileged=true),"
            + " allowPrivilegeEscalation != false (container \"c\" must set"
            + " securityContext.allowPrivilegeEscalation=false), unrestricted capabilities"
            + " (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]),"
            + " runAsNonRoot != true (pod or container \"c\" must set"
            + " securityContext.runAsNonRoot=true), seccompProfile (pod or container \"c\" must"
            + " set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
        PodSecurityChecks.details(failures));
    assertEquals(
        "privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot"
            + " != true, seccompProfile",
        PodSecurityChecks.reasons(failures));
  }

  private static final String BASELINE_1_0 =
      """
      {"initContainers":[{"name":"initcontainer1","image":"registry.k8s.io/pause"}],
       "containers":[{"name":"container1","image":"registry.k8s.io/pause"}]}""";
  private static final String RESTRICTED_1_0 =
      """
      {"securityContext":{"runAsNonRoot":true},
       "initContainers":[{"name":"initcontainer1","image":"registry.k8s.io/pause"}],
       "containers":[{"name":"container1","image":"registry.k8s.io/pause"}]}""";
  private static final String RESTRICTED_1_8 =
      """
      {"securityContext":{"runAsNonRoot":true},
       "initContainers":[{"name":"initcontainer1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false}}],
       "containers":[{"name":"container1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false}}]}""";
  private static final String RESTRICTED_1_19 =
      """
      {"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},
       "initContainers":[{"name":"initcontainer1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false}}],
       "containers":[{"name":"container1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false}}]}""";
  private static final String RESTRICTED_1_22 =
      """
      {"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},
       "initContainers":[{"name":"initcontainer1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}],
       "containers":[{"name":"container1","image":"registry.k8s.io/pause",
        "securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}""";

  private static String reasons(String level, String version, String spec) {
    return PodSecurityChecks.reasons(
        PodSecurityChecks.evaluate(lv(level, version), Map.of(), tree(spec)));
  }

  /**
   * test/fixtures.go's minimal valid pods: each passes its level from the version it is written
   * for, and the one before it fails there on the requirement that version added.
   */
  @Test
  void minimalValidPodsOfTheFixtures() {
    for (String version : List.of("v1.0", "v1.22", "v1.33", "latest")) {
      assertEquals("", reasons("baseline", version, BASELINE_1_0), version);
    }
    assertEquals("", reasons("restricted", "v1.7", RESTRICTED_1_0));
    assertEquals(
        "allowPrivilegeEscalation != false", reasons("restricted", "v1.8", RESTRICTED_1_0));
    assertEquals("", reasons("restricted", "v1.18", RESTRICTED_1_8));
    assertEquals("seccompProfile", reasons("restricted", "v1.19", RESTRICTED_1_8));
    assertEquals("", reasons("restricted", "v1.21", RESTRICTED_1_19));
    assertEquals("unrestricted capabilities", reasons("restricted", "v1.22", RESTRICTED_1_19));
    for (String version : List.of("v1.22", "v1.25", "v1.32", "latest")) {
      assertEquals("", reasons("restricted", version, RESTRICTED_1_22), version);
    }
    // From 1.25 a Windows pod needs none of the restricted fields added since 1.0.
    String windows =
        RESTRICTED_1_0.replace(
            "{\"securityContext\"", "{\"os\":{\"name\":\"windows\"},\"securityContext\"");
    assertEquals("", reasons("restricted", "v1.25", windows));
    assertEquals("", reasons("restricted", "latest", windows));
    assertEquals(
        "allowPrivilegeEscalation != false, unrestricted capabilities, seccompProfile",
        reasons("restricted", "v1.24", windows));
  }

  @Test
  void versionsAndLevelsParseAsGoParsesThem() {
    assertEquals("v1.0", Version.parse("v1.0").toString());
    assertEquals("latest", Version.parse("latest").toString());
    assertNull(Version.parse("v1.01"));
    assertNull(Version.parse("v2.0"));
    assertNull(Version.parse("1.25"));
    assertNull(Level.parse("Restricted"));
    assertEquals("restricted:v1.25", lv("restricted", "v1.25").toString());
  }
}
