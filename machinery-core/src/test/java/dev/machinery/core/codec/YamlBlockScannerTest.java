package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.yaml.YamlBlockScanner;
import dev.machinery.core.codec.yaml.YamlNode;
import dev.machinery.core.codec.yaml.YamlReader;
import dev.machinery.core.testapi.TestApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The block scanner reads what SnakeYAML reads, node for node: the same tree, the same scalar
 * resolution, the same duplicate keys and the same line and column on every node; and what it
 * declines, SnakeYAML reads (or refuses) as before.
 */
class YamlBlockScannerTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());

  /** Block-style documents inside the scanner's subset. */
  static Stream<String> inSubset() {
    return Stream.of(
        "a: 1\n",
        "a: 1",
        "a:\n",
        "a:",
        "a:\nb: 2\n",
        "a: ~\nb: null\nc: true\nd: False\ne: 0x1F\nf: 0o17\ng: 1.5e3\nh: .inf\ni: -.INF\nj: .nan\n",
        "a: 12345678901234567890\nb: -3\nc: +4\nd: 007\n",
        "# leading comment\n\na: 1 # trailing\n# between\nb: two words   \n",
        "a:\n  b:\n    c: d\n  e: f\ng: h\n",
        "list:\n- a\n- b\nnext: 1\n",
        "list:\n  - a\n  - b\nnext: 1\n",
        "- a\n- b\n",
        "- - a\n  - b\n- - c\n",
        "- a: 1\n  b: 2\n- c: 3\n",
        "- \n- x\n",
        "-\n  a: 1\n-\n  - x\n",
        "a:\n- b: 1\n  c:\n  - d\n  - e: f\n    g: h\n",
        "empty: {}\nalso: []\nlist:\n- {}\n- []\n",
        "\"quoted key\": \"value \\\"with\\\" escapes \\n \\t \\u00e9 \\x41 \\U0001F600 \\\\\"\n",
        "'single': 'it''s'\n",
        "\"a\" : 1\n",
        "text: |\n  line one\n  line two\n",
        "text: |-\n  line one\n\n  line three\nnext: 1\n",
        "text: |\n  trailing blank\n\nnext: 1\n",
        "text: |\n    indented more\n      and more\n",
        "- |-\n  in a list\n- x\n",
        "text: |\n  # not a comment\n  x\n",
        "text: |\n  no final break",
        "url: http://example.com/a#b\nratio: 3:2x\nweird: a]b,c}d\n",
        "<<: {}\na: 1\n",
        "a: 1\na: 2\n",
        "1: one\ntrue: yes\nnull: x\n",
        "emoji: 😀 名字\n",
        "resources:\n  limits:\n    cpu: 500m\n    memory: 1Gi\n  requests:\n    cpu: \"1\"\n",
        "a: -1\nb: -x\nc: ?x\nd: :x\n");
  }

  /** Documents the scanner leaves to SnakeYAML. */
  static Stream<String> declined() {
    return Stream.of(
        "---\na: 1\n",
        "a: 1\n---\nb: 2\n",
        "a: 1\n--- b: 2\n",
        "a: 1\n--- b\n",
        "a: 1\n---",
        "a: 1\n...\n",
        "a: 1\n... b: 2\n",
        "- x\n--- - y\n",
        "a:\n  b: 1\n--- c: 2\n",
        "a: |\n  text\n--- b: 2\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\r\nb: 2\r\n",
        "a:\tb\n",
        "a: [1, 2]\n",
        "a: {b: c}\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: >\n  folded\n",
        "a: |+\n  kept\n\n",
        "a: |2\n   indicated\n",
        "a: plain\n  continued\n",
        "a: \"multi\n  line\"\n",
        "? complex\n: key\n",
        "  a: 1\n",
        "a: b: c\n",
        "a: 1\n b: 2\n",
        "a: - b\n",
        "just a scalar\n",
        "a: |\n\n  leading blank\n",
        "x".repeat(1100) + ": 1\n");
  }

  @ParameterizedTest
  @MethodSource("inSubset")
  void readsWhatSnakeYamlReads(String yaml) {
    List<YamlReader.Document> fast = YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS);
    assertNotNull(fast, "declined:\n" + yaml);
    assertEquals(dump(YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS)), dump(fast), yaml);
  }

  @ParameterizedTest
  @MethodSource("declined")
  void leavesTheRestToSnakeYaml(String yaml) {
    assertNull(YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS), yaml);
    String slow;
    try {
      slow = dump(YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS));
    } catch (DecodeException e) {
      DecodeException again =
          assertThrows(DecodeException.class, () -> YamlReader.read(yaml, CodecLimits.DEFAULTS));
      assertEquals(e.getMessage(), again.getMessage());
      return;
    }
    assertEquals(slow, dump(YamlReader.read(yaml, CodecLimits.DEFAULTS)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "apps.v1.Deployment.yaml",
        "extensions.v1beta1.Deployment.yaml",
        "core.v1.ConfigMap.yaml"
      })
  void readsKubernetesFixturesAsSnakeYamlDoes(String name) throws IOException {
    String yaml;
    try (InputStream in = getClass().getResourceAsStream("/k8s-api-testdata/v1.33.0/" + name)) {
      assertNotNull(in, name);
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<YamlReader.Document> fast = YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS);
    assertNotNull(fast, "declined " + name);
    assertEquals(dump(YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS)), dump(fast));
  }

  @ParameterizedTest
  @MethodSource("dev.machinery.core.codec.YamlEmitterTest#trickyStrings")
  void readsEverythingTheEmitterWritesAsSnakeYamlDoes(String s) {
    String yaml =
        new String(CODECS.yaml().encode(YamlEmitterTest.holding(s)), StandardCharsets.UTF_8);
    List<YamlReader.Document> fast = YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS);
    assertNotNull(fast, "declined:\n" + yaml);
    assertEquals(dump(YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS)), dump(fast), yaml);
  }

  /**
   * Every escape a double-quoted scalar may hold, and every one it may not, reads the same whether
   * the document is in the scanner's subset or not: a document decodes or fails (with the same
   * message) whatever unrelated text elsewhere in it sends it to SnakeYAML.
   */
  @Test
  void acceptsExactlyTheEscapesSnakeYamlAccepts() {
    int accepted = 0;
    for (char c = 0x20; c < 0x7F; c++) {
      String digits = c == 'x' ? "41" : c == 'u' ? "00e9" : c == 'U' ? "0001F600" : "";
      String yaml = "a: \"\\" + c + digits + "\"\n";
      String slow = outcome(() -> YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS));
      assertEquals(slow, outcome(() -> YamlReader.read(yaml, CodecLimits.DEFAULTS)), yaml);
      String flow = yaml + "b: [1]\n";
      String flowSlow = outcome(() -> YamlReader.readWithSnakeYaml(flow, CodecLimits.DEFAULTS));
      assertEquals(flowSlow, outcome(() -> YamlReader.read(flow, CodecLimits.DEFAULTS)), flow);
      assertEquals(slow.startsWith("invalid YAML"), flowSlow.startsWith("invalid YAML"), yaml);
      if (!slow.startsWith("invalid YAML")) {
        accepted++;
        assertNotNull(YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS), yaml);
      }
    }
    assertEquals(19, accepted);
    assertEquals(
        "invalid YAML at line 1, column 6: found unknown escape character /(47)",
        outcome(() -> YamlReader.read("a: \"\\/\"\n", CodecLimits.DEFAULTS)));
  }

  /** The documents read, dumped, or the message of the DecodeException that refused them. */
  private static String outcome(java.util.function.Supplier<List<YamlReader.Document>> read) {
    try {
      return dump(read.get());
    } catch (DecodeException e) {
      return e.getMessage();
    }
  }

  /**
   * Where SnakeYAML (YAML 1.1) would read text otherwise than YAML 1.2, or accept what YAML 1.2
   * forbids, the reader refuses it, naming the rule and the position (found by the YAML test suite,
   * {@code YamlTestSuiteTest}).
   */
  @Test
  void refusesWhatYaml11ReadsOtherwise() {
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put(
        "key: &an:chor value\n",
        "invalid YAML at line 1, column 9: the name &an is followed by \":\", which YAML 1.2 reads as"
            + " part of the name and YAML 1.1 as the start of the node; use only letters, digits,"
            + " \"-\" and \"_\" in anchor names");
    refused.put(
        "a: [?x]\n",
        "invalid YAML at line 1, column 5: \"?\" followed by \"x\" starts a plain scalar in YAML 1.2"
            + " but an explicit key in YAML 1.1; quote the scalar or put a space after \"?\"");
    refused.put(
        "key: \"value\"# comment\n",
        "invalid YAML at line 1, column 13: a comment must be separated by a space from what comes"
            + " before it (\"#\" right after \"\"\")");
    refused.put(
        "a: [b, c]#x\n",
        "invalid YAML at line 1, column 10: a comment must be separated by a space from what comes"
            + " before it (\"#\" right after \"]\")");
    refused.put(
        "a: [-]\n",
        "invalid YAML at line 1, column 5: a plain scalar cannot be a lone \"-\" followed by \"]\";"
            + " quote it to mean the text");
    refused.put(
        "a: 1\n%YAML 1.2\n---\nb: 2\n",
        "invalid YAML at line 2, column 1: a directive after a document must follow a document end"
            + " marker \"...\" that ends it");
    refused.put(
        "%YAML 1.2\n",
        "invalid YAML at line 2, column 1: a directive must be followed by a document start marker"
            + " \"---\"");
    refused.put(
        "a: >\n \n   \n  # text\n",
        "invalid YAML at line 4, column 3: a leading empty line of a block scalar has more spaces"
            + " (3) than its first content line (2)");
    for (Map.Entry<String, String> entry : refused.entrySet()) {
      assertEquals(
          entry.getValue(),
          assertThrows(
                  DecodeException.class,
                  () -> YamlReader.read(entry.getKey(), CodecLimits.DEFAULTS),
                  entry.getKey())
              .getMessage(),
          entry.getKey());
    }
    // What YAML 1.2 allows of the same characters still reads.
    assertEquals(
        "--- after empty: false, duplicates: []\n"
            + "1:1 mapping of 6\n"
            + " a =\n"
            + "  1:4 sequence of 3\n"
            + "    1:5 VALUE_STRING null \"-x\"\n"
            + "    1:9 VALUE_STRING null \"? y\"\n"
            + " : =\n"
            + "  2:3 VALUE_NULL null \"\"\n"
            + " b =\n"
            + "  3:4 VALUE_STRING null \"v\"\n",
        dump(YamlReader.read("a: [-x, \"? y\"]\n::\nb: &x v # c\n", CodecLimits.DEFAULTS)));
  }

  @Test
  void aLastLineOfSpacesEndsABlockScalarAsALineBreakWould() {
    assertEquals(
        dump(YamlReader.read("foo: |\n  x\n   \n", CodecLimits.DEFAULTS)),
        dump(YamlReader.read("foo: |\n  x\n   ", CodecLimits.DEFAULTS)));
    assertEquals(
        "--- after empty: false, duplicates: []\n"
            + "1:1 mapping of 2\n"
            + " foo =\n"
            + "  1:6 VALUE_STRING null \"x\\n \\n\"\n",
        dump(YamlReader.read("foo: |\n  x\n   ", CodecLimits.DEFAULTS)));
  }

  @Test
  void nestingPastItsDepthIsLeftToSnakeYaml() {
    String deepest = nested(YamlBlockScanner.MAX_DEPTH);
    assertNotNull(YamlReader.readWithBlockScanner(deepest, CodecLimits.DEFAULTS));
    String deeper = nested(YamlBlockScanner.MAX_DEPTH + 1);
    assertNull(YamlReader.readWithBlockScanner(deeper, CodecLimits.DEFAULTS));
    assertEquals(
        dump(YamlReader.readWithSnakeYaml(deeper, CodecLimits.DEFAULTS)),
        dump(YamlReader.read(deeper, CodecLimits.DEFAULTS)));
  }

  /** Mappings nested {@code depth} deep, the innermost holding one scalar. */
  private static String nested(int depth) {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < depth - 1; i++) {
      yaml.append("  ".repeat(i)).append("a:\n");
    }
    return yaml.append("  ".repeat(depth - 1)).append("leaf: 1\n").toString();
  }

  @Test
  void limitsAndErrorsAreSnakeYamlsWording() {
    String deep = "a:\n" + "  ".repeat(1) + "b: 1\n";
    assertNotNull(YamlReader.readWithBlockScanner(deep, CodecLimits.DEFAULTS));
    CodecLimits tight = CodecLimits.DEFAULTS.withMaxNestingDepth(1);
    LimitExceededException fast =
        assertThrows(LimitExceededException.class, () -> YamlReader.read(deep, tight));
    LimitExceededException slow =
        assertThrows(LimitExceededException.class, () -> YamlReader.readWithSnakeYaml(deep, tight));
    assertEquals(slow.getMessage(), fast.getMessage());
    String merge = "<<: 1\n";
    DecodeException bad =
        assertThrows(DecodeException.class, () -> YamlReader.read(merge, CodecLimits.DEFAULTS));
    assertEquals(
        assertThrows(
                DecodeException.class,
                () -> YamlReader.readWithSnakeYaml(merge, CodecLimits.DEFAULTS))
            .getMessage(),
        bad.getMessage());
  }

  /**
   * Seeded random documents built from block-style pieces, indentations and awkward characters:
   * whenever the scanner accepts one, SnakeYAML reads the same nodes; and the reader as a whole
   * (scanner, then SnakeYAML) always gives SnakeYAML's result or SnakeYAML's error.
   */
  @Test
  void randomBlockDocumentsReadAsSnakeYamlReadsThem() {
    int accepted = 0;
    for (int seed = 0; seed < 4000; seed++) {
      String yaml = randomDocument(new Random(seed));
      String slow;
      try {
        slow = dump(YamlReader.readWithSnakeYaml(yaml, CodecLimits.DEFAULTS));
      } catch (DecodeException e) {
        assertNull(
            YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS),
            "seed "
                + seed
                + ": accepted what SnakeYAML refuses ("
                + e.getMessage()
                + "):\n"
                + yaml);
        continue;
      }
      List<YamlReader.Document> fast = YamlReader.readWithBlockScanner(yaml, CodecLimits.DEFAULTS);
      if (fast != null) {
        accepted++;
        assertEquals(slow, dump(fast), "seed " + seed + ":\n" + yaml);
      }
      assertEquals(slow, dump(YamlReader.read(yaml, CodecLimits.DEFAULTS)), "seed " + seed);
    }
    assertTrue(accepted > 800, "the scanner accepted only " + accepted + " of 4000");
  }

  private static final String[] PIECES = {
    "a",
    "b c",
    "-x",
    "?x",
    ":x",
    "x:y",
    "x #y",
    "x#y",
    "'q'",
    "'it''s'",
    "\"d\"",
    "\"e\\n\\\"\"",
    "\"\\u00e9\\x41\"",
    "1",
    "-2",
    "0x1F",
    "1.5",
    ".inf",
    "~",
    "null",
    "true",
    "yes",
    "<<",
    "{}",
    "[]",
    "[1]",
    "{a: b}",
    "&a x",
    "*a",
    "!!str 1",
    "|",
    "|-",
    "|+",
    ">",
    "名字",
    "😀",
    "a]b",
    "a,b",
    "%x",
    "@x",
    "`x",
    "x ",
    " x",
    "x: ",
    "\t",
    "\"open",
    "'open",
    "#c",
    "---",
    "...",
    "\"\\q\""
  };

  private static String randomDocument(Random random) {
    StringBuilder yaml = new StringBuilder();
    if (random.nextBoolean()) {
      mappingEntries(random, yaml, 0, 0, false);
    } else {
      sequenceItems(random, yaml, 0, 0, false);
    }
    // Now and then a line is disturbed: an indentation off by one, or a piece dropped in.
    String[] lines = yaml.toString().split("\n", -1);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      switch (random.nextInt(40)) {
        case 0:
          out.append(' ').append(lines[i]);
          break;
        case 1:
          out.append(lines[i].replaceFirst("^ ", ""));
          break;
        case 2:
          out.append(lines[i]).append(PIECES[random.nextInt(PIECES.length)]);
          break;
        case 3:
          out.append(lines[i]).append("\n").append(" ".repeat(random.nextInt(6))).append("# c");
          break;
        case 4:
          out.append(lines[i]).append("\n");
          break;
        default:
          out.append(lines[i]);
          break;
      }
      if (i + 1 < lines.length) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static String scalar(Random random) {
    return random.nextInt(3) == 0
        ? PIECES[random.nextInt(PIECES.length)]
        : List.of(
                "plain",
                "two words",
                "\"quoted: x\"",
                "'single # x'",
                "42",
                "-7",
                "1.5",
                "true",
                "~")
            .get(random.nextInt(9));
  }

  private static String key(Random random) {
    return List.of("a", "b", "key", "\"q k\"", "'s k'", "1", "<<", "名", "x y")
        .get(random.nextInt(9));
  }

  private static void mappingEntries(
      Random random, StringBuilder yaml, int indent, int depth, boolean inline) {
    int entries = 1 + random.nextInt(4);
    for (int i = 0; i < entries; i++) {
      if (!(inline && i == 0)) {
        yaml.append(" ".repeat(indent));
      }
      yaml.append(key(random)).append(':');
      value(random, yaml, indent, depth, true);
    }
  }

  private static void sequenceItems(
      Random random, StringBuilder yaml, int indent, int depth, boolean inline) {
    int items = 1 + random.nextInt(4);
    for (int i = 0; i < items; i++) {
      if (!(inline && i == 0)) {
        yaml.append(" ".repeat(indent));
      }
      yaml.append('-');
      switch (depth > 3 ? 0 : random.nextInt(4)) {
        case 1:
          yaml.append(' ');
          mappingEntries(random, yaml, indent + 2, depth + 1, true);
          break;
        case 2:
          yaml.append(' ');
          sequenceItems(random, yaml, indent + 2, depth + 1, true);
          break;
        case 3:
          value(random, yaml, indent, depth, false);
          break;
        default:
          yaml.append(' ').append(scalar(random)).append('\n');
          break;
      }
    }
  }

  /** After "key:" or "-": a scalar, a literal, an empty collection or a nested block. */
  private static void value(
      Random random, StringBuilder yaml, int indent, int depth, boolean afterKey) {
    switch (depth > 3 ? random.nextInt(3) : random.nextInt(7)) {
      case 0:
        yaml.append(' ').append(scalar(random)).append('\n');
        break;
      case 1:
        yaml.append(random.nextBoolean() ? " |\n" : " |-\n");
        for (int i = random.nextInt(4); i >= 0; i--) {
          yaml.append(" ".repeat(indent + 2 + (random.nextInt(4) == 0 ? 2 : 0)))
              .append(random.nextInt(5) == 0 ? "" : scalar(random))
              .append('\n');
        }
        break;
      case 2:
        yaml.append(random.nextBoolean() ? " {}\n" : " []\n");
        break;
      case 3:
        yaml.append('\n');
        break;
      case 4:
        yaml.append('\n');
        mappingEntries(random, yaml, indent + 2, depth + 1, false);
        break;
      default:
        yaml.append('\n');
        sequenceItems(
            random, yaml, afterKey && random.nextBoolean() ? indent : indent + 2, depth + 1, false);
        break;
    }
  }

  static String dump(List<YamlReader.Document> documents) {
    StringBuilder out = new StringBuilder();
    for (YamlReader.Document document : documents) {
      out.append("--- after empty: ")
          .append(document.afterEmpty)
          .append(", duplicates: ")
          .append(document.duplicatePaths)
          .append('\n');
      dump(document.root, 0, out);
    }
    return out.toString();
  }

  private static void dump(YamlNode node, int indent, StringBuilder out) {
    out.append(" ".repeat(indent)).append(node.line).append(':').append(node.column).append(' ');
    if (node instanceof YamlNode.Scalar) {
      YamlNode.Scalar scalar = (YamlNode.Scalar) node;
      out.append(scalar.token)
          .append(' ')
          .append(scalar.number)
          .append(" \"")
          .append(scalar.text.replace("\n", "\\n"))
          .append("\"\n");
    } else if (node instanceof YamlNode.Mapping) {
      YamlNode.Mapping mapping = (YamlNode.Mapping) node;
      out.append("mapping of ").append(mapping.size()).append('\n');
      for (int i = 0; i < mapping.keys.size(); i++) {
        out.append(" ".repeat(indent + 1)).append(mapping.keys.get(i)).append(" =\n");
        dump(mapping.values.get(i), indent + 2, out);
      }
    } else {
      YamlNode.Sequence sequence = (YamlNode.Sequence) node;
      out.append("sequence of ").append(sequence.size()).append('\n');
      for (YamlNode item : sequence.items) {
        dump(item, indent + 2, out);
      }
    }
  }
}
