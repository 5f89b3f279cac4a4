package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.openapi.OpenApiV2;
import dev.machinery.apiserver.openapi.OpenApiV3;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.schema.GroupVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Serves what is not a resource: {@code /version}, the health checks, discovery (legacy and
 * aggregated in {@code v2} or {@code v2beta1}, chosen by Accept as kubectl asks), the OpenAPI v3
 * index and documents, OpenAPI v2 in JSON and protobuf, and the root path list.
 *
 * <p>{@code /version} reports the Kubernetes version the server is configured with, and, as {@code
 * gitCommit}, {@code gitTreeState} and {@code buildDate}, the git commit this library was built
 * from, whether its work tree had changes, and when it was built (in UTC, RFC 3339), recorded by
 * the build. A library built outside a git work tree reports {@code unknown} as its commit and tree
 * state; classes built without the Maven build report kube-apiserver's unset date, {@code
 * 1970-01-01T00:00:00Z}.
 *
 * <p>Thread-safe: immutable after construction.
 */
public final class DiscoveryHandler {
  private static final String AGGREGATED = "as=apigroupdiscoverylist";

  private final Discovery discovery;
  private final Supplier<OpenApiV3> openApiV3;
  private final Supplier<OpenApiV2> openApiV2;
  private final Codec json;
  private final byte[] version;

  /**
   * Creates the handler.
   *
   * @param discovery the discovery documents
   * @param openApiV3 the OpenAPI v3 documents, asked for when a client first reads them (the
   *     supplier keeps what it made)
   * @param openApiV2 the OpenAPI v2 document, likewise
   * @param json the JSON codec
   * @param kubernetesVersion the version {@code /version} reports, such as {@code v1.33.0}, beside
   *     the git commit and date of this library's build (see the class comment)
   */
  public DiscoveryHandler(
      Discovery discovery,
      Supplier<OpenApiV3> openApiV3,
      Supplier<OpenApiV2> openApiV2,
      Codec json,
      String kubernetesVersion) {
    this.discovery = discovery;
    this.openApiV3 = openApiV3;
    this.openApiV2 = openApiV2;
    this.json = json;
    String[] parts = kubernetesVersion.replaceFirst("^v", "").split("[.+-]");
    BuildInfo build = BuildInfo.current();
    String text =
        "{\n  \"major\": \""
            + parts[0]
            + "\",\n  \"minor\": \""
            + (parts.length > 1 ? parts[1] : "0")
            + "\",\n  \"gitVersion\": \""
            + kubernetesVersion
            + "\",\n  \"gitCommit\": \""
            + build.gitCommit()
            + "\",\n  \"gitTreeState\": \""
            + build.gitTreeState()
            + "\",\n  \"buildDate\": \""
            + build.buildDate()
            + "\",\n  \"goVersion\": \"java"
            + Runtime.version().feature()
            + "\",\n  \"compiler\": \"javac\",\n  \"platform\": \""
            + System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT)
            + "/"
            + System.getProperty("os.arch", "unknown")
            + "\"\n}";
    this.version = text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Answers a request if it is one of these paths.
   *
   * @param request the request
   * @return the response, or empty when the path is not one of these
   */
  public Optional<ApiResponse> handle(ApiRequest request) {
    String path = request.path();
    if (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    switch (path) {
      case "/version":
        return Optional.of(ApiResponse.of(200, "application/json", version));
      case "/healthz":
      case "/livez":
      case "/readyz":
        return Optional.of(
            ApiResponse.of(
                200, "text/plain; charset=utf-8", "ok".getBytes(StandardCharsets.UTF_8)));
      case "/":
        return Optional.of(rootPaths());
      case "/api":
        return Optional.of(
            aggregated(request)
                .map(v -> discoveryList(json.encode(discovery.aggregatedLegacy()), v))
                .orElseGet(() -> ok(json.encode(discovery.apiVersions()))));
      case "/apis":
        return Optional.of(
            aggregated(request)
                .map(v -> discoveryList(json.encode(discovery.aggregatedGroups()), v))
                .orElseGet(() -> ok(json.encode(discovery.apiGroupList()))));
      case "/openapi/v2":
        String accept = request.header("Accept");
        if (accept != null && accept.contains("protobuf")) {
          return Optional.of(
              ApiResponse.of(200, OpenApiV2.PROTOBUF_CONTENT_TYPE, openApiV2.get().protobuf()));
        }
        return Optional.of(ok(openApiV2.get().json()));
      case "/openapi/v3":
        return Optional.of(ok(openApiV3.get().index()));
      default:
        break;
    }
    if (path.startsWith("/openapi/v3/")) {
      String document = path.substring("/openapi/v3/".length());
      OpenApiV3 documents = openApiV3.get();
      return Optional.of(
          documents
              .document(document)
              .map(
                  bytes -> {
                    ApiResponse response = ok(bytes);
                    String hash = request.parameter("hash");
                    return hash != null && hash.equals(documents.hash(document).orElse(null))
                        ? response.withHeader(
                            "Cache-Control", "public, immutable, max-age=31536000")
                        : response.withHeader("Cache-Control", "no-cache, no-store");
                  })
              .orElseThrow(ResourceHandler::notFound));
    }
    List<String> parts = segments(path);
    if (parts.size() == 2 && parts.get(0).equals("api")) {
      return Optional.of(
          ok(
              json.encode(
                  discovery
                      .apiResourceList(GroupVersion.of("", parts.get(1)))
                      .orElseThrow(ResourceHandler::notFound))));
    }
    if (parts.size() == 2 && parts.get(0).equals("apis")) {
      return Optional.of(
          ok(json.encode(discovery.apiGroup(parts.get(1)).orElseThrow(ResourceHandler::notFound))));
    }
    if (parts.size() == 3 && parts.get(0).equals("apis")) {
      return Optional.of(
          ok(
              json.encode(
                  discovery
                      .apiResourceList(GroupVersion.of(parts.get(1), parts.get(2)))
                      .orElseThrow(ResourceHandler::notFound))));
    }
    return Optional.empty();
  }

  /** The aggregated discovery version the Accept header asks for first, if any. */
  private static Optional<String> aggregated(ApiRequest request) {
    String accept = request.header("Accept");
    if (accept == null) {
      return Optional.empty();
    }
    for (String range : accept.split(",")) {
      String normal = range.replace(" ", "").toLowerCase(Locale.ROOT);
      if (normal.contains(AGGREGATED) && normal.contains("g=apidiscovery.k8s.io")) {
        if (normal.contains("v=v2beta1")) {
          return Optional.of("v2beta1");
        }
        if (normal.contains("v=v2;") || normal.endsWith("v=v2")) {
          return Optional.of("v2");
        }
      }
    }
    return Optional.empty();
  }

  private ApiResponse discoveryList(byte[] v2, String version) {
    byte[] body = v2;
    if (!version.equals("v2")) {
      JsonNode tree = Patches.readTree(v2, "the discovery document");
      String apiVersion = "apidiscovery.k8s.io/" + version;
      ((ObjectNode) tree).put("apiVersion", apiVersion);
      body = tree.toString().getBytes(StandardCharsets.UTF_8);
    }
    return ApiResponse.of(
        200,
        "application/json;g=apidiscovery.k8s.io;v=" + version + ";as=APIGroupDiscoveryList",
        body);
  }

  private ApiResponse rootPaths() {
    TreeSet<String> paths = new TreeSet<>();
    paths.addAll(
        List.of(
            "/api",
            "/apis",
            "/healthz",
            "/livez",
            "/readyz",
            "/version",
            "/openapi/v2",
            "/openapi/v3"));
    discovery
        .servedVersions()
        .forEach(
            (group, versions) -> {
              for (GroupVersion gv : versions) {
                if (group.isEmpty()) {
                  paths.add("/api/" + gv.version());
                } else {
                  paths.add("/apis/" + group);
                  paths.add("/apis/" + group + "/" + gv.version());
                }
              }
            });
    StringBuilder text = new StringBuilder("{\n  \"paths\": [");
    String sep = "\n";
    for (String p : paths) {
      text.append(sep).append("    \"").append(p).append('"');
      sep = ",\n";
    }
    text.append("\n  ]\n}");
    return ok(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static ApiResponse ok(byte[] body) {
    return ApiResponse.of(200, "application/json", body);
  }

  private static List<String> segments(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    return parts;
  }
}
