package dev.machinery.apiserver.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.apiserver.testing.RequiredTools;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.testapi.Pod;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Real kubectl, every build from 1.27 to 1.33 found beside the {@code kubectl} on the PATH,
 * explains a kind from the OpenAPI v3 documents generated here, served with the discovery documents
 * by a minimal HTTP server (test only; the API server module is separate work). Fails, saying what
 * to install, where no kubectl is installed.
 */
class KubectlExplainTest {
  private static final GroupVersion EXAMPLE = GroupVersion.of("example.com", "v1");
  private static final GroupVersion CORE = GroupVersion.of("", "v1");

  static List<Path> kubectls() throws IOException {
    List<Path> found = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path == null) {
      return found;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path kubectl = Path.of(dir, "kubectl");
      if (Files.isExecutable(kubectl)) {
        Path real = kubectl.toRealPath();
        for (int minor = 27; minor <= 33; minor++) {
          Path versioned = real.resolveSibling("kubectl.1." + minor);
          if (Files.isExecutable(versioned)) {
            found.add(versioned);
          }
        }
        if (found.isEmpty()) {
          found.add(real);
        }
        return found;
      }
    }
    return found;
  }

  @Test
  void everyKubectlExplainsAKindFromTheGeneratedDocuments() throws Exception {
    List<Path> kubectls = kubectls();
    RequiredTools.require(!kubectls.isEmpty(), RequiredTools.KUBECTL, "KubectlExplainTest");
    Scheme scheme =
        MetaV1.addToScheme(Scheme.builder())
            .addKnownTypes(EXAMPLE, OpenApiV3Test.Widget.class)
            .addKnownTypes(CORE, Pod.class)
            .build();
    Discovery discovery =
        Discovery.builder(scheme)
            .addResource(EXAMPLE, ResourceInfo.of("Widget", true))
            .addResource(CORE, ResourceInfo.of("Pod", true))
            .build();
    Codec json = CodecFactory.create(scheme).json();
    List<String> failures = new ArrayList<>();
    for (Path kubectl : kubectls) {
      String minor = kubectl.getFileName().toString().replaceAll(".*\\.1\\.", "");
      String serverVersion = "v1." + (minor.matches("\\d+") ? minor : "33") + ".0";
      OpenApiV3 openApi = OpenApiV3.build(scheme, discovery, serverVersion);
      OpenApiV2 openApiV2 = OpenApiV2.from(openApi, serverVersion);
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            try {
              serve(exchange, serverVersion, discovery, openApi, openApiV2, json);
            } finally {
              exchange.close();
            }
          });
      server.start();
      Path cache = Files.createTempDirectory("kubectl-cache");
      try {
        Process process =
            new ProcessBuilder(
                    kubectl.toString(),
                    "--server=http://127.0.0.1:" + server.getAddress().getPort(),
                    "--cache-dir=" + cache,
                    "explain",
                    "widgets")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = process.waitFor(60, TimeUnit.SECONDS);
        if (!finished
            || process.exitValue() != 0
            || !output.contains("Widget")
            || !output.contains("replicas")
            || !output.contains("How many widgets to run.")) {
          failures.add(kubectl.getFileName() + ":\n" + output);
        }
      } finally {
        server.stop(0);
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(kubectls.size() >= 1);
  }

  private static void serve(
      HttpExchange exchange,
      String version,
      Discovery discovery,
      OpenApiV3 openApi,
      OpenApiV2 openApiV2,
      Codec json)
      throws IOException {
    String path = exchange.getRequestURI().getPath();
    byte[] body;
    String contentType = "application/json";
    if (path.equals("/version")) {
      String minor = version.split("\\.")[1];
      body =
          ("{\"major\":\"1\",\"minor\":\""
                  + minor
                  + "\",\"gitVersion\":\""
                  + version
                  + "\",\"gitCommit\":\"0000000000000000000000000000000000000000\",\"gitTreeState\":\"clean\","
                  + "\"buildDate\":\"2025-01-01T00:00:00Z\",\"goVersion\":\"go1.24\",\"compiler\":\"gc\","
                  + "\"platform\":\"linux/amd64\"}")
              .getBytes(StandardCharsets.UTF_8);
    } else if (path.equals("/api")) {
      body = json.encode(discovery.apiVersions());
    } else if (path.equals("/apis")) {
      body = json.encode(discovery.apiGroupList());
    } else if (path.equals("/api/v1")) {
      body = json.encode(discovery.apiResourceList(CORE).orElseThrow());
    } else if (path.equals("/apis/example.com/v1")) {
      body = json.encode(discovery.apiResourceList(EXAMPLE).orElseThrow());
    } else if (path.equals("/openapi/v2")) {
      String accept = exchange.getRequestHeaders().getFirst("Accept");
      if (accept != null && accept.contains("protobuf")) {
        body = openApiV2.protobuf();
        contentType = OpenApiV2.PROTOBUF_CONTENT_TYPE;
      } else {
        body = openApiV2.json();
      }
    } else if (path.equals("/openapi/v3")) {
      body = openApi.index();
    } else if (path.startsWith("/openapi/v3/")) {
      Optional<byte[]> document = openApi.document(path.substring("/openapi/v3/".length()));
      body = document.orElse(null);
    } else {
      body = null;
    }
    if (body == null) {
      byte[] notFound =
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"the server could not find the requested resource\",\"reason\":\"NotFound\",\"details\":{},\"code\":404}"
              .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(404, notFound.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(notFound);
      }
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
