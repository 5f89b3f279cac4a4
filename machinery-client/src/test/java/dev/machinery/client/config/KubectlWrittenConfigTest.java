package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kubeconfig files written by the real kubectl ({@code kubectl config ...}) and loaded. */
class KubectlWrittenConfigTest {
  @TempDir Path dir;

  @BeforeEach
  void kubectl() {
    assertTrue(
        Fixtures.onPath("kubectl"),
        "kubectl is needed to write the files" + ", and is not on the PATH");
  }

  private void kubectl(Path kubeconfig, String... args) throws Exception {
    String[] command = new String[args.length + 2];
    command[0] = "kubectl";
    System.arraycopy(args, 0, command, 1, args.length);
    command[command.length - 1] = "--kubeconfig=" + kubeconfig;
    Fixtures.run(dir, command);
  }

  @Test
  void clustersUsersAndContextsSetByKubectl() throws Exception {
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "1",
        "-subj",
        "/CN=ca");
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        "admin.key",
        "-out",
        "admin.crt",
        "-days",
        "1",
        "-subj",
        "/CN=admin/O=system:masters");
    Path config = dir.resolve("kubeconfig");
    kubectl(
        config,
        "config",
        "set-cluster",
        "prod",
        "--server=https://prod.example.com:6443",
        "--certificate-authority=" + dir.resolve("ca.crt"),
        "--embed-certs=true",
        "--tls-server-name=api.prod.internal");
    kubectl(
        config,
        "config",
        "set-cluster",
        "dev",
        "--server=https://127.0.0.1:8443",
        "--insecure-skip-tls-verify=true");
    kubectl(
        config,
        "config",
        "set-credentials",
        "admin",
        "--client-certificate=" + dir.resolve("admin.crt"),
        "--client-key=" + dir.resolve("admin.key"));
    kubectl(config, "config", "set-credentials", "bot", "--token=bot-token");
    kubectl(config, "config", "set-credentials", "basic", "--username=jane", "--password=s3cret");
    kubectl(
        config,
        "config",
        "set-context",
        "prod-admin",
        "--cluster=prod",
        "--user=admin",
        "--namespace=payments");
    kubectl(config, "config", "set-context", "dev-bot", "--cluster=dev", "--user=bot");
    kubectl(config, "config", "set-context", "dev-basic", "--cluster=dev", "--user=basic");
    kubectl(config, "config", "use-context", "prod-admin");

    KubeconfigLoader loader = KubeconfigLoader.builder().kubeconfig(config).build();
    assertEquals("prod-admin", loader.currentContext());
    assertEquals(List.of("dev-basic", "dev-bot", "prod-admin"), loader.contextNames());

    ClientConfig prod = loader.load();
    assertEquals(URI.create("https://prod.example.com:6443"), prod.server());
    assertEquals(Optional.of("api.prod.internal"), prod.tlsServerName());
    assertEquals("payments", prod.namespace());
    assertEquals(Optional.empty(), prod.credentials().authorization());
    assertEquals("TLS", prod.sslContext().getProtocol());

    ClientConfig bot =
        KubeconfigLoader.builder().kubeconfig(config).context("dev-bot").build().load();
    assertEquals(URI.create("https://127.0.0.1:8443"), bot.server());
    assertTrue(bot.insecureSkipTlsVerify());
    assertEquals(Optional.of("Bearer bot-token"), bot.credentials().authorization());
    assertEquals("default", bot.namespace());

    ClientConfig basic =
        KubeconfigLoader.builder().kubeconfig(config).context("dev-basic").build().load();
    assertEquals(
        Optional.of(
            "Basic " + java.util.Base64.getEncoder().encodeToString("jane:s3cret".getBytes())),
        basic.credentials().authorization());
  }

  @Test
  void execCredentialsSetByKubectl() throws Exception {
    Path config = dir.resolve("kubeconfig");
    Path plugin =
        Fixtures.write(
            dir.resolve("bin/plugin.sh"),
            "#!/bin/sh\n"
                + "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\","
                + "\"kind\":\"ExecCredential\",\"status\":{\"token\":\"'$REGION-$2'\"}}'\n");
    assertTrue(plugin.toFile().setExecutable(true));
    kubectl(config, "config", "set-cluster", "c", "--server=https://c.example.com");
    kubectl(
        config,
        "config",
        "set-credentials",
        "plugin",
        "--exec-api-version=client.authentication.k8s.io/v1",
        "--exec-command=" + plugin,
        "--exec-arg=--region",
        "--exec-arg=eu",
        "--exec-env=REGION=eu",
        "--exec-interactive-mode=Never");
    kubectl(config, "config", "set-context", "c", "--cluster=c", "--user=plugin");
    kubectl(config, "config", "use-context", "c");
    // kubectl writes the command relative to the file (bin/plugin.sh); read back, it is resolved.
    ClientConfig loaded = KubeconfigLoader.builder().kubeconfig(config).build().load();
    assertEquals(Optional.of("Bearer eu-eu"), loaded.credentials().authorization());
  }

  @Test
  void aPluginNextToTheFileIsLookedUpOnThePathAsKubectlDoes() throws Exception {
    // kubectl writes an absolute command in the kubeconfig's own directory as a bare name, which
    // then names a program on PATH: kubectl itself answers "executable plugin.sh not found".
    Path config = dir.resolve("kubeconfig");
    Path plugin = Fixtures.write(dir.resolve("plugin.sh"), "#!/bin/sh\nexit 1\n");
    assertTrue(plugin.toFile().setExecutable(true));
    kubectl(config, "config", "set-cluster", "c", "--server=https://c.example.com");
    kubectl(
        config,
        "config",
        "set-credentials",
        "plugin",
        "--exec-api-version=client.authentication.k8s.io/v1",
        "--exec-command=" + plugin,
        "--exec-interactive-mode=Never");
    kubectl(config, "config", "set-context", "c", "--cluster=c", "--user=plugin");
    kubectl(config, "config", "use-context", "c");
    KubeconfigException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            KubeconfigException.class,
            () ->
                KubeconfigLoader.builder()
                    .kubeconfig(config)
                    .build()
                    .load()
                    .credentials()
                    .authorization());
    assertEquals("getting credentials: exec: executable plugin.sh not found", e.getMessage());
  }

  @Test
  void filesMergedThroughKubeconfigAsKubectlMergesThem() throws Exception {
    Path first = dir.resolve("first");
    Path second = dir.resolve("second");
    kubectl(first, "config", "set-cluster", "shared", "--server=https://first.example.com");
    kubectl(first, "config", "set-context", "one", "--cluster=shared", "--namespace=first-ns");
    kubectl(second, "config", "set-cluster", "shared", "--server=https://second.example.com");
    kubectl(second, "config", "set-cluster", "own", "--server=https://own.example.com");
    kubectl(second, "config", "set-context", "two", "--cluster=own");
    kubectl(second, "config", "use-context", "two");
    String list = first + File.pathSeparator + second;
    // kubectl's own view of the merge, to compare with.
    String kubectlView =
        Fixtures.run(
            dir,
            "sh",
            "-c",
            "KUBECONFIG='"
                + list
                + "' kubectl config view -o"
                + " jsonpath='{.current-context} {.clusters[?(@.name==\"shared\")].cluster.server}'");
    assertEquals("two https://first.example.com", kubectlView.strip());
    KubeconfigLoader loader =
        KubeconfigLoader.builder().environment(Map.of("KUBECONFIG", list)).build();
    assertEquals("two", loader.currentContext());
    assertEquals(URI.create("https://own.example.com"), loader.load().server());
    assertEquals(
        URI.create("https://first.example.com"),
        KubeconfigLoader.builder()
            .environment(Map.of("KUBECONFIG", list))
            .context("one")
            .build()
            .load()
            .server());
  }
}
