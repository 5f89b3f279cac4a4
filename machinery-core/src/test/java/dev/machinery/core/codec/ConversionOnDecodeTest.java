package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.toggle.internal.Toggle;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 8: a value that the document's version holds but the internal form cannot (an enum
 * constant that does not exist) is a {@link DecodeException} naming the field, the value and the
 * line, in JSON and YAML.
 */
class ConversionOnDecodeTest {
  private static final CodecFactory CODECS =
      CodecFactory.create(
          Scheme.builder()
              .addKnownTypes(
                  GroupVersion.of("example.dev", "v1"),
                  dev.machinery.core.testapi.toggle.v1.Toggle.class)
              .addInternalTypes("example.dev", Toggle.class)
              .addConversions(
                  new dev.machinery.core.testapi.toggle.v1.GeneratedConversions(),
                  new dev.machinery.core.testapi.toggle.v1.GeneratedDeepCopy(),
                  new dev.machinery.core.testapi.toggle.internal.GeneratedDeepCopy())
              .build());

  @Test
  void aBadEnumValueFoundByConversionNamesFieldValueAndLineInYaml() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .yaml()
                    .decodingTo(GroupVersioner.internal())
                    .decode(
                        "apiVersion: example.dev/v1\nkind: Toggle\nswitches:\n- mode: On\n"
                            + "- mode: Dim\n"));
    assertEquals(
        "field \"switches[1].mode\": \"Dim\" is not one of On, Off (line 5, column 9)",
        e.getMessage());
    assertEquals("switches[1].mode", e.fieldPath());
    assertEquals(5, e.line());
  }

  @Test
  void aBadEnumValueFoundByConversionNamesFieldValueAndLineInJson() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .decodingTo(GroupVersioner.internal())
                    .decode(
                        "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Toggle\",\n"
                            + "\"switches\":[{\"mode\":\"On\"},\n{\"mode\":\"Dim\"}]}"));
    assertEquals(
        "field \"switches[1].mode\": \"Dim\" is not one of On, Off (line 3, column 2)",
        e.getMessage());
  }
}
