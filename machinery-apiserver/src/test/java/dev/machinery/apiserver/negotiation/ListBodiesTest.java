package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListBodiesTest {
  private static final String JSON = "application/json";
  private final ListBodies bodies = new ListBodies();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aBodyIsReusedOnlyForTheSameHeadAndTheVerySameEncodings() {
    byte[] a = bytes("{\"a\":1}");
    byte[] b = bytes("{\"b\":1}");
    byte[] head = bytes("{\"metadata\":{\"resourceVersion\":\"5\"},\"items\":[]}");
    byte[] body = bytes("whole list");
    bodies.keep(JSON, head, List.of(a, b), body);

    assertSame(body, bodies.find(JSON, head.clone(), List.of(a, b)));
    assertNull(bodies.find(JSON, head, List.of(a, b.clone())), "an equal but new encoding");
    assertNull(bodies.find(JSON, head, List.of(a)), "fewer items");
    assertNull(bodies.find(JSON, head, List.of(b, a)), "another order");
    assertNull(
        bodies.find(
            JSON, bytes("{\"metadata\":{\"resourceVersion\":\"6\"},\"items\":[]}"), List.of(a, b)),
        "another revision");
    assertNull(bodies.find("application/yaml", head, List.of(a, b)), "another media type");
  }

  @Test
  void largeBodiesAreNotKeptAndTheOldestGoBeyondTheBudget() {
    byte[] head = bytes("{}");
    byte[] large = new byte[ListBodies.MAX_BODY + 1];
    byte[] item = bytes("x");
    bodies.keep(JSON, head, List.of(item), large);
    assertNull(bodies.find(JSON, head, List.of(item)), "larger than a body may be");

    int count = (int) (ListBodies.MAX_TOTAL / ListBodies.MAX_BODY) + 1;
    byte[][] items = new byte[count][];
    for (int i = 0; i < count; i++) {
      items[i] = bytes("item" + i);
      bodies.keep(JSON, head, List.of(items[i]), new byte[ListBodies.MAX_BODY]);
    }
    assertNull(bodies.find(JSON, head, List.of(items[0])), "the least recently used, dropped");
    assertNotNull(bodies.find(JSON, head, List.of(items[count - 1])), "the most recent, kept");
  }
}
