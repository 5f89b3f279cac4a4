package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The YAML emitter: every string reads back as itself (through the library's reader, and through
 * Jackson's own YAML parser, another YAML 1.1 reader), and on ordinary objects the layout is the
 * one Jackson's generator gives with the codec's settings, byte for byte.
 */
class YamlEmitterTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());
  private static final ObjectMapper OTHER_READER = new YAMLMapper();

  static Stream<String> trickyStrings() {
    return Stream.of(
        "",
        " ",
        "plain",
        "two words",
        "null",
        "Null",
        "~",
        "true",
        "False",
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "123",
        "-1",
        "+1",
        "0x1F",
        "0o17",
        "017",
        "1e3",
        "1.5",
        ".5",
        ".inf",
        "-.inf",
        ".nan",
        "1_000",
        "0b101",
        "12:30",
        "190:20:30",
        "1.2.3",
        "2026-11-25",
        " lead",
        "trail ",
        "a: b",
        "a:b",
        "key:",
        "a #b",
        "a#b",
        "#x",
        "- x",
        "-",
        "--",
        "---",
        "...",
        "? q",
        ": x",
        "<<",
        "@at",
        "`tick",
        "%pct",
        "!bang",
        "&amp",
        "*star",
        "|pipe",
        ">gt",
        "[x]",
        "{x}",
        ",c",
        "'single'",
        "\"double\"",
        "back\\slash",
        "multi\nline",
        "multi\nline\n",
        "two breaks\n\n",
        "\nleading break",
        "a\n\nb",
        "a\n b\n  c",
        "a \nb",
        " \n",
        "#comment\nline",
        "- item\n- item",
        "key: value\nother: x",
        "tab\tinside",
        "tab\tin\nlines",
        "cr\r\nlf",
        "nel\u0085x",
        "ls\u2028x",
        "ps\u2029x",
        "bom\uFEFFx",
        "bell\u0007",
        "esc\u001B",
        "del\u007F",
        "nbsp\u00A0",
        "üé名字ßΩ",
        "emoji 😀",
        "lone \uD800 high",
        "lone \uDC00 low",
        "x".repeat(5000),
        "line\n".repeat(50));
  }

  static Deployment holding(String s) {
    Deployment deployment = new Deployment();
    deployment.setApiVersion("apps/v1");
    deployment.setKind("Deployment");
    Meta meta = new Meta();
    meta.setName("d");
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(s.length() > 100 ? "long" : s, s);
    labels.put("after", "x");
    meta.setLabels(labels);
    deployment.setMetadata(meta);
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("in a list", List.of(s, Map.of("k", s), List.of(s, List.of(s))));
    extra.put("nested", List.of(List.of(List.of(s)), List.of(), Map.of()));
    extra.put("mapping", Map.of("inner", Map.of("deeper", s)));
    extra.put("numbers", List.of(1, -2, 1.5, 1e300, Long.MAX_VALUE));
    deployment.setSpec(
        new DeploymentSpec(
            3,
            false,
            0.25,
            s,
            DeploymentSpec.Strategy.Recreate,
            List.of(new DeploymentSpec.Container(s, s, List.of(80, 443))),
            extra));
    return deployment;
  }

  private static String repaired(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1));
      if (pair) {
        out.append(c).append(s.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return out.toString();
  }

  @ParameterizedTest
  @MethodSource("trickyStrings")
  void everyStringReadsBackAsItself(String s) throws Exception {
    Deployment original = holding(s);
    byte[] yaml = CODECS.yaml().encode(original);
    String text = new String(yaml, StandardCharsets.UTF_8);
    assertNotNull(
        YamlEmitter.write(writer(), original), "the emitter declined a plain object:\n" + text);
    Deployment expected = holding(repaired(s));
    assertEquals(
        expected, CODECS.yaml().decode(yaml, Deployment.class).object(), "written as:\n" + text);
    // Another reader (SnakeYAML through Jackson, YAML 1.1) reads the same tree as JSON gives.
    if (s.indexOf('\uD800') < 0 && s.indexOf('\uDC00') < 0) {
      JsonNode json = new ObjectMapper().readTree(CODECS.json().encode(original));
      assertEquals(json.toString(), OTHER_READER.readTree(yaml).toString(), "written as:\n" + text);
    }
  }

  @Test
  void ordinaryObjectsAreLaidOutAsJacksonsGeneratorLaysThemOut() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      Deployment deployment = holding(word(random));
      Map<String, Object> extra = new LinkedHashMap<>(deployment.getSpec().extra());
      extra.put(word(random), randomValue(random, 0));
      deployment.setSpec(
          new DeploymentSpec(
              random.nextInt(10),
              random.nextBoolean(),
              random.nextDouble(),
              word(random),
              DeploymentSpec.Strategy.RollingUpdate,
              List.of(),
              extra));
      String jackson =
          new String(
              CODECS
                  .yamlMapper
                  .writerFor(Deployment.class)
                  .withAttribute(MachineryModule.ROOT_KIND, TestApi.APPS_V1.withKind("Deployment"))
                  .writeValueAsBytes(deployment),
              StandardCharsets.UTF_8);
      String emitted = new String(CODECS.yaml().encode(deployment), StandardCharsets.UTF_8);
      assertEquals(jackson, emitted, "seed 7, object " + i);
    }
  }

  @Test
  void whatItCannotLayOutItLeavesToJackson() throws Exception {
    Map<String, Object> deep = new LinkedHashMap<>();
    Map<String, Object> inner = deep;
    for (int i = 0; i <= YamlEmitter.MAX_DEPTH; i++) {
      Map<String, Object> next = new LinkedHashMap<>();
      inner.put("a", next);
      inner = next;
    }
    inner.put("leaf", 1);
    Map<String, Object> longKey = Map.of("k".repeat(2000), "v");
    for (Map<String, Object> extra : List.of(deep, longKey)) {
      Deployment deployment = holding("x");
      deployment.setSpec(new DeploymentSpec(1, false, null, null, null, List.of(), extra));
      assertNull(YamlEmitter.write(writer(), deployment));
      // The codec still writes it, through Jackson's generator, and reads it back.
      byte[] yaml = CODECS.yaml().encode(deployment);
      assertEquals(
          deployment,
          CodecFactory.create(TestApi.scheme(), CodecLimits.DEFAULTS.withMaxNestingDepth(1000))
              .yaml()
              .decode(yaml, Deployment.class)
              .object());
    }
  }

  @Test
  void numbersThatAreNotFiniteAreRefusedAsInJson() {
    for (double ratio :
        new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      Deployment deployment = holding("x");
      deployment.setSpec(new DeploymentSpec(1, false, ratio, null, null, List.of(), Map.of()));
      EncodeException e =
          assertThrows(EncodeException.class, () -> CODECS.yaml().encode(deployment));
      assertTrue(e.getMessage().contains("JSON numbers are finite"), e.getMessage());
    }
  }

  @Test
  void binaryValuesAreLeftToJacksonsGenerator() throws Exception {
    Deployment deployment = holding("x");
    deployment.setSpec(
        new DeploymentSpec(
            1, false, null, null, null, List.of(), Map.of("bytes", new byte[] {1, 2})));
    assertNull(YamlEmitter.write(writer(), deployment));
    assertEquals(
        new String(writer().writeValueAsBytes(deployment), StandardCharsets.UTF_8),
        new String(CODECS.yaml().encode(deployment), StandardCharsets.UTF_8));
  }

  @Test
  void theEmitterAndTheScannerServeManyThreadsAtOnce() throws Exception {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      List<java.util.concurrent.Callable<Integer>> tasks = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        long seed = t;
        tasks.add(
            () -> {
              Random random = new Random(seed);
              for (int i = 0; i < 300; i++) {
                // Fresh key names on every thread: the shared cache of key quoting fills at once.
                Deployment original = holding(word(random) + " " + seed);
                Map<String, Object> extra = new LinkedHashMap<>(original.getSpec().extra());
                extra.put(word(random) + i, randomValue(random, 0));
                original.setSpec(
                    new DeploymentSpec(i, true, 0.5, word(random), null, List.of(), extra));
                byte[] yaml = CODECS.yaml().encode(original);
                assertNotNull(
                    YamlReader.readWithBlockScanner(
                        new String(yaml, StandardCharsets.UTF_8), CodecLimits.DEFAULTS));
                assertEquals(original, CODECS.yaml().decode(yaml, Deployment.class).object());
              }
              return 300;
            });
      }
      for (java.util.concurrent.Future<Integer> done : pool.invokeAll(tasks)) {
        assertEquals(300, done.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static com.fasterxml.jackson.databind.ObjectWriter writer() {
    return CODECS
        .yamlMapper
        .writerFor(Deployment.class)
        .withAttribute(MachineryModule.ROOT_KIND, TestApi.APPS_V1.withKind("Deployment"));
  }

  private static String word(Random random) {
    int length = 1 + random.nextInt(12);
    StringBuilder word = new StringBuilder();
    for (int i = 0; i < length; i++) {
      word.append("abcdefghijklmnopqrstuvwxyz-._/ ".charAt(random.nextInt(i == 0 ? 26 : 31)));
    }
    return word.toString().strip();
  }

  private static Object randomValue(Random random, int depth) {
    switch (depth > 4 ? random.nextInt(4) : random.nextInt(7)) {
      case 0:
        return word(random);
      case 1:
        return random.nextInt();
      case 2:
        return random.nextBoolean();
      case 3:
        return random.nextInt(3) == 0 ? "multi\nline " + word(random) : word(random) + ": x";
      case 4:
        {
          List<Object> list = new ArrayList<>();
          for (int i = random.nextInt(4); i > 0; i--) {
            list.add(randomValue(random, depth + 1));
          }
          return list;
        }
      default:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = random.nextInt(4); i > 0; i--) {
            map.put(word(random), randomValue(random, depth + 1));
          }
          return map;
        }
    }
  }
}
