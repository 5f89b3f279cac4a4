package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.NotRegisteredException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentSpec;
import dev.machinery.core.testapi.core.Service;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());
  private static final Codec JSON = CODECS.json();
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");

  private static String doc(String body) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\""
        + (body.isEmpty() ? "" : "," + body)
        + "}";
  }

  @Test
  void decodesWithKindFirst() {
    Decoded<Object> decoded =
        JSON.decode(doc("\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":3}"));
    Deployment d = assertInstanceOf(Deployment.class, decoded.object());
    assertEquals(DEPLOYMENT, decoded.kind());
    assertEquals("web", d.getMetadata().getName());
    assertEquals(3, d.getSpec().replicas());
    assertEquals("apps/v1", d.getApiVersion());
    assertEquals("Deployment", d.getKind());
    assertEquals(List.of(), decoded.warnings());
  }

  @Test
  void decodesWithKindLast() {
    Deployment d =
        (Deployment)
            JSON.decode(
                    "{\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":3,\"containers\":"
                        + "[{\"name\":\"a\",\"ports\":[80]}]},\"kind\":\"Deployment\","
                        + "\"apiVersion\":\"apps/v1\"}")
                .object();
    assertEquals("web", d.getMetadata().getName());
    assertEquals(List.of(80), d.getSpec().containers().get(0).ports());
    assertEquals("Deployment", d.getKind());
  }

  @Test
  void decodesWithKindInTheMiddle() {
    Deployment d =
        (Deployment)
            JSON.decode(
                    "{\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"web\"},"
                        + "\"kind\":\"Deployment\",\"spec\":{\"replicas\":2}}")
                .object();
    assertEquals("web", d.getMetadata().getName());
    assertEquals(2, d.getSpec().replicas());
  }

  @Test
  void decodesDocumentWithOnlyTypeFields() {
    Deployment d = (Deployment) JSON.decode(doc("")).object();
    assertNull(d.getSpec());
    assertEquals("apps/v1", d.getApiVersion());
  }

  @Test
  void decodesTheLegacyCoreGroupAndUnversionedKinds() {
    Service s =
        (Service) JSON.decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":80}").object();
    assertEquals(80, s.getPort());
    Decoded<Object> status =
        JSON.decode("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"code\":404}");
    assertEquals(GroupVersionKind.of("", "v1", "Status"), status.kind());
  }

  @Test
  void decodesIntoAnExpectedType() {
    Decoded<Deployment> d = JSON.decode(doc("").getBytes(StandardCharsets.UTF_8), Deployment.class);
    assertEquals("Deployment", d.object().getKind());
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                JSON.decode(
                    "{\"apiVersion\":\"v1\",\"kind\":\"Service\"}".getBytes(StandardCharsets.UTF_8),
                    Deployment.class));
    assertEquals(
        "the document is \"/v1, Kind=Service\", which decodes to"
            + " dev.machinery.core.testapi.core.Service, not the expected"
            + " dev.machinery.core.testapi.apps.Deployment",
        e.getMessage());
  }

  @Test
  void reportsEveryUnknownFieldWithItsPathInStrictMode() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    doc(
                        "\"metadata\":{\"name\":\"web\",\"nmae\":\"x\"},\"spec\":{\"replicas\":1,"
                            + "\"containers\":[{\"name\":\"a\"},{\"name\":\"b\",\"imagee\":{\"x\":[1]}}]},"
                            + "\"extra\":true")));
    assertEquals(
        "strict decoding error: unknown field \"metadata.nmae\", unknown field"
            + " \"spec.containers[1].imagee\", unknown field \"extra\"",
        e.getMessage());
    assertEquals(3, e.problems().size());
    assertEquals("metadata.nmae", e.fieldPath());
  }

  @Test
  void reportsEveryDuplicateFieldWithItsPath() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    doc(
                        "\"metadata\":{\"name\":\"a\",\"name\":\"b\",\"labels\":{\"x\":\"1\",\"x\":\"2\"}},"
                            + "\"spec\":{\"replicas\":1,\"replicas\":2,\"bogus\":0}")));
    assertEquals(
        "strict decoding error: unknown field \"spec.bogus\", duplicate field \"metadata.name\","
            + " duplicate field \"metadata.labels.x\", duplicate field \"spec.replicas\"",
        e.getMessage());
  }

  @Test
  void handsBackWarningsInWarnMode() {
    Decoded<Object> decoded =
        JSON.withFieldValidation(FieldValidation.WARN)
            .decode(doc("\"spec\":{\"replicas\":1,\"replicas\":2,\"bogus\":0}"));
    assertEquals(2, ((Deployment) decoded.object()).getSpec().replicas());
    assertEquals(
        List.of(
            new FieldProblem(FieldProblem.Type.UNKNOWN_FIELD, "spec.bogus"),
            new FieldProblem(FieldProblem.Type.DUPLICATE_FIELD, "spec.replicas")),
        decoded.warnings());
    assertEquals("unknown field \"spec.bogus\"", decoded.warnings().get(0).toString());
  }

  @Test
  void dropsUnknownFieldsSilentlyInIgnoreMode() {
    Decoded<Object> decoded =
        JSON.withFieldValidation(FieldValidation.IGNORE)
            .decode(doc("\"spec\":{\"replicas\":1,\"replicas\":2,\"bogus\":{\"a\":[1,2]}}"));
    assertEquals(2, ((Deployment) decoded.object()).getSpec().replicas());
    assertEquals(List.of(), decoded.warnings());
  }

  @Test
  void rejectsDuplicateTypeFieldsInEveryMode() {
    for (FieldValidation mode : FieldValidation.values()) {
      Codec codec = JSON.withFieldValidation(mode);
      DecodeException first =
          assertThrows(
              DecodeException.class,
              () ->
                  codec.decode(
                      "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"kind\":\"Service\"}"),
              mode.name());
      assertEquals(
          "duplicate field \"kind\": a document names its apiVersion and kind once",
          first.getMessage(),
          mode.name());
      DecodeException later =
          assertThrows(
              DecodeException.class,
              () -> codec.decode(doc("\"spec\":{},\"apiVersion\":\"v1\"")),
              mode.name());
      assertEquals(
          "duplicate field \"apiVersion\": a document names its apiVersion and kind once",
          later.getMessage(),
          mode.name());
      DecodeException buffered =
          assertThrows(
              DecodeException.class,
              () ->
                  codec.decode(
                      "{\"spec\":{},\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"}"),
              mode.name());
      assertEquals("kind", buffered.fieldPath(), mode.name());
    }
  }

  @Test
  void matchesFieldNamesCaseSensitively() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () -> JSON.decode(doc("\"Kind\":\"Service\",\"Metadata\":{}")));
    assertEquals(
        "strict decoding error: unknown field \"Kind\", unknown field \"Metadata\"",
        e.getMessage());
  }

  @Test
  void doesNotLetAKelvinSignChooseTheType() {
    MissingKindException e =
        assertThrows(
            MissingKindException.class,
            () -> JSON.decode("{\"apiVersion\":\"apps/v1\",\"\\u212aind\":\"Deployment\"}"));
    assertEquals(
        "the document has no kind (apiVersion \"apps/v1\"); every document names its type with"
            + " apiVersion and kind",
        e.getMessage());
  }

  @Test
  void reportsMissingTypeFields() {
    MissingVersionException noVersion =
        assertThrows(MissingVersionException.class, () -> JSON.decode("{\"kind\":\"Deployment\"}"));
    assertEquals(
        "the document of kind \"Deployment\" has no apiVersion; expected \"group/version\", or"
            + " \"v1\" for the core group",
        noVersion.getMessage());
    assertEquals("apiVersion", noVersion.fieldPath());
    assertThrows(MissingKindException.class, () -> JSON.decode("{}"));
    assertThrows(
        MissingKindException.class, () -> JSON.decode("{\"apiVersion\":\"v1\",\"kind\":\"\"}"));
    assertThrows(
        MissingVersionException.class,
        () -> JSON.decode("{\"apiVersion\":\"apps/\",\"kind\":\"Deployment\"}"));
  }

  @Test
  void anApiVersionWithAGroupButNoVersionSaysSo() {
    MissingVersionException e =
        assertThrows(
            MissingVersionException.class,
            () -> JSON.decode("{\"apiVersion\":\"apps/\",\"kind\":\"Deployment\"}"));
    assertEquals("the apiVersion \"apps/\" names a group but no version", e.getMessage());
  }

  @Test
  void rejectsTypeFieldsThatAreNotStrings() {
    DecodeException e =
        assertThrows(
            DecodeException.class, () -> JSON.decode("{\"apiVersion\":1,\"kind\":\"Deployment\"}"));
    assertEquals("field \"apiVersion\" must be a string, found number \"1\"", e.getMessage());
    assertEquals(1, e.line());
    assertEquals(15, e.column());
  }

  @Test
  void rejectsMalformedApiVersion() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> JSON.decode("{\"apiVersion\":\"a/b/c\",\"kind\":\"Deployment\"}"));
    assertEquals(
        "invalid apiVersion: unexpected GroupVersion string: a/b/c (expected \"version\" or"
            + " \"group/version\", found more than one '/')",
        e.getMessage());
    assertEquals("apiVersion", e.fieldPath());
  }

  @Test
  void reportsUnregisteredKindsAsADecodeException() {
    // Issue 11, item 8: bad input is a DecodeException, the scheme's exception its cause.
    UnknownKindException e =
        assertThrows(
            UnknownKindException.class,
            () -> JSON.decode("{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\"}"));
    assertTrue(
        e.getMessage().startsWith("no kind \"StatefulSet\" is registered for version \"apps/v1\""));
    assertEquals(GroupVersionKind.of("apps", "v1", "StatefulSet"), e.kind());
    assertEquals("kind", e.fieldPath());
    assertInstanceOf(NotRegisteredException.class, e.getCause());
  }

  @Test
  void rejectsNonObjectBodies() {
    assertEquals(
        "expected a JSON object, found null",
        assertThrows(DecodeException.class, () -> JSON.decode("null")).getMessage());
    assertEquals(
        "the body is empty; expected a JSON object",
        assertThrows(DecodeException.class, () -> JSON.decode("  ")).getMessage());
    assertEquals(
        "expected a JSON object, found an array",
        assertThrows(DecodeException.class, () -> JSON.decode("[]")).getMessage());
  }

  @Test
  void rejectsTrailingData() {
    DecodeException e =
        assertThrows(DecodeException.class, () -> JSON.decode(doc("") + " {\"x\":1}"));
    assertEquals(
        "unexpected data after the JSON object at line 1, column 46: found an object",
        e.getMessage());
  }

  @Test
  void rejectsMalformedJsonWithItsPosition() {
    DecodeException e =
        assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"replicas\":}")));
    assertTrue(
        e.getMessage().startsWith("malformed JSON (line 1, column 64): Unexpected character"),
        e.getMessage());
    assertEquals("spec.replicas", e.fieldPath());
  }

  @Test
  void refusesToCoerceStringsIntoNumbers() {
    DecodeException e =
        assertThrows(
            DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"replicas\":\"3\"}")));
    assertEquals(
        "field \"spec.replicas\": expected an integer (integer), found string \"3\" (line 1,"
            + " column 64)",
        e.getMessage());
    assertEquals("spec.replicas", e.fieldPath());
  }

  @Test
  void refusesToTruncateFloatsIntoIntegers() {
    DecodeException e =
        assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"replicas\":1.5}")));
    assertEquals(
        "field \"spec.replicas\": expected an integer (integer), found number \"1.5\" (line 1,"
            + " column 64)",
        e.getMessage());
  }

  @Test
  void refusesToCoerceNumbersAndBooleansIntoStrings() {
    assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"version\":1.10}")));
    assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"version\":true}")));
    assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"paused\":1}")));
    assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"paused\":\"true\"}")));
  }

  @Test
  void rejectsNumbersOutOfRange() {
    DecodeException huge =
        assertThrows(
            DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"ratio\":1e1000000}")));
    assertEquals(
        "field \"spec.ratio\": expected a finite number in the range of double, found number"
            + " \"1e1000000\" (line 1, column 61)",
        huge.getMessage());
    String digits400 = "9".repeat(400);
    Codec roomy =
        CodecFactory.create(TestApi.scheme(), CodecLimits.DEFAULTS.withMaxNumberLength(1000))
            .json();
    DecodeException longDouble =
        assertThrows(
            DecodeException.class,
            () -> roomy.decode(doc("\"spec\":{\"ratio\":" + digits400 + "}")));
    assertTrue(
        longDouble.getMessage().startsWith("field \"spec.ratio\": expected a finite number"),
        longDouble.getMessage());
    DecodeException longInt =
        assertThrows(
            DecodeException.class,
            () -> roomy.decode(doc("\"spec\":{\"replicas\":" + digits400 + "}")));
    assertEquals("spec.replicas", longInt.fieldPath());
    DecodeException inMap =
        assertThrows(
            DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"extra\":{\"a\":[1e999]}}")));
    assertEquals("spec.extra.a[0]", inMap.fieldPath());
  }

  @Test
  void rejectsNotANumberStrings() {
    for (String text : List.of("NaN", "-Infinity", "Infinity")) {
      DecodeException e =
          assertThrows(
              DecodeException.class,
              () -> JSON.decode(doc("\"spec\":{\"ratio\":\"" + text + "\"}")));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "field \"spec.ratio\": expected a finite number in the range of double, found string \""
                      + text
                      + "\""),
          e.getMessage());
    }
    assertThrows(DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"ratio\":NaN}")));
  }

  @Test
  void keepsUntypedIntegersAndFloatsExact() {
    Deployment d =
        (Deployment)
            JSON.decode(
                    doc(
                        "\"spec\":{\"extra\":{\"i\":1,\"l64\":4294967296,\"big\":123456789012345678901234567890,\"f\":1.5,\"s\":\"x\",\"n\":null,\"l\":[true]}}"))
                .object();
    Map<String, Object> extra = d.getSpec().extra();
    // Integer where the value fits, as plain Jackson reads it (issue 11: fabric8's IntOrString).
    assertEquals(1, extra.get("i"));
    assertEquals(4294967296L, extra.get("l64"));
    assertEquals(new java.math.BigInteger("123456789012345678901234567890"), extra.get("big"));
    assertEquals(1.5, extra.get("f"));
    assertTrue(extra.containsKey("n"));
    assertEquals(List.of(true), extra.get("l"));
  }

  @Test
  void rejectsOverlongUtf8() {
    byte[] bytes = doc("\"metadata\":{\"name\":\"a\u0001b\"}").getBytes(StandardCharsets.UTF_8);
    int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf('\u0001');
    byte[] overlong = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, overlong, 0, at);
    overlong[at] = (byte) 0xC0;
    overlong[at + 1] = (byte) 0x80;
    System.arraycopy(bytes, at + 1, overlong, at + 2, bytes.length - at - 1);
    DecodeException e = assertThrows(DecodeException.class, () -> JSON.decode(overlong));
    assertEquals(
        "the body is not valid UTF-8: found an overlong encoding at byte offset " + at,
        e.getMessage());
  }

  @Test
  void rejectsUtf16AndOtherInvalidUtf8() {
    byte[] utf16 = doc("").getBytes(StandardCharsets.UTF_16BE);
    assertEquals(
        "the body is not valid UTF-8: found a NUL byte at byte offset 0",
        assertThrows(DecodeException.class, () -> JSON.decode(utf16)).getMessage());
    byte[] utf16le = doc("").getBytes(StandardCharsets.UTF_16LE);
    assertThrows(DecodeException.class, () -> JSON.decode(utf16le));
    byte[] withBom = doc("").getBytes(StandardCharsets.UTF_16);
    assertThrows(DecodeException.class, () -> JSON.decode(withBom));
    assertThrows(
        DecodeException.class,
        () -> JSON.decode(new byte[] {'{', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '}'}));
    assertThrows(
        DecodeException.class,
        () ->
            JSON.decode(new byte[] {'{', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '}'}));
    assertThrows(
        DecodeException.class, () -> JSON.decode(new byte[] {'{', (byte) 0xE2, (byte) 0x82}));
  }

  @Test
  void acceptsMultiByteUtf8AndALeadingByteOrderMark() {
    byte[] text =
        doc("\"metadata\":{\"name\":\"caf\u00e9 \u20ac \ud83d\ude80\"}")
            .getBytes(StandardCharsets.UTF_8);
    byte[] bom = new byte[text.length + 3];
    bom[0] = (byte) 0xEF;
    bom[1] = (byte) 0xBB;
    bom[2] = (byte) 0xBF;
    System.arraycopy(text, 0, bom, 3, text.length);
    Deployment d = (Deployment) JSON.decode(bom).object();
    assertEquals("caf\u00e9 \u20ac \ud83d\ude80", d.getMetadata().getName());
  }

  @Test
  void decodesFromAStreamWithinTheLimit() {
    Deployment d =
        (Deployment)
            JSON.decode(new ByteArrayInputStream(doc("").getBytes(StandardCharsets.UTF_8)))
                .object();
    assertEquals("Deployment", d.getKind());
    Codec small =
        CodecFactory.create(TestApi.scheme(), CodecLimits.DEFAULTS.withMaxJsonBytes(20)).json();
    LimitExceededException e =
        assertThrows(
            LimitExceededException.class,
            () -> small.decode(new ByteArrayInputStream(doc("").getBytes(StandardCharsets.UTF_8))));
    assertEquals("maxJsonBytes", e.limit());
    assertEquals("the body is larger than the limit of 20 bytes for JSON", e.getMessage());
  }

  @Test
  void enforcesEveryLimit() {
    CodecLimits tight =
        CodecLimits.DEFAULTS
            .withMaxNestingDepth(5)
            .withMaxStringLength(10)
            .withMaxNumberLength(5)
            .withMaxNameLength(10)
            .withMaxTokenCount(40);
    Codec codec = CodecFactory.create(TestApi.scheme(), tight).json();
    LimitExceededException depth =
        assertThrows(
            LimitExceededException.class,
            () -> codec.decode(doc("\"spec\":{\"extra\":{\"a\":{\"b\":{\"c\":{\"d\":1}}}}}")));
    assertEquals("maxNestingDepth", depth.limit());
    assertEquals(5, depth.maximum());
    assertTrue(
        depth
            .getMessage()
            .startsWith("the document nests deeper than the limit maxNestingDepth (5)"),
        depth.getMessage());
    assertEquals(
        "maxStringLength",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode(doc("\"metadata\":{\"name\":\"" + "x".repeat(11) + "\"}")))
            .limit());
    assertEquals(
        "maxNumberLength",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode(doc("\"spec\":{\"replicas\":123456}")))
            .limit());
    assertEquals(
        "maxNameLength",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode(doc("\"metadata\":{\"" + "n".repeat(11) + "\":1}")))
            .limit());
    assertEquals(
        "maxTokenCount",
        assertThrows(
                LimitExceededException.class,
                () -> codec.decode(doc("\"spec\":{\"extra\":{\"l\":[" + "1,".repeat(40) + "1]}}")))
            .limit());
  }

  @Test
  void survivesDeepNestingWithATypedError() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    LimitExceededException e =
        assertThrows(
            LimitExceededException.class,
            () -> JSON.decode(doc("\"spec\":{\"extra\":{\"a\":" + deep + "}}")));
    assertEquals("maxNestingDepth", e.limit());
  }

  @Test
  void neverEchoesMoreThanABoundedEscapedSliceOfTheInput() {
    String hostile = "\u0007" + "x".repeat(100_000);
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> JSON.decode(doc("\"spec\":{\"replicas\":\"" + hostile + "\"}")));
    assertTrue(e.getMessage().length() < 400, e.getMessage());
    assertTrue(!e.getMessage().contains("\u0007"), e.getMessage());
    DecodeException token =
        assertThrows(
            DecodeException.class, () -> JSON.decode(doc("\"spec\":" + "z".repeat(100_000))));
    assertTrue(token.getMessage().length() < 400, token.getMessage());
  }

  @Test
  void encodesTypeFieldsFirstAndOmitsNulls() {
    Deployment d = new Deployment();
    d.setMetadata(new Meta("web"));
    d.setSpec(
        new DeploymentSpec(2, false, null, null, DeploymentSpec.Strategy.Recreate, null, null));
    assertEquals(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"replicas\":2,\"paused\":false,\"strategy\":\"Recreate\"}}",
        JSON.encodeToString(d));
    assertNull(d.getApiVersion(), "encoding leaves the object unchanged");
  }

  @Test
  void encodesTheKindTheSchemeGivesNotAStaleOne() {
    Deployment d = new Deployment();
    d.setApiVersion("apps/v1beta1");
    d.setKind("Wrong");
    assertEquals("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"}", JSON.encodeToString(d));
  }

  @Test
  void encodesNestedApiObjectsWithTheirOwnTypeFields() {
    dev.machinery.core.testapi.apps.DeploymentList list =
        new dev.machinery.core.testapi.apps.DeploymentList();
    Deployment item = new Deployment();
    item.setApiVersion("apps/v1");
    item.setKind("Deployment");
    list.setItems(List.of(item, new Deployment()));
    assertEquals(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"DeploymentList\",\"items\":[{\"apiVersion\":\"apps/v1\","
            + "\"kind\":\"Deployment\"},{}]}",
        JSON.encodeToString(list));
    dev.machinery.core.testapi.apps.DeploymentList back =
        (dev.machinery.core.testapi.apps.DeploymentList) JSON.decode(JSON.encode(list)).object();
    assertEquals("Deployment", back.getItems().get(0).getKind());
  }

  @Test
  void encodesPrettyJsonAsKubernetesIndentsIt() {
    Deployment d = new Deployment();
    d.setMetadata(new Meta("web"));
    d.getMetadata().setLabels(Map.of());
    d.setSpec(
        new DeploymentSpec(
            null,
            true,
            null,
            null,
            null,
            List.of(new DeploymentSpec.Container("a", null, List.of(80, 443))),
            null));
    assertEquals(
        "{\n"
            + "  \"apiVersion\": \"apps/v1\",\n"
            + "  \"kind\": \"Deployment\",\n"
            + "  \"metadata\": {\n"
            + "    \"name\": \"web\",\n"
            + "    \"labels\": {}\n"
            + "  },\n"
            + "  \"spec\": {\n"
            + "    \"paused\": true,\n"
            + "    \"containers\": [\n"
            + "      {\n"
            + "        \"name\": \"a\",\n"
            + "        \"ports\": [\n"
            + "          80,\n"
            + "          443\n"
            + "        ]\n"
            + "      }\n"
            + "    ]\n"
            + "  }\n"
            + "}",
        JSON.pretty().encodeToString(d));
  }

  /**
   * Doubles are written as Go's {@code encoding/json} writes a float64: a whole number below 1e21
   * without a fraction, in the shortest digits that read back as the same double (Go's {@code
   * strconv.FormatFloat(f, 'f', -1, 64)}), so that a Go client reading it into an integer can; and
   * an untyped value reads such a number back as an integer, as Go's unstructured decoding does.
   */
  @Test
  void writesDoublesAsGoWritesAFloat64() {
    Map<Double, String> written = new java.util.LinkedHashMap<>();
    written.put(2.0, "2");
    written.put(-3.0, "-3");
    written.put(0.0, "0");
    written.put(2.5, "2.5");
    written.put(1e20, "100000000000000000000");
    written.put(12345678901234567890.0, "12345678901234567000");
    written.put(1e21, "1.0E21");
    written.put(1.5e-7, "1.5E-7");
    written.forEach(
        (value, text) -> {
          Deployment d = new Deployment();
          d.setSpec(new DeploymentSpec(null, false, value, null, null, null, null));
          String json = JSON.encodeToString(d);
          assertTrue(json.contains("\"ratio\":" + text + "}"), value + ": " + json);
          Deployment read =
              (Deployment) JSON.decode(json.getBytes(StandardCharsets.UTF_8)).object();
          assertEquals(value, read.getSpec().ratio(), json);
        });
    Deployment untyped =
        (Deployment) JSON.decode(doc("\"spec\":{\"extra\":{\"a\":2.0,\"b\":2.5}}")).object();
    assertEquals(2.0, untyped.getSpec().extra().get("a"));
    String json = JSON.encodeToString(untyped);
    assertTrue(json.contains("\"extra\":{\"a\":2,\"b\":2.5}"), json);
    Deployment again = (Deployment) JSON.decode(json.getBytes(StandardCharsets.UTF_8)).object();
    assertEquals(2, again.getSpec().extra().get("a"));
  }

  @Test
  void refusesToEncodeNonFiniteNumbers() {
    Deployment d = new Deployment();
    d.setSpec(new DeploymentSpec(null, false, Double.NaN, null, null, null, null));
    EncodeException e = assertThrows(EncodeException.class, () -> JSON.encode(d));
    assertTrue(
        e.getMessage().startsWith("could not encode apps/v1, Kind=Deployment: "), e.getMessage());
  }

  @Test
  void encodesToAStreamWithoutClosingIt() {
    ByteArrayOutputStream out =
        new ByteArrayOutputStream() {
          @Override
          public void close() {
            throw new AssertionError("closed the caller's stream");
          }
        };
    JSON.encode(new Service(), out);
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":0}",
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void appliesDefaultsWhenAsked() {
    CodecFactory factory =
        CodecFactory.create(
            TestApi.builder().addDefaultingFunction(Service.class, s -> s.setPort(443)).build());
    Service plain =
        (Service) factory.json().decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\"}").object();
    assertEquals(0, plain.getPort());
    Service defaulted =
        (Service)
            factory
                .json()
                .withDefaulting(true)
                .decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\"}")
                .object();
    assertEquals(443, defaulted.getPort());
  }

  @Test
  void namesItsMediaTypes() {
    assertEquals("application/json", JSON.mediaType());
    assertEquals("application/yaml", CODECS.yaml().mediaType());
    assertEquals(FieldValidation.STRICT, JSON.fieldValidation());
  }

  @Test
  void rejectsNulBytesAnywhere() {
    DecodeException e =
        assertThrows(
            DecodeException.class, () -> JSON.decode(doc("\"spec\":{\"version\":\"a\u0000b\"}")));
    assertEquals("spec.version", e.fieldPath());
    assertThrows(DecodeException.class, () -> JSON.decode(doc("") + "\u0000"));
  }

  @Test
  void findsDuplicatesInLargeObjectsMapsArraysAndUnknownFields() {
    StringBuilder labels = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      labels.append("\"k").append(i).append("\":\"v\",");
    }
    labels.append("\"k7\":\"again\"");
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    doc(
                        "\"metadata\":{\"labels\":{"
                            + labels
                            + "}},\"spec\":{\"extra\":{\"l\":[{\"a\":1,\"a\":2}]},"
                            + "\"unknown\":{\"b\":1,\"b\":2}}")));
    assertEquals(
        "strict decoding error: unknown field \"spec.unknown\", duplicate field"
            + " \"metadata.labels.k7\", duplicate field \"spec.extra.l[0].a\", duplicate field"
            + " \"spec.unknown.b\"",
        e.getMessage());
  }

  @Test
  void findsDuplicatesWhenTheTypeComesLast() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    "{\"spec\":{\"replicas\":1,\"replicas\":2},\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"}"));
    assertEquals("strict decoding error: duplicate field \"spec.replicas\"", e.getMessage());
  }

  @Test
  void treatsSiblingObjectsAsSeparateScopes() {
    Deployment d =
        (Deployment)
            JSON.decode(
                    doc(
                        "\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"x\"},{\"name\":\"b\",\"image\":\"y\"}],"
                            + "\"extra\":{\"m\":{\"name\":1},\"n\":{\"name\":2}}}"))
                .object();
    assertEquals(2, d.getSpec().containers().size());
  }

  @Test
  void buffersTokensWhenTheTypeComesLastAndARootKeyIsEscaped() {
    Deployment d =
        (Deployment)
            JSON.decode(
                    "{\"metad\\u0061ta\":{\"name\":\"web\"},\"spec\":{\"replicas\":2},"
                        + "\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"}")
                .object();
    assertEquals("web", d.getMetadata().getName());
    assertEquals(2, d.getSpec().replicas());
  }

  @Test
  void boundsTheReportOfAHostileNumberOfProblems() {
    String labels = "\"a\":\"v\",".repeat(50_000) + "\"a\":\"v\"";
    String body = doc("\"metadata\":{\"labels\":{" + labels + "}}");
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> JSON.decode(body));
    assertEquals(100, e.problems().size());
    assertEquals(49_900, e.omittedCount());
    assertTrue(e.getMessage().endsWith(", and 49980 more"), e.getMessage());
    assertTrue(e.getMessage().length() < 1_000, e.getMessage());
    Decoded<Object> warned = JSON.withFieldValidation(FieldValidation.WARN).decode(body);
    assertEquals(100, warned.warnings().size());
  }

  @Test
  void boundsTheLengthOfReportedPaths() {
    String name = "n".repeat(4000);
    String body =
        doc("\"spec\":{\"extra\":{\"" + name + "\":{\"" + name + "\":{\"x\":1,\"x\":2}}}}");
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> JSON.decode(body));
    String path = e.problems().get(0).path();
    assertEquals(1024, path.length());
    assertTrue(path.startsWith("...") && path.endsWith(".x"), path);
  }

  @Test
  void neverHonoursPolymorphicTypeHints() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                JSON.decode(
                    doc(
                        "\"spec\":{\"extra\":{\"x\":[\"java.net.URL\",\"http://example.com\"]},"
                            + "\"@class\":\"java.lang.Runtime\"}")));
    assertEquals("strict decoding error: unknown field \"spec.@class\"", e.getMessage());
    Deployment d =
        (Deployment)
            JSON.withFieldValidation(FieldValidation.IGNORE)
                .decode(
                    doc("\"spec\":{\"extra\":{\"x\":[\"java.net.URL\",\"http://example.com\"]}}"))
                .object();
    assertEquals(List.of("java.net.URL", "http://example.com"), d.getSpec().extra().get("x"));
  }

  @Test
  void keepsItsLimitsToItsOwnFactories() throws Exception {
    CodecFactory.create(
        TestApi.scheme(), CodecLimits.DEFAULTS.withMaxNestingDepth(2).withMaxStringLength(3));
    com.fasterxml.jackson.databind.ObjectMapper hostApplication =
        new com.fasterxml.jackson.databind.ObjectMapper();
    assertEquals(
        List.of(List.of(List.of("long string"))),
        hostApplication.readValue("[[[\"long string\"]]]", List.class));
    assertEquals(
        com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth(),
        hostApplication.getFactory().streamReadConstraints().getMaxNestingDepth());
  }

  @Test
  void reportsAFailingOutputStream() {
    java.io.OutputStream broken =
        new java.io.OutputStream() {
          @Override
          public void write(int b) throws java.io.IOException {
            throw new java.io.IOException("disk full");
          }

          @Override
          public void write(byte[] b, int off, int len) throws java.io.IOException {
            throw new java.io.IOException("disk full");
          }
        };
    EncodeException e =
        assertThrows(EncodeException.class, () -> JSON.encode(new Service(), broken));
    assertEquals("could not encode /v1, Kind=Service: disk full", e.getMessage());
  }
}
