package dev.machinery.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.CodecFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark types model the document exactly: strict decoding, and nothing lost. */
class BenchmarkDataTest {
  private final CodecFactory codecs = CodecFactory.create(BenchmarkData.scheme());

  @Test
  void decodesTheDocumentStrictlyAndReencodesItWithoutLoss() throws Exception {
    byte[] json = BenchmarkData.deploymentJson();
    Deployment d = (Deployment) codecs.json().decode(json).object();
    assertEquals(3, d.getSpec().getReplicas());
    assertEquals("frontend", d.getSpec().getTemplate().getSpec().getServiceAccount());
    assertEquals(List.of(), codecs.json().decode(json).warnings());
    ObjectMapper tree = new ObjectMapper();
    JsonNode original = tree.readTree(json);
    JsonNode again = tree.readTree(codecs.json().encode(d));
    assertEquals(original, again);
  }

  @Test
  void decodesTheTypeLastVariantToTheSameObject() {
    assertEquals(
        codecs.json().decode(BenchmarkData.deploymentJson()).object(),
        codecs.json().decode(BenchmarkData.deploymentJsonTypeLast()).object());
  }

  @Test
  void roundTripsThroughYaml() {
    Deployment d = (Deployment) codecs.json().decode(BenchmarkData.deploymentJson()).object();
    assertEquals(d, codecs.yaml().decode(codecs.yaml().encode(d)).object());
  }

  @Test
  void fabric8ReadsTheSameDocument() throws Exception {
    assertNotNull(
        new ObjectMapper()
            .readValue(
                BenchmarkData.deploymentJson(),
                io.fabric8.kubernetes.api.model.apps.Deployment.class)
            .getSpec());
  }
}
