package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.testapi.TestSchemes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Past the bound of the encoded-string cache, labels are still written exactly. */
class ManyLabelsTest {
  @Test
  void tenThousandDistinctLabelsRoundTrip() {
    Codec json = CodecFactory.create(TestSchemes.SCHEME).json();
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < 10_000; i++) {
      labels.put("example.dev/key-" + i, "value-" + i + "-\"quoted\"-ü");
    }
    labels.put("x".repeat(400), "long key beyond the cached length");
    PartialObjectMetadata partial = new PartialObjectMetadata();
    partial.setApiVersion("meta.k8s.io/v1");
    partial.setKind("PartialObjectMetadata");
    ObjectMeta meta = new ObjectMeta();
    meta.setLabels(labels);
    partial.setMetadata(meta);
    for (int round = 0; round < 2; round++) {
      PartialObjectMetadata back =
          json.decode(json.encode(partial), PartialObjectMetadata.class).object();
      assertEquals(labels, back.getMetadata().getLabels());
    }
  }
}
