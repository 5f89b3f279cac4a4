package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.machinery.core.internal.Surrogates;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.core.Service;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 12: an escaped lone surrogate never reaches a decoded string, so nothing re-encodes as
 * invalid UTF-16 or UTF-8; it becomes U+FFFD, as Go's JSON decoder makes it.
 */
class SurrogatesTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());

  private static String json(String escapedName) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\""
        + escapedName
        + "\"}}";
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a\\ud800b|a\ufffdb",
        "a\\udc00b|a\ufffdb",
        "\\ud800|\ufffd",
        "\\ud83d\\ude00|\ud83d\ude00",
        "\\ud83d\\u0041|\ufffdA",
        "\\\\ud800|\\ud800",
        "\\uD800\\uD800\\uDC00|\ufffd\ud800\udc00"
      })
  void jsonDecodesALoneSurrogateAsTheReplacementCharacter(String escaped, String expected) {
    Service service = CODECS.json().decode(json(escaped), Service.class).object();
    assertEquals(expected, service.getMetadata().getName());
    byte[] written = CODECS.json().encode(service);
    assertEquals(
        expected, CODECS.json().decode(written, Service.class).object().getMetadata().getName());
    assertArrayEquals(
        new String(written, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), written);
  }

  @Test
  void yamlDecodesALoneSurrogateAsTheReplacementCharacter() {
    Service service =
        CODECS
            .yaml()
            .decode(
                "apiVersion: v1\nkind: Service\nmetadata: {name: \"a\\ud800b\"}\n", Service.class)
            .object();
    assertEquals("a\ufffdb", service.getMetadata().getName());
  }

  @Test
  void aBodyWithoutEscapedSurrogatesIsNotCopied() {
    byte[] body = json("plain \\n \\u0041").getBytes(StandardCharsets.UTF_8);
    assertSame(body, Surrogates.repairJson(body, 0, body.length));
    assertSame("text", Surrogates.repair("text"));
  }
}
