package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.workload.Workload;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 2: deserializers written for plain Jackson (fabric8's {@code Quantity} reads a
 * tree through the parser's codec; its {@code IntOrString} expects an {@code Integer} for a small
 * integer) work inside the library's JSON and YAML codecs.
 */
class ThirdPartyDeserializersTest {
  private static final CodecFactory CODECS =
      CodecFactory.create(
          Scheme.builder()
              .addKnownTypes(GroupVersion.of("example.dev", "v1"), Workload.class)
              .build());

  private static void check(Workload w) {
    assertEquals(new Quantity("500m"), w.getLimits().get("cpu"));
    assertEquals(new Quantity("1Gi"), w.getLimits().get("memory"));
    assertEquals(new IntOrString("25%"), w.getMaxSurge());
    assertEquals(new IntOrString(0), w.getMaxUnavailable());
    assertEquals(List.of(new IntOrString(8080), new IntOrString("http")), w.getPorts());
  }

  @Test
  void readsFabric8ValuesFromJson() {
    Workload w =
        CODECS
            .json()
            .decode(
                "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Workload\","
                    + "\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},"
                    + "\"maxSurge\":\"25%\",\"maxUnavailable\":0,\"ports\":[8080,\"http\"]}",
                Workload.class)
            .object();
    check(w);
    assertEquals(
        "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Workload\","
            + "\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},"
            + "\"maxSurge\":\"25%\",\"maxUnavailable\":0,\"ports\":[8080,\"http\"]}",
        CODECS.json().encodeToString(w));
  }

  @Test
  void readsFabric8ValuesFromYamlWhenTypeFieldsComeLast() {
    Workload w =
        CODECS
            .yaml()
            .decode(
                "limits:\n  cpu: 500m\n  memory: 1Gi\nmaxSurge: 25%\nmaxUnavailable: 0\n"
                    + "ports: [8080, http]\napiVersion: example.dev/v1\nkind: Workload\n",
                Workload.class)
            .object();
    check(w);
  }

  @Test
  void readsFabric8ValuesFromJsonWhenTypeFieldsComeLast() {
    Workload w =
        CODECS
            .json()
            .decode(
                "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},"
                    + "\"maxSurge\":\"25%\",\"maxUnavailable\":0,\"ports\":[8080,\"http\"],"
                    + "\"apiVersion\":\"example.dev/v1\",\"kind\":\"Workload\"}",
                Workload.class)
            .object();
    check(w);
  }
}
