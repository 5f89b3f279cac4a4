package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 12: the decoder of a request body chosen from its Content-Type, 415 otherwise. */
class ContentTypeNegotiatorTest {
  private static final CodecFactory CODECS = CodecFactory.create(NegotiationTest.SCHEME);
  private static final ContentTypeNegotiator BODIES = ContentTypeNegotiator.of(CODECS);

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "-|application/json",
        "''|application/json",
        "application/json|application/json",
        "Application/JSON|application/json",
        "application/json; charset=utf-8|application/json",
        "application/json;charset=UTF-8|application/json",
        "application/yaml|application/yaml",
        "application/yaml; charset=utf-8|application/yaml",
      })
  void choosesTheDecoder(String contentType, String decoder) {
    assertEquals(decoder, BODIES.negotiate(contentType).mediaType());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "text/plain|found \"text/plain\"",
        "application/vnd.kubernetes.protobuf|found \"application/vnd.kubernetes.protobuf\"",
        "application/json; charset=latin-1|charset \"latin-1\" is not read; request bodies are UTF-8",
        "*/*|a body has one media type, not the wildcard */*",
        "application/*|a body has one media type, not the wildcard application/*",
      })
  void answers415WithKubernetesWords(String contentType, String detail) {
    UnsupportedMediaTypeException e =
        assertThrows(UnsupportedMediaTypeException.class, () -> BODIES.negotiate(contentType));
    assertEquals(
        "the body of the request was in an unknown format - accepted media types include:"
            + " application/json, application/yaml ("
            + detail
            + ")",
        e.getMessage());
    Status status = e.status();
    assertEquals(415, status.getCode());
    assertEquals("UnsupportedMediaType", status.getReason());
    assertEquals("Failure", status.getStatus());
    assertEquals(contentType, e.contentType());
  }

  @Test
  void refusesSeveralTypesAndMalformedHeaders() {
    for (String header : List.of("application/json, application/yaml", "json", "application/")) {
      UnsupportedMediaTypeException e =
          assertThrows(UnsupportedMediaTypeException.class, () -> BODIES.negotiate(header));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "the body of the request was in an unknown format - accepted media types"
                      + " include: application/json, application/yaml ("),
          e.getMessage());
    }
  }

  @Test
  void theFirstAcceptedTypeIsTheDefault() {
    ContentTypeNegotiator yamlFirst =
        ContentTypeNegotiator.builder()
            .accept("application/yaml", CODECS.yaml())
            .accept("application/json", CODECS.json())
            .build();
    assertSame(CODECS.yaml(), yamlFirst.negotiate(null));
    assertEquals(List.of("application/yaml", "application/json"), yamlFirst.accepted());
  }

  @Test
  void aNegotiatorWithNothingToReadOrWriteIsRefused() {
    IllegalStateException reads =
        assertThrows(IllegalStateException.class, () -> ContentTypeNegotiator.builder().build());
    assertEquals("a content type negotiator reads at least one media type", reads.getMessage());
    IllegalArgumentException writes =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                dev.machinery.apiserver.negotiation.Negotiator.builder(NegotiationTest.SCHEME)
                    .serving());
    assertEquals("a negotiator must serve at least one media type", writes.getMessage());
  }

  /** A media type the caller decodes itself: chosen by the same rules, refused by negotiate. */
  @Test
  void aMediaTypeWithoutACodecIsChosenButNotNegotiated() {
    ContentTypeNegotiator server =
        ContentTypeNegotiator.builder()
            .accept("application/json", CODECS.json())
            .accept("application/vnd.kubernetes.protobuf")
            .build();
    assertEquals(
        "application/vnd.kubernetes.protobuf",
        server.choose("application/vnd.kubernetes.protobuf"));
    assertEquals("application/json", server.choose(null));
    assertEquals(
        "application/vnd.kubernetes.protobuf was accepted without a codec: the caller decodes it"
            + " (use choose)",
        assertThrows(
                IllegalStateException.class,
                () -> server.negotiate("application/vnd.kubernetes.protobuf"))
            .getMessage());
    assertThrows(UnsupportedMediaTypeException.class, () -> server.choose("application/yaml"));
    assertEquals(
        "application/json is accepted already",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ContentTypeNegotiator.builder()
                        .accept("application/json")
                        .accept("application/json", CODECS.json()))
            .getMessage());
  }
}
