package dev.machinery.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.patch.OpenApiPatchSchemas;
import dev.machinery.core.patch.PatchException;
import dev.machinery.core.patch.StrategicMergePatch;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.testing.Fuzzer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The two sources of strategic merge patch metadata agree: the sample Deployment's Java classes
 * (their {@code @PatchStrategy} and {@code @PatchMergeKey}) and Kubernetes v1.33's swagger.json
 * ({@code io.k8s.api.apps.v1.Deployment}, core's test resource {@code kube-api/v1.33}) give the
 * same two-way and three-way patches between seeded random Deployments, and the same result (or the
 * same error) when a patch is applied to the original or to a third Deployment. Merge keys are
 * drawn from small pools, so that lists share elements and merge rather than only add and delete. A
 * failure names its seed.
 */
class PatchMetadataSourcesAgreeTest {
  private static final ObjectMapper TREES = JsonMapper.builder().build();
  private static final Codec JSON =
      CodecFactory.create(AppsV1.addToScheme(Scheme.builder()).build()).json();
  private static final StrategicMergeSchema FROM_CLASSES =
      StrategicMergeSchema.ofType(Deployment.class);
  private static final StrategicMergeSchema FROM_SWAGGER =
      OpenApiPatchSchemas.of(swagger()).forDefinition("io.k8s.api.apps.v1.Deployment");
  private static final List<String> NAMES = List.of("a", "b", "c");
  private static final Fuzzer FUZZER =
      Fuzzer.builder()
          .nullChance(0.1)
          .forProperty(Container.class, "name", c -> NAMES.get(c.random().nextInt(3)))
          .forProperty(EnvVar.class, "name", c -> NAMES.get(c.random().nextInt(3)))
          .forProperty(ContainerPort.class, "containerPort", c -> 80 + c.random().nextInt(3))
          .forProperty(DeploymentCondition.class, "type", c -> NAMES.get(c.random().nextInt(3)))
          .build();

  private static JsonNode swagger() {
    try (InputStream in =
        PatchMetadataSourcesAgreeTest.class.getResourceAsStream("/kube-api/v1.33/swagger.json")) {
      return TREES.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode deployment(long seed) {
    Deployment deployment = FUZZER.fuzz(Deployment.class, seed);
    deployment.setApiVersion("apps/v1");
    deployment.setKind("Deployment");
    try {
      return TREES.readTree(JSON.encode(deployment));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A patch operation's answer: its JSON, or its error's message. */
  private static String outcome(
      Function<StrategicMergeSchema, JsonNode> operation, StrategicMergeSchema schema) {
    try {
      return operation.apply(schema).toString();
    } catch (PatchException e) {
      return "error: " + e.getMessage();
    }
  }

  /** Where two outcomes first differ: a JSON pointer and both values, or both messages. */
  private static String firstDifference(String left, String right) {
    if (left.startsWith("error: ") || right.startsWith("error: ")) {
      return "\n  classes " + left + "\n  swagger " + right;
    }
    try {
      return difference(TREES.readTree(left), TREES.readTree(right), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String difference(JsonNode left, JsonNode right, String path) {
    if (left != null && right != null && left.isObject() && right.isObject()) {
      java.util.Set<String> names = new java.util.TreeSet<>();
      left.fieldNames().forEachRemaining(names::add);
      right.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (!java.util.Objects.equals(left.get(name), right.get(name))) {
          return difference(left.get(name), right.get(name), path + "/" + name);
        }
      }
    }
    if (left != null
        && right != null
        && left.isArray()
        && right.isArray()
        && left.size() == right.size()) {
      for (int k = 0; k < left.size(); k++) {
        if (!left.get(k).equals(right.get(k))) {
          return difference(left.get(k), right.get(k), path + "/" + k);
        }
      }
    }
    return path + "\n  classes " + left + "\n  swagger " + right;
  }

  @Test
  void javaClassesAndSwaggerGiveTheSamePatchesAndResults() {
    List<String> disagreements = new ArrayList<>();
    int[] merged = {0};
    int[] errors = {0};
    LongStream.rangeClosed(1, 300)
        .forEach(
            seed -> {
              JsonNode original = deployment(seed * 3);
              JsonNode modified = deployment(seed * 3 + 1);
              JsonNode current = deployment(seed * 3 + 2);
              List<Function<StrategicMergeSchema, JsonNode>> checks =
                  List.of(
                      s -> StrategicMergePatch.createTwoWay(original, modified, s),
                      s ->
                          StrategicMergePatch.apply(
                              original, StrategicMergePatch.createTwoWay(original, modified, s), s),
                      s ->
                          StrategicMergePatch.apply(
                              current,
                              StrategicMergePatch.createTwoWay(original, modified, FROM_CLASSES),
                              s),
                      s -> StrategicMergePatch.createThreeWay(original, modified, current, s),
                      s ->
                          StrategicMergePatch.apply(
                              current,
                              StrategicMergePatch.createThreeWay(original, modified, current, s),
                              s));
              for (int i = 0; i < checks.size(); i++) {
                String classes = outcome(checks.get(i), FROM_CLASSES);
                String swagger = outcome(checks.get(i), FROM_SWAGGER);
                if (!classes.equals(swagger)) {
                  disagreements.add(
                      "seed " + seed + ", check " + i + ": " + firstDifference(classes, swagger));
                }
                if (i == 0 && classes.contains("$setElementOrder/containers")) {
                  merged[0]++;
                }
                if (classes.startsWith("error: ")) {
                  errors[0]++;
                }
              }
            });
    assertEquals(List.of(), disagreements, String.join("\n", disagreements));
    // The seeds exercise merged lists, not only scalars.
    assertTrue(merged[0] > 60, "patches that merge containers: " + merged[0]);
    // Both sources refuse the same documents (duplicate merge keys) with the same words.
    assertTrue(errors[0] > 0 && errors[0] < 300, "errors: " + errors[0]);
  }
}
