package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.testing.RequiredTools;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The official Kubernetes Python client (Debian's {@code python3-kubernetes}, which {@code .ci/run}
 * installs) against the test server: ConfigMaps, Deployments, Pods and Leases created, read,
 * listed, patched, watched, scaled and deleted, every answer read into the client's generated
 * models (a ConfigMap's delete into {@code V1Status}, a Pod's into {@code V1Pod}), and a refusal
 * with kube-apiserver's message. Fails, saying why, where the client is not installed.
 */
class PythonClientTest {
  private static final Path PYTHON = Path.of("/usr/bin/python3");

  @Test
  void theOfficialPythonClientDrivesTheBuiltInKinds() throws Exception {
    RequiredTools.require(
        Files.isExecutable(PYTHON) && installed(), RequiredTools.PYTHON_CLIENT, "PythonClientTest");
    Path script = Files.createTempFile("builtin_kinds", ".py");
    try (InputStream in = getClass().getResourceAsStream("/python/builtin_kinds.py");
        TestApiServer server = TestApiServer.start()) {
      Files.write(script, in.readAllBytes());
      Process process =
          new ProcessBuilder(PYTHON.toString(), script.toString(), server.url().toString())
              .redirectErrorStream(true)
              .start();
      String output;
      try (InputStream out = process.getInputStream()) {
        output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
      assertEquals(0, process.exitValue(), output);
      assertTrue(output.strip().endsWith("done"), output);
      assertEquals(14, output.lines().filter(l -> l.startsWith("ok ")).count(), output);
    } finally {
      Files.deleteIfExists(script);
    }
  }

  private static boolean installed() throws IOException, InterruptedException {
    Process probe =
        new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes")
            .redirectErrorStream(true)
            .start();
    probe.getInputStream().readAllBytes();
    return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
  }
}
