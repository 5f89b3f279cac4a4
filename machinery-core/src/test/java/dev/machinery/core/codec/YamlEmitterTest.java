package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.codec.yaml.YamlEmitter;
import dev.machinery.core.codec.yaml.YamlNumbers;
import dev.machinery.core.codec.yaml.YamlReader;
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
        "2024-05-01T12:00:00Z",
        "2001-12-14 21:59:43.10 -5",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10",
        "2001-12-15T02:59:43.1Z",
        "2002-1-2 1:02:03",
        "2024-05-01T12:00:00+02:00",
        "1.0e+10",
        "1.0E10",
        "1e10",
        "-1.5e-7",
        "190:20:30.15",
        "+685_230",
        "0x_1F",
        "-.Inf",
        ".NaN",
        "=",
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
    // Other readers read the same tree as JSON gives: Jackson's YAML parser, and SnakeYAML with
    // its default YAML 1.1 resolver (which reads timestamps as dates, and floats only with a dot).
    if (s.indexOf('\uD800') < 0 && s.indexOf('\uDC00') < 0) {
      JsonNode json = new ObjectMapper().readTree(CODECS.json().encode(original));
      assertEquals(json.toString(), OTHER_READER.readTree(yaml).toString(), "written as:\n" + text);
      assertEquals(json, yaml11(text), "written as:\n" + text);
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
      // Jackson's generator, with floating-point numbers in the YAML 1.1 form as the codec has it.
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      try (com.fasterxml.jackson.core.JsonGenerator generator =
          new YamlNumbers.Generator(
              writer()
                  .getFactory()
                  .createGenerator(bytes, com.fasterxml.jackson.core.JsonEncoding.UTF8))) {
        writer().writeValue(generator, deployment);
      }
      String jackson = bytes.toString(StandardCharsets.UTF_8);
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

  /**
   * Floating-point numbers are written so that YAML 1.1 readers read them as floats: with a dot and
   * a signed exponent, as YAML 1.1's float pattern requires ({@code 1.0e+10}, where Java writes
   * {@code 1.0E10} and Go {@code 1e+10}), through the emitter and through Jackson's generator where
   * the emitter declines (deep nesting); but a whole double or float below 1e21 as an integer, as
   * Go's JSON (and so its YAML) writes a float64 ({@code 123}, not {@code 123.0}).
   */
  @Test
  void floatsAreWrittenAsYaml11ReadersReadFloats() throws Exception {
    java.util.regex.Pattern yaml11Float =
        java.util.regex.Pattern.compile("[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?");
    List<Object> numbers =
        List.of(
            1e10,
            -1.5e-7,
            123.0,
            0.1,
            1e21,
            1e-5,
            -2.5e300,
            Double.MIN_VALUE,
            Double.MAX_VALUE,
            1.5e10f,
            3.0f,
            new java.math.BigDecimal("1E+10"),
            new java.math.BigDecimal("-1.5E-7"),
            new java.math.BigDecimal("2.50"));
    Map<String, Object> deep = new LinkedHashMap<>();
    Map<String, Object> inner = deep;
    for (int i = 0; i <= YamlEmitter.MAX_DEPTH; i++) {
      Map<String, Object> next = new LinkedHashMap<>();
      inner.put("a", next);
      inner = next;
    }
    inner.put("numbers", numbers);
    inner.put("time", "2024-05-01T12:00:00Z");
    for (Map<String, Object> extra : List.of(Map.<String, Object>of("numbers", numbers), deep)) {
      Deployment deployment = holding("x");
      deployment.setSpec(new DeploymentSpec(1, false, 1e10, null, null, List.of(), extra));
      String text = new String(CODECS.yaml().encode(deployment), StandardCharsets.UTF_8);
      Map<?, ?> read = yaml11Loader().load(text);
      Map<?, ?> spec = (Map<?, ?>) read.get("spec");
      assertEquals(10_000_000_000L, spec.get("ratio"), text);
      Object at = spec.get("extra");
      for (int i = 0; extra == deep && i <= YamlEmitter.MAX_DEPTH; i++) {
        at = ((Map<?, ?>) at).get("a");
      }
      List<?> values = (List<?>) ((Map<?, ?>) at).get("numbers");
      for (int i = 0; i < numbers.size(); i++) {
        Object written = values.get(i);
        Object number = numbers.get(i);
        double value = ((Number) number).doubleValue();
        boolean whole =
            !(number instanceof java.math.BigDecimal)
                && value == Math.rint(value)
                && Math.abs(value) < 1e21;
        assertTrue(
            whole ? !(written instanceof Double) : written instanceof Double,
            number + " read as " + written);
        if (number instanceof Float) {
          assertEquals((Float) number, ((Number) written).floatValue(), text);
        } else {
          assertEquals(value, ((Number) written).doubleValue(), text);
        }
      }
      if (extra == deep) {
        assertEquals("2024-05-01T12:00:00Z", ((Map<?, ?>) at).get("time"), text);
      }
      for (String line : text.split("\n")) {
        String value = line.substring(line.indexOf(line.strip().startsWith("- ") ? '-' : ':') + 1);
        value = value.strip();
        if (value.matches("[-+]?[0-9.]+[eE][-+]?[0-9]+")) {
          assertTrue(yaml11Float.matcher(value).matches(), value + " in\n" + text);
        }
      }
    }
  }

  /** The text read by SnakeYAML's own loader (YAML 1.1 resolver), as a JSON tree. */
  private static JsonNode yaml11(String text) {
    return new ObjectMapper().valueToTree(yaml11Loader().load(text));
  }

  /** SnakeYAML's loader with its default (YAML 1.1) resolver, allowed to nest as deep as needed. */
  private static org.yaml.snakeyaml.Yaml yaml11Loader() {
    org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
    options.setNestingDepthLimit(1000);
    return new org.yaml.snakeyaml.Yaml(options);
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
