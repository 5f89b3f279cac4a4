package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.testapi.TestApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
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

  private static String dump(List<YamlReader.Document> documents) {
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
      out.append("mapping of ").append(mapping.size).append('\n');
      for (int i = 0; i < mapping.keys.size(); i++) {
        out.append(" ".repeat(indent + 1)).append(mapping.keys.get(i)).append(" =\n");
        dump(mapping.values.get(i), indent + 2, out);
      }
    } else {
      YamlNode.Sequence sequence = (YamlNode.Sequence) node;
      out.append("sequence of ").append(sequence.size).append('\n');
      for (YamlNode item : sequence.items) {
        dump(item, indent + 2, out);
      }
    }
  }
}
