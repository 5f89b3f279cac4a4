package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The factory's table of names is the one its parsers of bytes and of byte streams read through,
 * and it never keeps many more than {@link NameBoundedJsonFactory#MAX_NAMES} names, however many
 * names of their own the documents read bring.
 */
class NameBoundedJsonFactoryTest {
  private static byte[] document(int i) {
    return ("{\"metadata\":{\"labels\":{\"app\":\"web\",\"own-" + i + "\":\"x\"}}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsOfBytesAndOfStreamsShareOneBoundedTable() throws Exception {
    NameBoundedJsonFactory factory = new NameBoundedJsonFactory(new JsonFactoryBuilder());
    JsonMapper mapper = JsonMapper.builder(factory).build();
    int most = 0;
    for (int i = 0; i < 6_000; i++) {
      Map<?, ?> read =
          i % 2 == 0
              ? mapper.readValue(document(i), Map.class)
              : mapper.readValue(new ByteArrayInputStream(document(i)), Map.class);
      assertEquals(
          Map.of("labels", Map.of("app", "web", "own-" + i, "x")),
          read.get("metadata"),
          "read " + i);
      most = Math.max(most, factory.namesKept());
      // A read adds its new names to the table it began with: one here.
      assertTrue(
          factory.namesKept() <= NameBoundedJsonFactory.MAX_NAMES + 1,
          "the table holds " + factory.namesKept() + " names after read " + i);
    }
    assertTrue(most > NameBoundedJsonFactory.MAX_NAMES / 2, "the reads filled the table: " + most);
  }

  @Test
  void aStreamIsReadThroughTheFactorysTable() throws Exception {
    NameBoundedJsonFactory factory = new NameBoundedJsonFactory(new JsonFactoryBuilder());
    JsonMapper mapper = JsonMapper.builder(factory).build();
    mapper.readValue(new ByteArrayInputStream(document(1)), Map.class);
    // metadata, labels, app, own-1
    assertEquals(4, factory.namesKept());
  }
}
