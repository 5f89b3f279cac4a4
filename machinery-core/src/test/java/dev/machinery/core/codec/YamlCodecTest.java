package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentSpec;
import dev.machinery.core.testapi.core.Service;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YamlCodecTest {
  private static final Codec YAML = CodecFactory.create(TestApi.scheme()).yaml();

  private static Deployment deployment(String yaml) {
    return (Deployment) YAML.decode(yaml).object();
  }

  @Test
  void decodesAManifest() {
    Deployment d =
        deployment(
            "apiVersion: apps/v1\n"
                + "kind: Deployment\n"
                + "metadata:\n"
                + "  name: web\n"
                + "  labels: {app: web, tier: \"front\"}\n"
                + "spec:\n"
                + "  replicas: 3\n"
                + "  strategy: RollingUpdate\n"
                + "  containers:\n"
                + "  - name: nginx\n"
                + "    image: nginx:1.25\n"
                + "    ports: [80, 0x1BB]\n");
    assertEquals("web", d.getMetadata().getName());
    assertEquals(Map.of("app", "web", "tier", "front"), d.getMetadata().getLabels());
    assertEquals(3, d.getSpec().replicas());
    assertEquals(DeploymentSpec.Strategy.RollingUpdate, d.getSpec().strategy());
    assertEquals(List.of(80, 443), d.getSpec().containers().get(0).ports());
    assertEquals("apps/v1", d.getApiVersion());
  }

  @Test
  void keepsPlainScalarsAsWrittenInStringFields() {
    Deployment d =
        deployment(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: 007}\n"
                + "spec: {version: 1.10}\n");
    assertEquals("1.10", d.getSpec().version());
    assertEquals("007", d.getMetadata().getName());
    assertEquals(
        "true",
        deployment("apiVersion: apps/v1\nkind: Deployment\nspec: {version: true}\n")
            .getSpec()
            .version());
    assertEquals(
        "0x1F",
        deployment("apiVersion: apps/v1\nkind: Deployment\nspec: {version: 0x1F}\n")
            .getSpec()
            .version());
  }

  @Test
  void resolvesPlainScalarsByTheYaml12CoreSchema() {
    Map<String, Object> extra =
        deployment(
                "apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra:\n"
                    + "    yes: yes\n    on: on\n    t: True\n    n: ~\n    e:\n    i: -12\n"
                    + "    o: 0o17\n    h: 0xff\n    f: 1.10\n    x: 1e3\n    s: 1.2.3\n"
                    + "    q: \"12\"\n    big: 123456789012345678901234567890\n    oct: 0777\n")
            .getSpec()
            .extra();
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("yes", "yes");
    expected.put("on", "on");
    expected.put("t", true);
    expected.put("n", null);
    expected.put("e", null);
    expected.put("i", -12);
    expected.put("o", 15);
    expected.put("h", 255);
    expected.put("f", 1.1);
    expected.put("x", 1000.0);
    expected.put("s", "1.2.3");
    expected.put("q", "12");
    expected.put("big", new java.math.BigInteger("123456789012345678901234567890"));
    expected.put("oct", 777);
    assertEquals(expected, extra);
  }

  @Test
  void rejectsYaml11BooleansInBooleanFields() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> YAML.decode("apiVersion: apps/v1\nkind: Deployment\nspec: {paused: yes}\n"));
    assertEquals(
        "field \"spec.paused\": expected a boolean, found string \"yes\" (line 3, column 16)",
        e.getMessage());
  }

  @Test
  void refusesQuotedNumbersInIntegerFields() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> YAML.decode("apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: \"3\"\n"));
    assertEquals(
        "field \"spec.replicas\": expected an integer (integer), found string \"3\" (line 4,"
            + " column 13)",
        e.getMessage());
    assertEquals(4, e.line());
  }

  @Test
  void rejectsInfinityAndNaNInNumberFields() {
    for (String value : List.of(".inf", "-.Inf", ".nan", "1e400")) {
      DecodeException e =
          assertThrows(
              DecodeException.class,
              () ->
                  YAML.decode(
                      "apiVersion: apps/v1\nkind: Deployment\nspec: {ratio: " + value + "}\n"));
      assertTrue(
          e.getMessage().startsWith("field \"spec.ratio\": expected a finite number"),
          e.getMessage());
    }
    assertEquals(
        ".inf",
        deployment("apiVersion: apps/v1\nkind: Deployment\nspec: {version: .inf}\n")
            .getSpec()
            .version());
  }

  @Test
  void decodesEveryDocumentOfAStreamAndSkipsEmptyOnes() {
    List<Decoded<Object>> all =
        YAML.decodeAll(
            "---\n# nothing here\n---\napiVersion: apps/v1\nkind: Deployment\n---\n---\n"
                + "apiVersion: v1\nkind: Service\nport: 80\n...\n---\n");
    assertEquals(2, all.size());
    assertInstanceOf(Deployment.class, all.get(0).object());
    assertEquals(80, ((Service) all.get(1).object()).getPort());
  }

  @Test
  void refusesToReadOnlyTheFirstDocument() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                YAML.decode("apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: Service\n"));
    assertEquals(
        "the YAML stream holds 2 documents where one was expected; use decodeAll to read them all",
        e.getMessage());
    assertEquals(
        "the YAML stream holds no document",
        assertThrows(DecodeException.class, () -> YAML.decode("---\n---\n")).getMessage());
  }

  @Test
  void namesTheDocumentThatFailed() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                YAML.decodeAll(
                    "apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: Service\nport: x\n"));
    assertEquals(
        "document 2 of 2: field \"port\": expected an integer (int), found string \"x\" (line 6,"
            + " column 7)",
        e.getMessage());
  }

  @Test
  void anUnknownKindInAStreamIsADecodeExceptionNamingTheDocumentIssue11() {
    UnknownKindException e =
        assertThrows(
            UnknownKindException.class,
            () ->
                YAML.decodeAll(
                    "apiVersion: v1\nkind: Service\n---\napiVersion: apps/v1\nkind: Deploymnet\n"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "document 2 of 2: no kind \"Deploymnet\" is registered for version \"apps/v1\""),
        e.getMessage());
    assertEquals(2, e.document());
    assertEquals("Deploymnet", e.kind().kind());
  }

  @Test
  void aFailureInAStreamKeepsItsTypeIssue11() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                YAML.decodeAll(
                    "apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: Service\nbogus: 1\n"));
    assertEquals("document 2 of 2: strict decoding error: unknown field \"bogus\"", e.getMessage());
    assertEquals(2, e.document());
    assertEquals(List.of("bogus"), e.problems().stream().map(FieldProblem::path).toList());
  }

  @Test
  void aBadEnumValueNamesTheFieldTheValueAndTheLineIssue11() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                YAML.decode("apiVersion: apps/v1\nkind: Deployment\nspec:\n  strategy: Rolling\n"));
    assertEquals(
        "field \"spec.strategy\": invalid value string \"Rolling\": not one of the values accepted"
            + " for Enum class: [RollingUpdate, Recreate] (line 4, column 13)",
        e.getMessage());
  }

  @Test
  void expandsAliases() {
    Deployment d =
        deployment(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels: &labels {app: web}\n"
                + "spec:\n  extra: {copy: *labels, name: &n hello, again: *n}\n");
    assertEquals(Map.of("app", "web"), d.getMetadata().getLabels());
    assertEquals(Map.of("app", "web"), d.getSpec().extra().get("copy"));
    assertEquals("hello", d.getSpec().extra().get("again"));
  }

  @Test
  void expandsMergeKeys() {
    Deployment d =
        deployment(
            "apiVersion: apps/v1\nkind: Deployment\n"
                + "spec:\n  extra:\n"
                + "    base: &base {a: 1, b: 2}\n"
                + "    more: &more {b: 20, c: 30}\n"
                + "    one:\n      <<: *base\n      b: 3\n"
                + "    two:\n      <<: [*more, *base]\n      d: 4\n");
    Map<String, Object> extra = d.getSpec().extra();
    assertEquals(Map.of("a", 1, "b", 3), extra.get("one"));
    assertEquals(Map.of("a", 1, "b", 20, "c", 30, "d", 4), extra.get("two"));
  }

  @Test
  void keepsAQuotedMergeKeyAsAnOrdinaryKey() {
    Deployment d =
        deployment("apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra: {\"<<\": 1}\n");
    assertEquals(Map.of("<<", 1), d.getSpec().extra());
  }

  @Test
  void rejectsMergeKeysWithoutMappings() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> YAML.decode("apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra: {<<: 1}\n"));
    assertEquals(
        "invalid YAML at line 4, column 15: the merge key \"<<\" at \"spec.extra.<<\" must be"
            + " given a mapping or a sequence of mappings",
        e.getMessage());
  }

  @Test
  void rejectsUndefinedAliases() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                YAML.decode("apiVersion: apps/v1\nkind: Deployment\nspec: {version: *nowhere}\n"));
    assertEquals(
        "invalid YAML at line 3, column 17: the alias *nowhere refers to no anchor defined before"
            + " it",
        e.getMessage());
    assertEquals("spec.version", e.fieldPath());
  }

  @Test
  void rejectsRecursiveAliases() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                YAML.decode(
                    "apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra: &a {self: *a}\n"));
    assertEquals(
        "invalid YAML at line 4, column 20: the alias *a refers to a node that contains it (a"
            + " cycle)",
        e.getMessage());
    assertThrows(DecodeException.class, () -> YAML.decode("&a [*a]"));
  }

  @Test
  void stopsBillionLaughsWithinTheBudget() {
    StringBuilder yaml =
        new StringBuilder("apiVersion: apps/v1\nkind: Deployment\nspec:\n  extra:\n");
    yaml.append("    a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i < 10; i++) {
      yaml.append("    a").append(i).append(": &a").append(i).append(" [");
      for (int k = 0; k < 10; k++) {
        yaml.append(k == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      yaml.append("]\n");
    }
    long started = System.nanoTime();
    LimitExceededException e =
        assertThrows(LimitExceededException.class, () -> YAML.decode(yaml.toString()));
    assertEquals("maxYamlAliasNodes", e.limit());
    assertEquals(10_000, e.maximum());
    assertTrue(
        e.getMessage().startsWith("YAML aliases expand to more than 10000 nodes (line "),
        e.getMessage());
    assertTrue(System.nanoTime() - started < 5_000_000_000L, "must fail fast, not expand");
  }

  @Test
  void reportsDuplicateKeysWithTheirPaths() {
    String yaml =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  name: b\n"
            + "spec:\n  replicas: 1\n  bogus: 2\n  containers:\n  - {name: x, name: y}\n";
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> YAML.decode(yaml));
    assertEquals(
        "strict decoding error: unknown field \"spec.bogus\", duplicate field \"metadata.name\","
            + " duplicate field \"spec.containers[0].name\"",
        e.getMessage());
    Decoded<Object> warned = YAML.withFieldValidation(FieldValidation.WARN).decode(yaml);
    assertEquals(3, warned.warnings().size());
    assertEquals("b", ((Deployment) warned.object()).getMetadata().getName());
    assertEquals(
        List.of(), YAML.withFieldValidation(FieldValidation.IGNORE).decode(yaml).warnings());
  }

  @Test
  void rejectsDuplicateTypeFieldsInEveryMode() {
    for (FieldValidation mode : FieldValidation.values()) {
      DecodeException e =
          assertThrows(
              DecodeException.class,
              () ->
                  YAML.withFieldValidation(mode)
                      .decode("apiVersion: apps/v1\nkind: Deployment\nkind: Service\n"));
      assertEquals(
          "duplicate field \"kind\": a document names its apiVersion and kind once",
          e.getMessage());
    }
  }

  @Test
  void rejectsDocumentsThatAreNotMappings() {
    assertEquals(
        "expected a YAML mapping at line 1, found a sequence",
        assertThrows(DecodeException.class, () -> YAML.decode("- a\n- b\n")).getMessage());
    assertEquals(
        "field \"kind\" must be a string, found a mapping",
        assertThrows(DecodeException.class, () -> YAML.decode("apiVersion: v1\nkind: {a: 1}\n"))
            .getMessage());
    assertThrows(MissingKindException.class, () -> YAML.decode("apiVersion: v1\n"));
  }

  @Test
  void rejectsMalformedYamlWithItsPosition() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> YAML.decode("apiVersion: v1\nkind: Service\nport: [1, 2\n"));
    assertTrue(e.getMessage().startsWith("invalid YAML at line 4, column 1: "), e.getMessage());
    assertEquals(4, e.line());
  }

  @Test
  void aDocumentMarkerAfterTheFirstLineIsNeverPartOfAKey() {
    assertEquals(
        "invalid YAML at line 3, column 9: mapping values are not allowed here",
        assertThrows(
                DecodeException.class,
                () -> YAML.decode("apiVersion: v1\nkind: Service\n--- port: 2\n"))
            .getMessage());
    assertEquals(
        "invalid YAML at line 3, column 5: expected '<document start>', but found '<scalar>'",
        assertThrows(
                DecodeException.class,
                () -> YAML.decode("apiVersion: v1\nkind: Service\n... port: 2\n"))
            .getMessage());
    List<Decoded<Object>> two =
        YAML.decodeAll("apiVersion: v1\nkind: Service\n--- \napiVersion: v1\nkind: Service\n");
    assertEquals(2, two.size());
  }

  @Test
  void anEscapeBeyondTheIntRangeIsADecodeExceptionWithItsPosition() {
    for (String hex : List.of("80000000", "FFFFFFFF", "7FFFFFFF", "00110000")) {
      DecodeException e =
          assertThrows(
              DecodeException.class,
              () -> YAML.decode("apiVersion: v1\nkind: Service\nname: \"\\U" + hex + "\"\n"),
              hex);
      assertEquals(
          "invalid YAML at line 3, column 10: found unknown escape character " + hex,
          e.getMessage());
      assertEquals(3, e.line());
      assertEquals(10, e.column());
    }
    assertEquals(
        "invalid YAML at line 3, column 11: found unknown escape character 80000000",
        assertThrows(
                DecodeException.class,
                () -> YAML.decode("apiVersion: v1\nkind: Service\nlist: [\"\\U80000000\"]\n"))
            .getMessage());
  }

  @Test
  void rejectsUnsupportedTagsAndComplexKeys() {
    assertEquals(
        "invalid YAML at line 3, column 7: unsupported YAML tag \"!custom\"",
        assertThrows(
                DecodeException.class,
                () -> YAML.decode("apiVersion: v1\nkind: Service\nport: !custom 80\n"))
            .getMessage());
    assertThrows(
        DecodeException.class, () -> YAML.decode("apiVersion: v1\nkind: Service\n? [a]\n: b\n"));
    assertEquals(
        80,
        ((Service) YAML.decode("apiVersion: v1\nkind: Service\nport: !!int 80\n").object())
            .getPort());
    assertThrows(
        DecodeException.class,
        () -> YAML.decode("apiVersion: v1\nkind: Service\nport: !!int eighty\n"));
  }

  @Test
  void enforcesTheYamlLimits() {
    CodecLimits tight =
        CodecLimits.DEFAULTS.withMaxYamlBytes(64).withMaxNestingDepth(4).withMaxStringLength(12);
    Codec codec = CodecFactory.create(TestApi.scheme(), tight).yaml();
    assertEquals(
        "maxYamlBytes",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode("apiVersion: v1\nkind: Service\n# " + "x".repeat(64)))
            .limit());
    assertEquals(
        "maxNestingDepth",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode("apiVersion: v1\nkind: Service\na: [[[[[1]]]]]\n"))
            .limit());
    assertEquals(
        "maxStringLength",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode("apiVersion: v1\nkind: Service\na: xxxxxxxxxxxxx\n"))
            .limit());
  }

  @Test
  void survivesDeepNestingWithATypedError() {
    String deep = "a: " + "[".repeat(50_000) + "]".repeat(50_000) + "\n";
    LimitExceededException e =
        assertThrows(
            LimitExceededException.class,
            () -> YAML.decode("apiVersion: v1\nkind: Service\n" + deep));
    assertEquals("maxNestingDepth", e.limit());
  }

  @Test
  void rejectsInvalidUtf8() {
    byte[] bytes = "apiVersion: v1\nkind: Service\n".getBytes(StandardCharsets.UTF_8);
    bytes[3] = (byte) 0xC0;
    assertThrows(DecodeException.class, () -> YAML.decode(bytes));
  }

  @Test
  void encodesYamlWithTypeFieldsFirstAndReadsItBack() {
    Deployment d = new Deployment();
    d.setMetadata(new Meta("web"));
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("version", "1.10");
    extra.put("flag", "yes");
    extra.put("octal", "0o17");
    extra.put("multi", "line one\nline two\n");
    d.setSpec(new DeploymentSpec(3, false, 0.5, "1.10", null, null, extra));
    String yaml = YAML.encodeToString(d);
    assertTrue(
        yaml.startsWith("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"), yaml);
    Deployment back = (Deployment) YAML.decode(yaml).object();
    assertEquals(d.getSpec(), back.getSpec());
    assertEquals(d.getMetadata(), back.getMetadata());
  }

  @Test
  void rejectsAYamlStreamOverTheDefaultLimitBeforeReadingIt() {
    String big = "apiVersion: v1\nkind: Service\nx: " + "y".repeat(3 * 1024 * 1024) + "\n";
    LimitExceededException e = assertThrows(LimitExceededException.class, () -> YAML.decode(big));
    assertEquals("maxYamlBytes", e.limit());
    assertEquals(3 * 1024 * 1024, e.maximum());
    assertEquals("the body is larger than the limit of 3145728 bytes for YAML", e.getMessage());
  }

  @Test
  void aLargeBundleOfDocumentsDecodesWithTheDefaultsIssue12() {
    // As kubectl apply -f sends a bundle such as cert-manager's: about 1 MB in hundreds of
    // documents; the document limit applies to each document, not to the stream.
    StringBuilder bundle = new StringBuilder();
    String padding = "p".repeat(3000);
    for (int i = 0; i < 400; i++) {
      bundle
          .append("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d")
          .append(i)
          .append("}\nspec:\n  extra: {note: ")
          .append(padding)
          .append("}\n");
    }
    assertTrue(bundle.length() > 1_200_000, "the bundle is " + bundle.length() + " bytes");
    assertEquals(400, YAML.decodeAll(bundle.toString()).size());
  }

  @Test
  void oneDocumentOverTheDocumentLimitIsRejectedAndNamedIssue12() {
    String stream =
        "apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: Service\nx: "
            + "y".repeat(600 * 1024)
            + "\n";
    LimitExceededException e =
        assertThrows(LimitExceededException.class, () -> YAML.decodeAll(stream));
    assertEquals("maxYamlDocumentBytes", e.limit());
    assertEquals(512 * 1024, e.maximum());
  }

  @Test
  void theDocumentLimitCountsBytesAndStopsADocumentBeforeItIsParsed() {
    // One scalar of almost 3 MiB: within the stream limit, refused by the document limit before
    // any parsing, not after SnakeYAML has scanned it and maxStringLength finally stops it.
    String big = "apiVersion: v1\nkind: Service\nx: " + "y".repeat(3 * 1024 * 1024 - 100) + "\n";
    LimitExceededException e = assertThrows(LimitExceededException.class, () -> YAML.decode(big));
    assertEquals("maxYamlDocumentBytes", e.limit());
    assertEquals(512 * 1024, e.maximum());
    assertEquals(
        "the YAML document starting at line 1 is larger than the limit of 524288 bytes for one"
            + " document (maxYamlDocumentBytes)",
        e.getMessage());
    // Bytes, not characters: 300,000 two-byte characters are 600,000 bytes.
    String wide = "apiVersion: v1\nkind: Service\nx: " + "\u00e9".repeat(300_000) + "\n";
    assertEquals(
        "the YAML document starting at line 1 is larger than the limit of 524288 bytes for one"
            + " document (maxYamlDocumentBytes)",
        assertThrows(LimitExceededException.class, () -> YAML.decode(wide)).getMessage());
    // Before parsing: a syntax error at the start of an oversized document is not reached.
    String broken = "a: b: c\n---\nkind: [\n" + "# comment\n".repeat(60_000);
    assertEquals(
        "the YAML document starting at line 2 is larger than the limit of 524288 bytes for one"
            + " document (maxYamlDocumentBytes)",
        assertThrows(LimitExceededException.class, () -> YAML.decodeAll(broken)).getMessage());
    // Exactly at the limit is allowed: a document of 524,288 bytes.
    String header = "apiVersion: v1\nkind: Service\nx: ";
    String exact = header + "y".repeat(512 * 1024 - header.length() - 1) + "\n";
    assertEquals(512 * 1024, exact.getBytes(StandardCharsets.UTF_8).length);
    CodecFactory.create(TestApi.scheme(), CodecLimits.DEFAULTS.withMaxStringLength(1024 * 1024))
        .yaml()
        .withFieldValidation(FieldValidation.IGNORE)
        .decode(exact);
  }

  @Test
  void enforcesNameLengthAndNodeCountInYaml() {
    Codec codec =
        CodecFactory.create(
                TestApi.scheme(), CodecLimits.DEFAULTS.withMaxNameLength(12).withMaxTokenCount(30))
            .yaml();
    assertEquals(
        "maxNameLength",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode("apiVersion: v1\nkind: Service\naVeryLongFieldName: 1\n"))
            .limit());
    assertEquals(
        "maxTokenCount",
        assertThrows(
                LimitExceededException.class,
                () ->
                    codec.decode(
                        "apiVersion: v1\nkind: Service\nport: [" + "1, ".repeat(40) + "1]\n"))
            .limit());
  }

  @Test
  void decodesAStreamFromAnInputStream() {
    List<Decoded<Object>> all =
        YAML.decodeAll(
            new java.io.ByteArrayInputStream(
                "apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: Service\nport: 8\n"
                    .getBytes(StandardCharsets.UTF_8)));
    assertEquals(8, ((Service) all.get(1).object()).getPort());
  }

  @Test
  void oneYamlCodecServesManyThreads() throws Exception {
    String yaml =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: &l {a: b}}\n"
            + "spec: {replicas: 2, extra: {copy: *l}}\n";
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(6);
    try {
      List<java.util.concurrent.Callable<Integer>> tasks = new java.util.ArrayList<>();
      for (int t = 0; t < 6; t++) {
        tasks.add(
            () -> {
              for (int i = 0; i < 500; i++) {
                Deployment d = (Deployment) YAML.decode(yaml).object();
                assertEquals(Map.of("a", "b"), d.getSpec().extra().get("copy"));
              }
              return 500;
            });
      }
      for (java.util.concurrent.Future<Integer> done : pool.invokeAll(tasks)) {
        assertEquals(500, done.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void boundsTheReportOfManyDuplicateKeys() {
    String yaml = "apiVersion: v1\nkind: Service\n" + "port: 1\n".repeat(5_000);
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> YAML.decode(yaml));
    assertEquals(100, e.problems().size());
    assertEquals(4_899, e.omittedCount());
  }

  @Test
  void readsJsonAsYaml() {
    Deployment d =
        deployment(
            "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\","
                + " \"spec\": {\"replicas\": 2, \"version\": \"1.10\"}}");
    assertEquals(2, d.getSpec().replicas());
    assertEquals("1.10", d.getSpec().version());
  }

  @Test
  void decodesIntoAnExpectedTypeFromTextAndStreams() {
    String yaml = "apiVersion: v1\nkind: Service\nport: 9\n";
    assertEquals(9, YAML.decode(yaml, Service.class).object().getPort());
    assertEquals(
        9,
        YAML.decode(
                new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                Service.class)
            .object()
            .getPort());
    assertThrows(DecodeException.class, () -> YAML.decode(yaml, Deployment.class));
  }
}
