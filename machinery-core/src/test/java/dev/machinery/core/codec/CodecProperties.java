package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.support.Seeds;
import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CodecProperties {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());
  private static final String[] TRICKY = {
    "",
    " ",
    "1.10",
    "007",
    "0o17",
    "0x1F",
    "1e3",
    ".5",
    "+1",
    "-0",
    ".inf",
    "-.Inf",
    ".nan",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "true",
    "False",
    "NULL",
    "~",
    "null",
    "<<",
    "-",
    "- a",
    "a: b",
    "#x",
    "x #y",
    "'",
    "\"",
    "\\",
    "&a",
    "*a",
    "!tag",
    "|",
    ">",
    "[",
    "]",
    "{",
    "}",
    ",",
    "%",
    "@",
    "`",
    "?",
    ":",
    "a\nb",
    "trailing\n",
    " lead",
    "tail ",
    "\t",
    "caf\u00e9",
    "\u20ac",
    "\ud83d\ude80",
    "\u00a0",
    "\u2028",
    "1_000",
    "1:20",
    "2024-03-18T09:15:42Z",
    "=",
    "---",
    "..."
  };

  static String string(SplittableRandom r) {
    if (r.nextInt(3) == 0) {
      return TRICKY[r.nextInt(TRICKY.length)];
    }
    int n = r.nextInt(12);
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(
          r.nextInt(4) == 0
              ? TRICKY[r.nextInt(TRICKY.length)]
              : String.valueOf((char) (' ' + r.nextInt(95))));
    }
    return b.toString();
  }

  static Object untyped(SplittableRandom r, int depth) {
    switch (r.nextInt(depth > 2 ? 5 : 7)) {
      case 0:
        return string(r);
      case 1:
        return r.nextLong();
      case 2:
        return r.nextBoolean();
      case 3:
        // Never a whole number: that is written as an integer, as Go writes a float64, and an
        // untyped value reads it back as one (JsonCodecTest).
        return r.nextInt(4) == 0 ? null : (8 * r.nextInt(125) + 1 + r.nextInt(7)) / 8.0;
      case 4:
        return string(r);
      case 5:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          int n = r.nextInt(4);
          for (int i = 0; i < n; i++) {
            map.put(string(r), untyped(r, depth + 1));
          }
          return map;
        }
      default:
        {
          List<Object> list = new ArrayList<>();
          int n = r.nextInt(4);
          for (int i = 0; i < n; i++) {
            list.add(untyped(r, depth + 1));
          }
          return list;
        }
    }
  }

  static Deployment deployment(SplittableRandom r) {
    Deployment d = new Deployment();
    Meta meta = new Meta(string(r));
    meta.setNamespace(r.nextBoolean() ? null : string(r));
    meta.setGeneration(r.nextBoolean() ? null : r.nextLong());
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      labels.put(string(r), string(r));
    }
    meta.setLabels(labels);
    d.setMetadata(meta);
    List<DeploymentSpec.Container> containers = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      containers.add(
          new DeploymentSpec.Container(
              string(r),
              r.nextBoolean() ? null : string(r),
              List.of(r.nextInt(), r.nextInt(65536))));
    }
    Map<String, Object> extra = new LinkedHashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      extra.put(string(r), untyped(r, 0));
    }
    d.setSpec(
        new DeploymentSpec(
            r.nextBoolean() ? null : r.nextInt(),
            r.nextBoolean(),
            r.nextBoolean() ? null : r.nextDouble() * Math.pow(10, r.nextInt(40) - 20),
            string(r),
            r.nextBoolean() ? null : DeploymentSpec.Strategy.values()[r.nextInt(2)],
            containers,
            extra));
    return d;
  }

  private static void assertRoundTrip(Codec codec, Deployment d) {
    byte[] encoded = codec.encode(d);
    Object back = codec.decode(encoded).object();
    d.setApiVersion("apps/v1");
    d.setKind("Deployment");
    assertEquals(d, back, () -> new String(encoded, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(
        new String(encoded, java.nio.charset.StandardCharsets.UTF_8), codec.encodeToString(back));
  }

  @Test
  void jsonDecodeOfEncodeIsTheIdentity() {
    Seeds.forEach(500, r -> assertRoundTrip(CODECS.json(), deployment(r)));
  }

  @Test
  void prettyJsonDecodeOfEncodeIsTheIdentity() {
    Seeds.forEach(200, r -> assertRoundTrip(CODECS.json().pretty(), deployment(r)));
  }

  @Test
  void yamlDecodeOfEncodeIsTheIdentity() {
    Seeds.forEach(500, r -> assertRoundTrip(CODECS.yaml(), deployment(r)));
  }

  @Test
  void jsonAndYamlAgree() {
    Seeds.forEach(
        200,
        r -> {
          Deployment d = deployment(r);
          Object viaYaml = CODECS.yaml().decode(CODECS.yaml().encode(d)).object();
          assertEquals(CODECS.json().encodeToString(d), CODECS.json().encodeToString(viaYaml));
        });
  }

  @Test
  void typeFieldsMayComeAnywhere() {
    Seeds.forEach(
        200,
        r -> {
          Deployment d = deployment(r);
          String json = CODECS.json().encodeToString(d);
          // Move apiVersion and kind to the end of the object.
          String head = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",";
          String moved =
              "{"
                  + json.substring(head.length(), json.length() - 1)
                  + ",\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"}";
          d.setApiVersion("apps/v1");
          d.setKind("Deployment");
          assertEquals(d, CODECS.json().decode(moved).object());
        });
  }

  @Test
  void oneCodecServesManyThreads() throws Exception {
    List<Deployment> samples = new ArrayList<>();
    List<byte[]> encoded = new ArrayList<>();
    Seeds.forEach(
        50,
        r -> {
          Deployment d = deployment(r);
          encoded.add(CODECS.json().encode(d));
          d.setApiVersion("apps/v1");
          d.setKind("Deployment");
          samples.add(d);
        });
    Codec json = CODECS.json().withFieldValidation(FieldValidation.WARN);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t;
        tasks.add(
            () -> {
              int ok = 0;
              for (int i = 0; i < 2_000; i++) {
                int k = (i + offset) % samples.size();
                Decoded<Object> decoded = json.decode(encoded.get(k));
                assertEquals(samples.get(k), decoded.object());
                assertEquals(List.of(), decoded.warnings());
                ok++;
              }
              return ok;
            });
      }
      for (Future<Integer> done : pool.invokeAll(tasks)) {
        assertEquals(2_000, done.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
