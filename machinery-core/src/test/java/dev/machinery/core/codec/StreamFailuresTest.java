package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.core.Service;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: a stream that fails part-way hands back what decoded before the failure; a single
 * object is read from the first document of a YAML body, as Kubernetes reads it.
 */
class StreamFailuresTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());

  @Test
  void aFailingYamlStreamKeepsTheObjectsBeforeTheFailure() {
    StrictDecodingException e =
        assertThrows(
            StrictDecodingException.class,
            () ->
                CODECS
                    .yaml()
                    .decodeAll(
                        "apiVersion: v1\nkind: Service\nport: 1\n---\n"
                            + "apiVersion: v1\nkind: Service\nport: 2\n---\n"
                            + "apiVersion: v1\nkind: Service\nprot: 3\n---\n"
                            + "apiVersion: v1\nkind: Service\nport: 4\n"));
    assertEquals(3, e.document());
    assertEquals(
        List.of(1, 2),
        e.decodedBefore().stream().map(d -> ((Service) d.object()).getPort()).toList());
  }

  @Test
  void aFailingJsonStreamKeepsTheObjectsBeforeTheFailure() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .decodeAll(
                        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":1}"
                            + "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":\"x\"}"));
    assertEquals(
        List.of(1), e.decodedBefore().stream().map(d -> ((Service) d.object()).getPort()).toList());
  }

  @Test
  void aLoneObjectThatFailsHasNothingBeforeIt() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":\"x\"}"));
    assertEquals(List.of(), e.decodedBefore());
    assertEquals(0, e.document());
  }

  @Test
  void aSingleObjectIsReadFromTheFirstYamlDocument() {
    // Kubernetes decodes a body's first document; an empty one holds no object.
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () -> CODECS.yaml().decode("---\n---\napiVersion: v1\nkind: Service\nport: 1\n"));
    assertEquals(
        "the first document of the YAML stream is empty; a single object is read from the first"
            + " document (use decodeAll to skip empty documents)",
        e.getMessage());
    // A leading document marker starts the first document; it is not an empty one.
    assertEquals(
        1,
        ((Service) CODECS.yaml().decode("---\napiVersion: v1\nkind: Service\nport: 1\n").object())
            .getPort());
    assertEquals(
        1, CODECS.yaml().decodeAll("---\n---\napiVersion: v1\nkind: Service\nport: 1\n").size());
  }
}
