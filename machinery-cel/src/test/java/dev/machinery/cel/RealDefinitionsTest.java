package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the CustomResourceDefinitions of Gateway API, prometheus-operator and cert-manager
 * (src/test/resources/crds, see its README), all of which kube-apiserver accepts, is accepted: none
 * is refused for not compiling, nor for its estimated cost, nor are their totals.
 */
class RealDefinitionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Version(String source, JSONSchemaProps schema, int rules) {}

  private static List<Version> versions() throws IOException, URISyntaxException {
    Path root = Path.of(RealDefinitionsTest.class.getResource("/crds").toURI());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(p -> p.toString().endsWith(".json.gz")).sorted().toList();
    }
    List<Version> out = new ArrayList<>();
    for (Path file : files) {
      try (BufferedReader lines =
          new BufferedReader(
              new InputStreamReader(
                  new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          JsonNode crd = JSON.readTree(line);
          JsonNode versions = crd.path("spec").path("versions");
          for (int i = 0; i < versions.size(); i++) {
            JsonNode schema = versions.get(i).path("schema").path("openAPIV3Schema");
            out.add(
                new Version(
                    root.relativize(file)
                        + " "
                        + crd.path("metadata").path("name").asText()
                        + " "
                        + versions.get(i).path("name").asText(),
                    JSON.treeToValue(schema, JSONSchemaProps.class),
                    schema.findValues("x-kubernetes-validations").stream()
                        .mapToInt(JsonNode::size)
                        .sum()));
          }
        }
      }
    }
    return out;
  }

  @Test
  void everyRuleOfThePublishedDefinitionsIsAccepted() throws Exception {
    List<Version> versions = versions();
    int rules = versions.stream().mapToInt(Version::rules).sum();
    assertEquals(675, rules, "rules read");
    List<String> refused = new ArrayList<>();
    long largestTotal = 0;
    CelValidationRules celRules = CelValidationRules.create();
    for (Version version : versions) {
      FieldPath path =
          FieldPath.of("spec", "versions").index(0).child("schema").child("openAPIV3Schema");
      for (FieldError error : celRules.check(version.schema(), path)) {
        refused.add(version.source() + ": " + error);
      }
      RuleCompiler compiler = new RuleCompiler(new ArrayList<>(), false);
      compiler.root(version.schema(), path);
      largestTotal = Math.max(largestTotal, compiler.costs().total());
    }
    assertEquals(List.of(), refused);
    // The estimates are not vacuous: HTTPRoute's rules are estimated at over 11,000,000 in all,
    // under kube-apiserver's limit of 100,000,000.
    assertTrue(largestTotal > 10_000_000, "largest total " + largestTotal);
    assertTrue(largestTotal < CelValidationRules.STATIC_ESTIMATED_CRD_COST_LIMIT);
  }
}
