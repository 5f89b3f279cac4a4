package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.machinery.core.codec.yaml.YamlNode;
import dev.machinery.core.codec.yaml.YamlReader;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The YAML test suite (yaml/yaml-test-suite, data release 2022-01-17; see the README beside {@code
 * cases.json}) as a conformance table for the YAML reader, read as the codec reads a body (UTF-8
 * checked, then the block scanner, then SnakeYAML). Every case either reads exactly as its {@code
 * in.json} says (empty documents, null there, are skipped as {@code decodeAll} skips them), or is
 * refused with a {@link DecodeException} that names a line and column, for one of the reasons
 * listed in {@link #REFUSED}. A case the suite marks as an error never reads, but for the three in
 * {@link #LENIENT}. And wherever the block scanner reads a case, it reads what SnakeYAML reads.
 */
class YamlTestSuiteTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Why valid YAML 1.2 is refused. */
  enum Refusal {
    /**
     * A tag other than the core schema's ({@code !foo}, {@code !!set}, {@code !!binary}...): it
     * names a type the codec cannot build, so it is refused rather than dropped.
     */
    TAG("unsupported YAML tag"),
    /** A mapping or sequence as a key: JSON, and so the objects the codec binds, has text keys. */
    COMPLEX_KEY("only scalar keys are supported"),
    /**
     * Text that YAML 1.1 (SnakeYAML) reads as something else: refused by the reader's own checks
     * instead of being read the 1.1 way ({@code [?x]}, {@code &an:chor value}).
     */
    READ_OTHERWISE_BY_YAML_1_1("YAML 1.2"),
    /**
     * Valid YAML 1.2 that SnakeYAML, a YAML 1.1 parser, refuses: tabs as separators, values right
     * after a {@code :} in flow collections, empty keys, bare documents after {@code ...},
     * zero-indented top-level block scalars, the escapes {@code \/} and backslash-tab, {@code :} in
     * anchor names. Kubernetes' manifests use none of these; SnakeYAML's message is kept.
     */
    SNAKEYAML_YAML_1_1("");

    final String says;

    Refusal(String says) {
      this.says = says;
    }
  }

  /** The valid cases refused, by reason. */
  static final Map<Refusal, Set<String>> REFUSED =
      Map.of(
          Refusal.TAG,
          Set.of(
              "2XXW", "565N", "5TYM", "6CK3", "6WLZ", "7FWL", "9WXW", "C4HZ", "CC74", "CUP7",
              "J7PZ", "M5C3", "P76L", "UGM3", "WZ62", "Z67P", "Z9M4"),
          Refusal.COMPLEX_KEY,
          Set.of(
              "4FJ6", "6BFJ", "6PBE", "9MMW", "KK5P", "LX3P", "M2N8/01", "M5DY", "Q9WF", "RZP5",
              "SBG9", "V9D5", "X38W", "XW4D"),
          Refusal.READ_OTHERWISE_BY_YAML_1_1,
          Set.of("2SXE", "652Z", "HM87/01", "Y2GN"),
          Refusal.SNAKEYAML_YAML_1_1,
          Set.of(
              "2JQS",
              "3RLN/01",
              "3RLN/04",
              "3UYS",
              "4MUZ/00",
              "4MUZ/01",
              "4MUZ/02",
              "58MP",
              "5MUD",
              "5T43",
              "6BCT",
              "6CA3",
              "6HB6",
              "6M2F",
              "7Z25",
              "9SA2",
              "A2M4",
              "CFD4",
              "DBG4",
              "DC7X",
              "DE56/02",
              "DE56/03",
              "DK3J",
              "DK95/00",
              "DK95/03",
              "DK95/04",
              "DK95/05",
              "DK95/07",
              "FP8R",
              "FRK4",
              "HM87/00",
              "HS5T",
              "HWV9",
              "J3BT",
              "JR7V",
              "K3WX",
              "K54U",
              "KH5V/01",
              "M2N8/00",
              "M7A3",
              "MUS6/03",
              "NB6Z",
              "NHX8",
              "NJ66",
              "NKF9",
              "Q5MG",
              "QT73",
              "S3PD",
              "SM9W/01",
              "UKK6/00",
              "UT92",
              "UV7Q",
              "VJP3/01",
              "W4TN",
              "W5VH",
              "Y79Y/002",
              "Y79Y/010"));

  /**
   * Invalid YAML 1.2 that is read, on purpose: lines of a flow collection or a multi-line quoted
   * scalar that are not indented past the block mapping around them ({@code flow: [a,\nb]}, or
   * {@code quoted: "a\nb"}, or a tab as that indentation). The text has one reading; SnakeYAML,
   * like many widely used YAML readers, accepts it, and hand-written manifests put a closing
   * bracket in the key's column.
   */
  static final Set<String> LENIENT = Set.of("9C9N", "DK95/01", "QB6E");

  record Case(String id, String name, String yaml, String json, boolean error) {}

  static List<Case> cases() throws IOException {
    try (InputStream in =
        YamlTestSuiteTest.class.getResourceAsStream("/yaml-test-suite/cases.json")) {
      assertNotNull(in, "cases.json");
      List<Case> cases = new ArrayList<>();
      for (JsonNode node : JSON.readTree(in)) {
        cases.add(
            new Case(
                node.get("id").asText(),
                node.get("name").asText(),
                node.get("yaml").asText(),
                node.get("json").isNull() ? null : node.get("json").asText(),
                node.get("error").asBoolean()));
      }
      return cases;
    }
  }

  static Stream<Arguments> suite() throws IOException {
    return cases().stream().map(c -> Arguments.of(c.id(), c.name(), c));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("suite")
  void readsAsTheSuiteSaysOrRefusesByDesign(String id, String name, Case c) throws IOException {
    Refusal refusal = refusal(id);
    if (refusal != null || c.error() && !LENIENT.contains(id)) {
      DecodeException e = assertThrows(DecodeException.class, () -> read(c.yaml()), c.yaml());
      assertTrue(
          e.getMessage().startsWith("invalid YAML at line " + e.line() + ", column "),
          e.getMessage());
      assertTrue(e.line() > 0 && e.column() > 0, e.getMessage());
      if (refusal != null) {
        assertTrue(e.getMessage().contains(refusal.says), e.getMessage());
      }
      return;
    }
    List<JsonNode> read = read(c.yaml());
    if (c.json() != null && !c.error()) {
      assertEquals(expected(c.json()), read, c.yaml());
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("suite")
  void theBlockScannerReadsWhatSnakeYamlReads(String id, String name, Case c) {
    List<YamlReader.Document> fast =
        YamlReader.readWithBlockScanner(c.yaml(), CodecLimits.DEFAULTS);
    if (fast == null) {
      return;
    }
    try {
      assertEquals(
          YamlBlockScannerTest.dump(YamlReader.readWithSnakeYaml(c.yaml(), CodecLimits.DEFAULTS)),
          YamlBlockScannerTest.dump(fast),
          c.yaml());
    } catch (DecodeException e) {
      fail("the block scanner read what SnakeYAML refuses: " + e.getMessage());
    }
  }

  @Test
  void everyListedCaseIsInTheSuite() throws IOException {
    Set<String> ids = new HashSet<>();
    int errors = 0;
    for (Case c : cases()) {
      ids.add(c.id());
      errors += c.error() ? 1 : 0;
    }
    assertEquals(402, ids.size());
    assertEquals(94, errors);
    for (Set<String> listed : REFUSED.values()) {
      assertTrue(ids.containsAll(listed), listed.toString());
    }
    assertTrue(ids.containsAll(LENIENT));
  }

  private static Refusal refusal(String id) {
    for (Map.Entry<Refusal, Set<String>> entry : REFUSED.entrySet()) {
      if (entry.getValue().contains(id)) {
        return entry.getKey();
      }
    }
    return null;
  }

  /** Reads a stream as the codec does: bytes checked as UTF-8, then the reader. */
  private static List<JsonNode> read(String yaml) {
    byte[] data = yaml.getBytes(StandardCharsets.UTF_8);
    int start = Utf8.validate(data, data.length);
    char[] chars = new char[data.length - start];
    int length = Utf8.decodeValid(data, start, data.length, chars);
    List<JsonNode> documents = new ArrayList<>();
    for (YamlReader.Document document : YamlReader.read(chars, length, CodecLimits.DEFAULTS)) {
      documents.add(tree(document.root));
    }
    return documents;
  }

  /** The JSON values of in.json, one a document, empty (null) documents left out. */
  private static List<JsonNode> expected(String json) throws IOException {
    List<JsonNode> documents = new ArrayList<>();
    try (JsonParser parser = JSON.createParser(json)) {
      while (parser.nextToken() != null) {
        JsonNode document = normal(JSON.readTree(parser));
        if (!document.isNull()) {
          documents.add(document);
        }
      }
    }
    return documents;
  }

  /** A reader's node as JSON, numbers as decimals so that 1.0 and 1 compare by value. */
  private static JsonNode tree(YamlNode node) {
    if (node instanceof YamlNode.Scalar) {
      YamlNode.Scalar scalar = (YamlNode.Scalar) node;
      switch (scalar.token) {
        case VALUE_NULL:
          return NullNode.instance;
        case VALUE_TRUE:
          return BooleanNode.TRUE;
        case VALUE_FALSE:
          return BooleanNode.FALSE;
        case VALUE_NUMBER_INT:
        case VALUE_NUMBER_FLOAT:
          return decimal(new BigDecimal(scalar.number.toString()));
        default:
          return TextNode.valueOf(scalar.text);
      }
    }
    if (node instanceof YamlNode.Mapping) {
      YamlNode.Mapping mapping = (YamlNode.Mapping) node;
      ObjectNode object = JSON.createObjectNode();
      for (int i = 0; i < mapping.keys.size(); i++) {
        object.set(mapping.keys.get(i), tree(mapping.values.get(i)));
      }
      return object;
    }
    ArrayNode array = JSON.createArrayNode();
    for (YamlNode item : ((YamlNode.Sequence) node).items) {
      array.add(tree(item));
    }
    return array;
  }

  private static JsonNode normal(JsonNode node) {
    if (node.isNumber()) {
      return decimal(node.decimalValue());
    }
    if (node.isObject()) {
      ObjectNode object = JSON.createObjectNode();
      node.properties().forEach(e -> object.set(e.getKey(), normal(e.getValue())));
      return object;
    }
    if (node.isArray()) {
      ArrayNode array = JSON.createArrayNode();
      node.forEach(item -> array.add(normal(item)));
      return array;
    }
    return node;
  }

  /** A decimal in one canonical form: 1, 1.0 and 1e0 are equal nodes. */
  private static JsonNode decimal(BigDecimal value) {
    BigDecimal canonical = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    return DecimalNode.valueOf(canonical);
  }
}
