package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import org.junit.jupiter.api.Test;

/** Issue 11, item 8: a malformed value in a shared type reports its deserializer's own words. */
class SharedTypeErrorsTest {
  private static final CodecFactory CODECS = CodecFactory.create(RealDiscoveryDocumentsTest.SCHEME);

  @Test
  void aMalformedTimestampSaysWhatATimeLooksLike() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .decode(
                        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
                            + "\"metadata\":{\"name\":\"a\",\"creationTimestamp\":\"yesterday\"}}"));
    assertEquals(
        "field \"metadata.creationTimestamp\": invalid value string \"yesterday\": expected an RFC"
            + " 3339 time such as 2024-05-01T12:00:00Z (line 1, column 106)",
        e.getMessage());
    assertEquals("metadata.creationTimestamp", e.fieldPath());
  }

  @Test
  void aTimestampOfTheWrongTypeSaysWhatWasExpected() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .yaml()
                    .decode(
                        "apiVersion: meta.k8s.io/v1\nkind: PartialObjectMetadata\n"
                            + "metadata: {name: a, creationTimestamp: 5}\n"));
    assertEquals(
        "field \"metadata.creationTimestamp\": expected an RFC 3339 time string (line 3, column"
            + " 40)",
        e.getMessage());
  }
}
