package com.example.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A v1 manifest read into the internal form and written as v2, metadata and all. */
class WidgetConversionTest {
  private final CodecFactory codecs = CodecFactory.create(WidgetApi.scheme());

  @Test
  void readsV1AndWritesV2() {
    String v1 =
        "apiVersion: widgets.example.com/v1\n"
            + "kind: Widget\n"
            + "metadata:\n  name: gear\n  labels: {tier: front}\n"
            + "spec: {owner: ada, tags: [blue]}\n";
    com.example.widgets.internal.Widget internal =
        codecs
            .yaml()
            .withDefaulting(true)
            .decodingTo(GroupVersioner.internal())
            .decode(v1, com.example.widgets.internal.Widget.class)
            .object();
    assertEquals("ada", internal.getSpec().getMaintainer());
    assertEquals(1, internal.getSpec().getSize());
    assertEquals(Map.of("tier", "front"), internal.getMetadata().getLabels());
    assertEquals(
        "{\"apiVersion\":\"widgets.example.com/v2\",\"kind\":\"Widget\",\"metadata\":{\"name\":"
            + "\"gear\",\"creationTimestamp\":null,\"labels\":{\"tier\":\"front\"}},\"spec\":"
            + "{\"size\":1,\"maintainer\":\"ada\",\"tags\":[\"blue\"]}}",
        codecs.json().encodingTo(GroupVersioner.of(WidgetApi.V2)).encodeToString(internal));
    com.example.widgets.internal.Widget copy =
        WidgetApi.scheme().converter().deepCopy(internal);
    assertEquals(internal, copy);
    assertNotSame(internal.getMetadata(), copy.getMetadata());
    assertEquals(List.of("blue"), copy.getSpec().getTags());
  }
}
