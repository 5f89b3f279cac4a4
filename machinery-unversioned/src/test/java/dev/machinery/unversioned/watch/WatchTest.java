package dev.machinery.unversioned.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.testapi.Pod;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The watch framing kube-apiserver writes, read back one event at a time; the queue's promises. */
class WatchTest {
  private static final GroupVersion CORE = GroupVersion.of("", "v1");
  private static final CodecFactory CODECS =
      CodecFactory.create(
          MetaV1.addToScheme(Scheme.builder()).addKnownTypes(CORE, Pod.class).build());

  private static Pod pod(String name) {
    Pod pod = new Pod();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setResourceVersion("1");
    pod.setMetadata(meta);
    return pod;
  }

  private static ByteArrayInputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void framesAreOneJsonObjectALineAndReadBackOneByOne() throws IOException {
    WatchEncoder encoder = new WatchEncoder(CODECS.json());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    encoder.write(new Event(EventType.ADDED, pod("a")), out);
    encoder.write(new Event(EventType.MODIFIED, pod("a")), out);
    Status gone = ApiErrors.newResourceExpired("too old resource version: 1 (5)").status();
    encoder.write(new Event(EventType.ERROR, gone), out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
            + "{\"name\":\"a\",\"resourceVersion\":\"1\",\"creationTimestamp\":null}}}",
        text.lines().findFirst().orElseThrow());
    assertEquals(3, text.lines().count());
    List<EventType> types = new ArrayList<>();
    try (WatchDecoder decoder =
        new WatchDecoder(CODECS.json(), stream(text), CodecLimits.DEFAULTS)) {
      for (Optional<Event> event = decoder.next(); event.isPresent(); event = decoder.next()) {
        types.add(event.get().type());
        if (event.get().type() == EventType.ERROR) {
          assertTrue(
              ApiErrors.isResourceExpired(
                  new dev.machinery.unversioned.errors.StatusException(
                      (Status) event.get().object())));
        } else {
          assertEquals("a", ((Pod) event.get().object()).getMetadata().getName());
        }
      }
      assertEquals(3, decoder.count());
    }
    assertEquals(List.of(EventType.ADDED, EventType.MODIFIED, EventType.ERROR), types);
  }

  @Test
  void aBrokenStreamFailsAtItsEvent() {
    String truncated =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}\n{\"type\":\"MODIFIED\",\"obj";
    try (WatchDecoder decoder =
        new WatchDecoder(CODECS.json(), stream(truncated), CodecLimits.DEFAULTS)) {
      assertTrue(decoder.next().isPresent());
      DecodeException e = assertThrows(DecodeException.class, decoder::next);
      assertTrue(
          e.getMessage().startsWith("value 2 of the stream: the stream ended in the middle of it"),
          e.getMessage());
    }
    try (WatchDecoder decoder =
        new WatchDecoder(
            CODECS.json(), stream("{\"type\":\"JUMPED\",\"object\":{}}"), CodecLimits.DEFAULTS)) {
      DecodeException e = assertThrows(DecodeException.class, decoder::next);
      assertTrue(e.getMessage().contains("unknown event type \"JUMPED\""), e.getMessage());
    }
    try (WatchDecoder decoder =
        new WatchDecoder(CODECS.json(), stream("not json"), CodecLimits.DEFAULTS)) {
      assertThrows(DecodeException.class, decoder::next);
    }
    String huge =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"x\":\""
            + "y".repeat(5_000)
            + "\"}}";
    try (WatchDecoder decoder =
        new WatchDecoder(
            CODECS.json(), stream(huge), CodecLimits.DEFAULTS.withMaxJsonBytes(1_000))) {
      assertThrows(LimitExceededException.class, decoder::next);
    }
  }
}
