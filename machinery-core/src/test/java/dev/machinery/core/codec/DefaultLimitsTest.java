package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: the default limits let real documents through: nesting to depth 1,000 (within a thread
 * stack of half the JVM's default), numbers of up to 1,000 characters.
 */
class DefaultLimitsTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());

  /** A Deployment whose spec.extra.x nests arrays so that the whole document is this deep. */
  private static String nestedJson(int depth) {
    int arrays = depth - 3; // the root object, spec and extra
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"extra\":{\"x\":"
        + "[".repeat(arrays)
        + "]".repeat(arrays)
        + "}}}";
  }

  private static String nestedYaml(int depth) {
    int arrays = depth - 3;
    return "apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra:\n    x: "
        + "[".repeat(arrays)
        + "]".repeat(arrays)
        + "\n";
  }

  private static int depthOf(Object value) {
    int depth = 0;
    while (value instanceof List && !((List<?>) value).isEmpty()) {
      value = ((List<?>) value).get(0);
      depth++;
    }
    return depth + (value instanceof List ? 1 : 0);
  }

  @Test
  void decodesAndEncodesDocumentsNestedToTheDefaultDepth() {
    Deployment json = CODECS.json().decode(nestedJson(1000), Deployment.class).object();
    assertEquals(997, depthOf(json.getSpec().extra().get("x")));
    String encoded = CODECS.json().encodeToString(json);
    assertTrue(encoded.contains("\"x\":" + "[".repeat(997) + "]".repeat(997)), encoded);
    Deployment yaml = CODECS.yaml().decode(nestedYaml(1000), Deployment.class).object();
    assertEquals(997, depthOf(yaml.getSpec().extra().get("x")));
    CODECS.yaml().encode(yaml);
  }

  @Test
  void rejectsOneLevelMore() {
    LimitExceededException json =
        assertThrows(LimitExceededException.class, () -> CODECS.json().decode(nestedJson(1001)));
    assertEquals("maxNestingDepth", json.limit());
    assertEquals(1000, json.maximum());
    LimitExceededException yaml =
        assertThrows(LimitExceededException.class, () -> CODECS.yaml().decode(nestedYaml(1001)));
    assertEquals("maxNestingDepth", yaml.limit());
  }

  @Test
  void theDefaultDepthFitsInTheDefaultThreadStack() throws InterruptedException {
    // The JVM's default thread stack on 64-bit Linux is 1 MiB; decoding and encoding at the
    // depth limit must fit in it, JSON and YAML alike (a cold JVM needed about 640 KiB when this
    // was measured: docs/codecs.md).
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                for (int i = 0; i < 3; i++) { // interpreted and compiled frames both
                  Object json = CODECS.json().decode(nestedJson(1000)).object();
                  CODECS.json().encode(json);
                  Object yaml = CODECS.yaml().decode(nestedYaml(1000)).object();
                  CODECS.yaml().encode(yaml);
                }
              } catch (Throwable e) {
                failure.set(e);
              }
            },
            "default-stack",
            1024 * 1024);
    thread.start();
    thread.join();
    assertEquals(null, failure.get());
  }

  @Test
  void acceptsA300DigitFloat() {
    String digits = "1" + "0".repeat(299);
    Deployment d =
        CODECS
            .json()
            .decode(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"ratio\":"
                    + digits
                    + ".0,\"extra\":{\"n\":"
                    + digits
                    + "}}}",
                Deployment.class)
            .object();
    assertEquals(1e299, d.getSpec().ratio());
    assertEquals(new java.math.BigInteger(digits), d.getSpec().extra().get("n"));
    assertTrue(
        assertThrows(
                LimitExceededException.class,
                () ->
                    CODECS
                        .json()
                        .decode(
                            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":"
                                + "{\"ratio\":"
                                + "1".repeat(1001)
                                + "}}"))
            .getMessage()
            .startsWith("a number is longer than the limit maxNumberLength (1000)"));
  }
}
