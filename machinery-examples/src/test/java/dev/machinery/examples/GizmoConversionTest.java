package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.examples.gizmo.GizmoApi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worked example of docs/conversion.md, as it is printed there. */
class GizmoConversionTest {
  private final Scheme scheme = GizmoApi.scheme();
  private final CodecFactory codecs = CodecFactory.create(scheme);

  @Test
  void readsV1AndWritesV2() {
    // A v1 client sends YAML; the server keeps the internal form and answers a v2 client.
    String v1 =
        "apiVersion: gizmos.example.dev/v1\n"
            + "kind: Gizmo\n"
            + "name: sprocket\n"
            + "owner: ada\n"
            + "tags: [blue]\n";
    Object hub = codecs.yaml().decodingTo(GroupVersioner.internal()).decode(v1).object();
    Codec v2 = codecs.json().encodingTo(GroupVersioner.of(GizmoApi.V2));
    assertEquals(
        "{\"apiVersion\":\"gizmos.example.dev/v2\",\"kind\":\"Gizmo\",\"name\":\"sprocket\","
            + "\"maintainer\":\"ada\",\"size\":1,\"tags\":[\"blue\"]}",
        v2.encodeToString(hub));
  }

  @Test
  void convertsBetweenVersionsThroughTheInternalForm() {
    dev.machinery.examples.gizmo.v2.Gizmo v2 = new dev.machinery.examples.gizmo.v2.Gizmo();
    v2.setApiVersion("gizmos.example.dev/v2");
    v2.setKind("Gizmo");
    v2.setMaintainer("grace");
    v2.setTags(List.of("red", "green"));
    dev.machinery.examples.gizmo.v1.Gizmo v1 =
        (dev.machinery.examples.gizmo.v1.Gizmo)
            scheme.convertToVersion(v2, GroupVersioner.of(GizmoApi.V1));
    assertEquals("grace", v1.getOwner());
    assertEquals(1, v1.getSize());
    assertEquals("gizmos.example.dev/v1", v1.getApiVersion());
    assertNull(v2.getSize(), "the caller's object is not defaulted in place");
    assertEquals(
        "grace",
        scheme.convert(v1, dev.machinery.examples.gizmo.internal.Gizmo.class).getMaintainer());
  }
}
