package dev.machinery.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.conversion.ConversionException;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.testapi.frobber.FrobberApi;
import dev.machinery.core.testapi.frobber.internal.Frobber;
import dev.machinery.core.testapi.meta.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Frobber cases of api-changes.md, through the Scheme and the codecs. */
class FrobberConversionTest {
  private static final Scheme SCHEME = FrobberApi.scheme();
  private static final CodecFactory CODECS = CodecFactory.create(SCHEME);
  private static final GroupVersioner STORAGE = GroupVersioner.of(FrobberApi.V6);

  /** What an API server does on write: decode any version, store as v6. */
  private static byte[] store(String body) {
    Codec codec = CODECS.json().withDefaulting(true).decodingTo(GroupVersioner.internal());
    Object internal = codec.decode(body).object();
    return CODECS.json().encodingTo(STORAGE).encode(internal);
  }

  /** What an API server does on read: decode the stored v6, answer in the version asked. */
  private static String read(byte[] stored, GroupVersion version) {
    Codec codec = CODECS.json().withDefaulting(true).decodingTo(GroupVersioner.internal());
    return CODECS
        .json()
        .encodingTo(GroupVersioner.of(version))
        .encodeToString(codec.decode(stored).object());
  }

  @Test
  void v7beta1ParamsStoredAsV6ReadBackWhole() {
    byte[] stored =
        store(
            "{\"apiVersion\":\"example.dev/v7beta1\",\"kind\":\"Frobber\",\"name\":\"f\","
                + "\"height\":1,\"width\":2,\"params\":[\"a\",\"b\",\"c\"]}");
    assertEquals(
        "{\"apiVersion\":\"example.dev/v6\",\"kind\":\"Frobber\",\"name\":\"f\",\"height\":1,"
            + "\"width\":2,\"heightInInches\":1,\"widthInInches\":2,\"param\":\"a\","
            + "\"params\":[\"b\",\"c\"]}",
        new String(stored, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(
        "{\"apiVersion\":\"example.dev/v7beta1\",\"kind\":\"Frobber\",\"name\":\"f\",\"height\":1,"
            + "\"width\":2,\"params\":[\"a\",\"b\",\"c\"]}",
        read(stored, FrobberApi.V7BETA1));
  }

  @Test
  void putBackAfterGetDoesNotFailAndTheOldFieldWins() {
    byte[] created =
        store("{\"apiVersion\":\"example.dev/v6\",\"kind\":\"Frobber\",\"height\":10,\"width\":5}");
    String got = read(created, FrobberApi.V6);
    assertEquals(
        "{\"apiVersion\":\"example.dev/v6\",\"kind\":\"Frobber\",\"height\":10,\"width\":5,"
            + "\"heightInInches\":10,\"widthInInches\":5}",
        got);
    // An old client changes height only and PUTs back what it got.
    byte[] updated = store(got.replace("\"height\":10", "\"height\":13"));
    dev.machinery.core.testapi.frobber.v6.Frobber after =
        CODECS.json().decode(updated, dev.machinery.core.testapi.frobber.v6.Frobber.class).object();
    assertEquals(13, after.getHeight());
    assertEquals(13, after.getHeightInInches());
  }

  @Test
  void aNewClientMayWriteTheNewFieldOnly() {
    byte[] stored =
        store("{\"apiVersion\":\"example.dev/v6\",\"kind\":\"Frobber\",\"heightInInches\":7}");
    Frobber internal =
        CODECS.json().decodingTo(GroupVersioner.internal()).decode(stored, Frobber.class).object();
    assertEquals(7, internal.getHeight());
    assertNull(internal.getApiVersion());
    assertNull(internal.getKind());
  }

  static dev.machinery.core.testapi.frobber.v6.Frobber v6(Random random) {
    dev.machinery.core.testapi.frobber.v6.Frobber frobber =
        new dev.machinery.core.testapi.frobber.v6.Frobber();
    frobber.setApiVersion("example.dev/v6");
    frobber.setKind("Frobber");
    frobber.setName(random.nextBoolean() ? null : "f" + random.nextInt(100));
    Integer height = random.nextBoolean() ? null : random.nextInt(1000);
    frobber.setHeight(height);
    frobber.setHeightInInches(height);
    Integer width = random.nextBoolean() ? null : random.nextInt(1000);
    frobber.setWidth(width);
    frobber.setWidthInInches(width);
    List<String> params = params(random);
    if (params != null) {
      frobber.setParam(params.get(0));
      frobber.setExtraParams(
          params.size() > 1 ? new ArrayList<>(params.subList(1, params.size())) : null);
    }
    return frobber;
  }

  /** Null or non-empty: v6 cannot tell an empty list from none. */
  static List<String> params(Random random) {
    if (random.nextBoolean()) {
      return null;
    }
    List<String> params = new ArrayList<>();
    for (int i = random.nextInt(4) + 1; i > 0; i--) {
      params.add("p" + random.nextInt(20));
    }
    return params;
  }

  static Frobber internal(Random random) {
    Frobber frobber = new Frobber();
    frobber.setName(random.nextBoolean() ? null : "f" + random.nextInt(100));
    frobber.setHeight(random.nextInt(1000));
    frobber.setWidth(random.nextInt(1000));
    frobber.setParams(params(random));
    return frobber;
  }

  @Test
  void theClumsyV6FormSurvivesARoundTripThroughTheInternalForm() {
    for (long seed = 0; seed < 300; seed++) {
      dev.machinery.core.testapi.frobber.v6.Frobber frobber = v6(new Random(seed));
      if (frobber.getHeight() == null || frobber.getWidth() == null) {
        continue; // v6 without a height reads back as 0: defaulting, not loss
      }
      Object internal = SCHEME.convertToVersion(frobber, GroupVersioner.internal());
      assertEquals(frobber, SCHEME.convertToVersion(internal, STORAGE), "seed " + seed);
    }
  }

  @Test
  void theCleanV7beta1FormSurvivesARoundTripThroughTheInternalForm() {
    for (long seed = 0; seed < 300; seed++) {
      Random random = new Random(seed);
      dev.machinery.core.testapi.frobber.v7beta1.Frobber frobber =
          SCHEME.convert(
              internal(random), dev.machinery.core.testapi.frobber.v7beta1.Frobber.class);
      frobber.setApiVersion("example.dev/v7beta1");
      frobber.setKind("Frobber");
      Object internal = SCHEME.convertToVersion(frobber, GroupVersioner.internal());
      assertEquals(
          frobber,
          SCHEME.convertToVersion(internal, GroupVersioner.of(FrobberApi.V7BETA1)),
          "seed " + seed);
    }
  }

  @Test
  void theInternalFormSurvivesEveryVersion() {
    for (long seed = 0; seed < 300; seed++) {
      Frobber frobber = internal(new Random(seed));
      for (GroupVersion version : List.of(FrobberApi.V6, FrobberApi.V7BETA1)) {
        ApiObject external =
            (ApiObject) SCHEME.convertToVersion(frobber, GroupVersioner.of(version));
        assertEquals(version.toString(), external.getApiVersion());
        assertEquals(
            frobber,
            SCHEME.convertToVersion(external, GroupVersioner.internal()),
            "seed " + seed + " via " + version);
      }
    }
  }

  @Test
  void convertsVersionToVersionThroughTheHubAndDefaultsACopyOfTheSource() {
    dev.machinery.core.testapi.frobber.v6.Frobber v6 =
        new dev.machinery.core.testapi.frobber.v6.Frobber();
    v6.setApiVersion("example.dev/v6");
    v6.setKind("Frobber");
    v6.setHeightInInches(4);
    v6.setParam("a");
    v6.setExtraParams(List.of("b"));
    dev.machinery.core.testapi.frobber.v7beta1.Frobber v7 =
        SCHEME.convert(v6, dev.machinery.core.testapi.frobber.v7beta1.Frobber.class);
    assertEquals(4, v7.getHeight());
    assertEquals(List.of("a", "b"), v7.getParams());
    assertNull(v6.getHeight(), "the input is not defaulted in place");
  }

  @Test
  void anObjectAlreadyInTheTargetVersionIsCopied() {
    dev.machinery.core.testapi.frobber.v6.Frobber v6 = v6(new Random(3));
    Object same = SCHEME.convertToVersion(v6, STORAGE);
    assertEquals(v6, same);
    assertNotSame(v6, same);
  }

  @Test
  void unversionedObjectsPassThroughUnchanged() {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    assertSame(status, SCHEME.convertToVersion(status, STORAGE));
  }

  @Test
  void thePreferredVersionIsTheFirstOfTheGroupsPriority() {
    ApiObject external =
        (ApiObject) SCHEME.convertToVersion(internal(new Random(1)), SCHEME.preferredVersions());
    assertEquals("example.dev/v6", external.getApiVersion());
    assertEquals("Frobber", external.getKind());
  }

  @Test
  void aVersionerWithNoTargetForTheGroupFails() {
    ConversionException error =
        assertThrows(
            ConversionException.class,
            () ->
                SCHEME.convertToVersion(
                    internal(new Random(1)), GroupVersioner.of(GroupVersion.of("apps", "v1"))));
    assertEquals(
        "\"example.dev/__internal, Kind=Frobber\" cannot be converted to apps/v1: its internal"
            + " form is registered for \"example.dev\" only",
        error.getMessage());
  }

  @Test
  void rejectsAConversionBetweenTwoExternalVersions() {
    SchemeBuildException error =
        assertThrows(
            SchemeBuildException.class,
            () ->
                FrobberApi.builder()
                    .addConversion(
                        dev.machinery.core.testapi.frobber.v6.Frobber.class,
                        dev.machinery.core.testapi.frobber.v7beta1.Frobber.class,
                        (in, scope) -> new dev.machinery.core.testapi.frobber.v7beta1.Frobber())
                    .build());
    assertEquals(
        List.of(
            "a conversion from dev.machinery.core.testapi.frobber.v6.Frobber to"
                + " dev.machinery.core.testapi.frobber.v7beta1.Frobber joins two external"
                + " versions; versions convert through the internal version only"),
        error.problems());
  }

  @Test
  void fieldLabelsConvertPerKindAndVersion() {
    GroupVersionKind v6 = FrobberApi.V6.withKind("Frobber");
    assertEquals(
        new FieldLabel("height", "3"), SCHEME.convertFieldLabel(v6, "heightInInches", "3"));
    assertEquals(
        new FieldLabel("metadata.name", "f"), SCHEME.convertFieldLabel(v6, "metadata.name", "f"));
    FieldLabelNotSupportedException error =
        assertThrows(
            FieldLabelNotSupportedException.class,
            () -> SCHEME.convertFieldLabel(v6, "spec.color", "red"));
    assertEquals(
        "field label \"spec.color\" is not supported for \"example.dev/v6, Kind=Frobber\"",
        error.getMessage());
    assertEquals("spec.color", error.label());
    GroupVersionKind v7 = FrobberApi.V7BETA1.withKind("Frobber");
    assertEquals(
        new FieldLabel("metadata.namespace", "ns"),
        SCHEME.convertFieldLabel(v7, "metadata.namespace", "ns"));
    assertThrows(
        FieldLabelNotSupportedException.class, () -> SCHEME.convertFieldLabel(v7, "height", "1"));
    assertThrows(
        NotRegisteredException.class,
        () -> SCHEME.convertFieldLabel(FrobberApi.V6.withKind("Widget"), "metadata.name", "x"));
  }

  @Test
  void rejectsFieldLabelConversionsForUnknownKindsAndTwiceForOne() {
    SchemeBuildException error =
        assertThrows(
            SchemeBuildException.class,
            () ->
                FrobberApi.builder()
                    .addFieldLabelConversion(
                        FrobberApi.V6.withKind("Widget"), (label, value) -> Optional.empty())
                    .addFieldLabelConversion(
                        FrobberApi.V6.withKind("Frobber"), (label, value) -> Optional.empty())
                    .build());
    assertEquals(
        List.of(
            "two field-label conversions are registered for \"example.dev/v6, Kind=Frobber\"",
            "a field-label conversion is registered for \"example.dev/v6, Kind=Widget\", which is"
                + " not a registered kind"),
        error.problems());
  }

  @Test
  void aKindWithoutAnInternalVersionCannotBeConverted() {
    Scheme scheme = dev.machinery.core.testapi.TestApi.scheme();
    dev.machinery.core.testapi.compute.Pod pod = new dev.machinery.core.testapi.compute.Pod();
    NotRegisteredException error =
        assertThrows(
            NotRegisteredException.class,
            () ->
                scheme.convertToVersion(pod, GroupVersioner.of(GroupVersion.of("compute", "v2"))));
    assertEquals(
        "kind \"compute/v1, Kind=Pod\" has no internal version to convert through; register"
            + " \"compute/__internal, Kind=Pod\" with addInternalTypes",
        error.getMessage());
  }
}
