package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Lists decoded item by item from a stream, in the memory of one item. */
class ItemStreamTest {
  /** The item kind. */
  public static final class Widget implements ApiObject {
    private String apiVersion;
    private String kind;
    private String name;
    private int replicas;
    private List<String> tags;
    private String note;

    @Override
    public String getApiVersion() {
      return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
      return kind;
    }

    @Override
    public void setKind(String kind) {
      this.kind = kind;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public int getReplicas() {
      return replicas;
    }

    public void setReplicas(int replicas) {
      this.replicas = replicas;
    }

    public List<String> getTags() {
      return tags;
    }

    public void setTags(List<String> tags) {
      this.tags = tags;
    }

    public String getNote() {
      return note;
    }

    public void setNote(String note) {
      this.note = note;
    }
  }

  static final CodecFactory CODECS =
      CodecFactory.create(
          Scheme.builder()
              .addKnownTypes(GroupVersion.of("example.com", "v1"), Widget.class)
              .build());

  private static ByteArrayInputStream text(String json) {
    return new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aGeneratedListStreamsItemByItem() {
    long count = 100_000; // about 20 MB, never held
    long replicas = 0;
    try (ItemStream<Widget> items =
        CODECS.json().decodeItems(new GeneratedList(count), Widget.class)) {
      while (items.hasNext()) {
        Widget widget = items.next().object();
        replicas += widget.getReplicas();
      }
      assertEquals(count, items.count());
    }
    long expected = 0;
    for (long i = 0; i < count; i++) {
      expected += i % 7;
    }
    assertEquals(expected, replicas);
  }

  @Test
  void aGenericListGivesEachItemItsOwnKind() {
    String list =
        "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
            + "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"name\":\"a\"},"
            + "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"name\":\"b\"}]}";
    List<String> names = new ArrayList<>();
    try (ItemStream<Object> items = CODECS.json().decodeItems(text(list), Object.class)) {
      items.forEachRemaining(item -> names.add(((Widget) item.object()).getName()));
    }
    assertEquals(List.of("a", "b"), names);
    try (ItemStream<Widget> items =
        CODECS
            .yaml()
            .decodeItems(
                text(
                    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  name: y\n"),
                Widget.class)) {
      assertEquals("y", items.next().object().getName());
      assertFalse(items.hasNext());
    }
  }

  @Test
  void aBrokenStreamFailsAtItsItemAfterTheItemsBefore() {
    String truncated =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"WidgetList\",\"items\":[{\"name\":\"a\"},{\"name\":\"b\",\"repl";
    List<String> names = new ArrayList<>();
    DecodeException e;
    try (ItemStream<Widget> items = CODECS.json().decodeItems(text(truncated), Widget.class)) {
      e =
          assertThrows(
              DecodeException.class,
              () -> items.forEachRemaining(item -> names.add(item.object().getName())));
    }
    assertEquals(List.of("a"), names);
    assertTrue(
        e.getMessage().startsWith("item 2 of the list: the stream ended in the middle of it"),
        e.getMessage());
    String strict =
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"WidgetList\",\"items\":[{\"name\":\"a\"},{\"nmae\":\"b\"}]}";
    try (ItemStream<Widget> items = CODECS.json().decodeItems(text(strict), Widget.class)) {
      items.next();
      StrictDecodingException typo = assertThrows(StrictDecodingException.class, items::next);
      assertTrue(typo.getMessage().startsWith("item 2 of the list: "), typo.getMessage());
    }
  }

  @Test
  void eachItemIsBoundedNotTheStream() {
    CodecFactory small =
        CodecFactory.create(CODECS.scheme(), CodecLimits.DEFAULTS.withMaxJsonBytes(1_000));
    String big =
        "{\"kind\":\"WidgetList\",\"apiVersion\":\"example.com/v1\",\"items\":[{\"note\":\""
            + "x".repeat(5_000)
            + "\"}]}";
    try (ItemStream<Widget> items = small.json().decodeItems(text(big), Widget.class)) {
      LimitExceededException e = assertThrows(LimitExceededException.class, items::next);
      assertEquals("maxJsonBytes", e.limit());
    }
    // Many small items add up to far more than the limit and still stream.
    try (ItemStream<Widget> items =
        small.json().decodeItems(new GeneratedList(1_000), Widget.class)) {
      items.forEachRemaining(item -> {});
      assertEquals(1_000, items.count());
    }
  }

  /**
   * Four gigabytes through a 256 MB heap, in a child JVM: run with {@code
   * -Dmachinery.bigStream=true} (about a minute per gigabyte on a small machine, so it has a time
   * limit of its own, longer than the build's five minutes a test).
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  @EnabledIfSystemProperty(named = "machinery.bigStream", matches = "true")
  void fourGigabytesStreamThroughASmallHeap() throws IOException, InterruptedException {
    long items = 4L * 1024 * 1024 * 1024 / GeneratedList.item(1).length;
    Process child =
        new ProcessBuilder(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                BigStream.class.getName(),
                Long.toString(items))
            .inheritIO()
            .start();
    try {
      assertTrue(child.waitFor(25, TimeUnit.MINUTES), "the child JVM streamed the list in time");
      assertEquals(0, child.exitValue(), "the child JVM streamed the list (exit code)");
    } finally {
      child.destroyForcibly();
    }
  }

  /** The child of {@link #fourGigabytesStreamThroughASmallHeap}: exits 0 when every item came. */
  static final class BigStream {
    private BigStream() {}

    public static void main(String[] args) {
      long count = Long.parseLong(args[0]);
      long start = System.nanoTime();
      try (ItemStream<Widget> items =
          CODECS.json().decodeItems(new GeneratedList(count), Widget.class)) {
        long seen = 0;
        while (items.hasNext()) {
          items.next();
          seen++;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            "streamed %d items (%.1f GB) in %.0f s with -Xmx256m%n",
            seen, count * (double) GeneratedList.item(1).length / 1e9, seconds);
        System.exit(seen == count ? 0 : 1);
      }
    }
  }
}
