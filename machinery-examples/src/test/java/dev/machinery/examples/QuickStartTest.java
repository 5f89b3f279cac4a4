package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.examples.api.ConfigMap;
import dev.machinery.examples.api.Widget;
import org.junit.jupiter.api.Test;

/** The README's one-minute example, kept compiling and true. */
class QuickStartTest {
  @Test
  void readmeQuickStartDoesWhatItSays() {
    Scheme scheme =
        Scheme.builder()
            .addKnownTypes(GroupVersion.of("example.dev", "v1"), Widget.class)
            .addKnownTypes(GroupVersion.of("", "v1"), ConfigMap.class) // the legacy core group
            .build();
    CodecFactory codecs = CodecFactory.create(scheme);

    String manifest =
        """
        apiVersion: example.dev/v1
        kind: Widget
        metadata: {name: gear}
        spec: {size: 3, colour: 0x1F, colur: red}
        """;
    Decoded<Object> decoded =
        codecs.yaml().withFieldValidation(FieldValidation.WARN).decode(manifest);
    Widget widget = (Widget) decoded.object();

    assertEquals("0x1F", widget.getSpec().colour());
    assertEquals("[unknown field \"spec.colur\"]", decoded.warnings().toString());
    String json = codecs.json().encodeToString(widget);
    assertTrue(json.startsWith("{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Widget\","), json);
    StrictDecodingException e =
        assertThrows(StrictDecodingException.class, () -> codecs.yaml().decode(manifest));
    assertEquals("strict decoding error: unknown field \"spec.colur\"", e.getMessage());
  }
}
