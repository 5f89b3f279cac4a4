package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.apps.AppsV1;
import dev.machinery.examples.apps.Deployment;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.resource.Quantity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A real Deployment, with probes, resources, {@code maxSurge: 25%}, {@code matchExpressions} and
 * conditions: decoded strictly into typed classes, and written back byte for byte in the forms
 * Kubernetes writes (Go's field order, canonical quantities, RFC 3339 times in UTC).
 */
class RealDeploymentTest {
  private static final CodecFactory CODECS =
      CodecFactory.create(AppsV1.addToScheme(Scheme.builder()).build());

  private static String resource(String name) throws IOException {
    try (InputStream in = RealDeploymentTest.class.getResourceAsStream("/apps/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void canonicalJsonRoundTripsByteForByte() throws IOException {
    String json = resource("deployment.json");
    Deployment deployment = CODECS.json().decode(json, Deployment.class).object();
    assertEquals(json, new String(CODECS.json().encode(deployment), StandardCharsets.UTF_8));
  }

  @Test
  void aHandWrittenManifestIsWrittenInCanonicalForms() throws IOException {
    Deployment deployment =
        CODECS.yaml().decode(resource("deployment.yaml"), Deployment.class).object();
    assertEquals(
        resource("deployment.json"),
        new String(CODECS.json().encode(deployment), StandardCharsets.UTF_8));
    assertEquals(
        Quantity.parse("250m"),
        deployment
            .getSpec()
            .template()
            .spec()
            .containers()
            .get(0)
            .resources()
            .requests()
            .get("cpu"));
  }

  @Test
  void theValueTypesAnswerWhatAControllerAsks() throws IOException {
    Deployment deployment =
        CODECS.json().decode(resource("deployment.json"), Deployment.class).object();
    int replicas = deployment.getSpec().replicas();
    // The deployment controller rounds the surge up and the unavailable count down.
    assertEquals(
        1, deployment.getSpec().strategy().rollingUpdate().maxSurge().scaledValue(replicas, true));
    assertEquals(
        0,
        deployment
            .getSpec()
            .strategy()
            .rollingUpdate()
            .maxUnavailable()
            .scaledValue(replicas, false));
    Selector selector = LabelSelectors.toSelector(deployment.getSpec().selector());
    assertEquals("app=web,tier in (frontend)", selector.toString());
    assertTrue(selector.matches(deployment.getSpec().template().metadata().getLabels()));
    assertEquals(
        268_435_456L,
        deployment
            .getSpec()
            .template()
            .spec()
            .containers()
            .get(0)
            .resources()
            .limits()
            .get("memory")
            .value());
  }

  @Test
  void aTypoIsRefusedWithItsPath() throws IOException {
    String typo =
        resource("deployment.json")
            .replace("\"replicas\":3,\"selector\"", "\"replcias\":3,\"selector\"");
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class, () -> CODECS.json().decode(typo, Deployment.class));
    assertTrue(e.getMessage().contains("spec.replcias"), e.getMessage());
  }
}
