package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.unstructured.UnstructuredConverter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Typed → unstructured → typed is the identity, on seeded objects of every shared kind. */
class UnstructuredProperties {
  private static final long SEEDS = Long.getLong("machinery.seeds", 500);
  private final CodecFactory codecs = CodecFactory.create(RealDiscoveryDocumentsTest.SCHEME);
  private final UnstructuredConverter converter = new UnstructuredConverter(codecs);

  @Test
  void typedToUnstructuredToTypedIsTheIdentity() {
    Long only = Long.getLong("machinery.seed");
    for (long seed = only == null ? 0 : only; seed < (only == null ? SEEDS : only + 1); seed++) {
      ApiObject typed = MetaGenerators.any(new Random(seed));
      Unstructured unstructured = converter.toUnstructured(typed);
      assertEquals(
          typed,
          converter.fromUnstructured(unstructured, typed.getClass()),
          "seed " + seed + " (replay with -Dmachinery.seed=" + seed + ")");
      assertEquals(typed, converter.fromUnstructured(unstructured), "seed " + seed);
    }
  }

  @Test
  void unstructuredSurvivesEncoding() {
    for (long seed = 0; seed < SEEDS; seed++) {
      Unstructured unstructured = converter.toUnstructured(MetaGenerators.any(new Random(seed)));
      assertEquals(
          unstructured,
          codecs.yaml().decode(codecs.yaml().encode(unstructured), Unstructured.class).object(),
          "seed " + seed);
      assertEquals(unstructured, unstructured.deepCopy(), "seed " + seed);
    }
  }
}
