package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.examples.core.ConfigMap;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ambiguous names, as kubectl resolves them from this server's discovery: two groups serve a kind
 * {@code Thing} with the short name {@code th}. Every kubectl takes the group discovery lists
 * first; from 1.29 on it also warns that the short name could match the other. Fails, saying what
 * to install, where no kubectl is installed.
 */
class AmbiguousResourcesKubectlTest {
  private static final GroupVersion A = GroupVersion.of("a.example.dev", "v1");
  private static final GroupVersion B = GroupVersion.of("b.example.dev", "v1");

  @Test
  void anAmbiguousShortNameResolvesToTheFirstGroupWithKubectlsWarning() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("AmbiguousResourcesKubectlTest");
    Scheme.Builder builder = MetaV1.addToScheme(Scheme.builder());
    builder.addKnownType(A.withKind("Thing"), ConfigMap.class);
    builder.addKnownType(B.withKind("Thing"), ConfigMap.class);
    ResourceList.addToScheme(builder, "Thing", A);
    ResourceList.addToScheme(builder, "Thing", B);
    ApiServer server =
        ApiServer.builder(builder.build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(A.group(), "Thing"), false)
                    .shortNames("th")
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(B.group(), "Thing"), false)
                    .shortNames("th")
                    .build())
            .build();
    assertEquals(
        201,
        server
            .handle(
                new ApiRequest(
                    "POST",
                    "/apis/a.example.dev/v1/things",
                    Map.of(),
                    Map.of("Content-Type", List.of("application/json")),
                    new ByteArrayInputStream(
                        "{\"apiVersion\":\"a.example.dev/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"in-a\"}}"
                            .getBytes(StandardCharsets.UTF_8))))
            .status());
    List<String> failures = new ArrayList<>();
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      for (Map.Entry<String, Path> entry : installed.entrySet()) {
        Kubectl kubectl = Kubectl.of(entry.getKey(), entry.getValue(), binding.port());
        Kubectl.Result shortName = kubectl.run("get", "th");
        boolean warns = !entry.getKey().matches("kubectl\\.1\\.2[78]");
        if (shortName.exitCode() != 0
            || !shortName.out().contains("in-a")
            || warns
                != shortName
                    .err()
                    .contains(
                        "short name \"th\" could also match lower priority resource"
                            + " things.b.example.dev")) {
          failures.add(entry.getKey() + " get th:\n" + shortName.all());
        }
        Kubectl.Result qualified = kubectl.run("get", "things.b.example.dev");
        if (qualified.exitCode() != 0 || !qualified.all().contains("No resources found")) {
          failures.add(entry.getKey() + " get things.b.example.dev:\n" + qualified.all());
        }
      }
    }
    assertEquals(List.of(), failures);
  }
}
