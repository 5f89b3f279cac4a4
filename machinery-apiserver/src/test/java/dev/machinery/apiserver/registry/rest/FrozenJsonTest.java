package dev.machinery.apiserver.registry.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Frozen JSON values: equal to what they were made from, and sharing what repeats. */
class FrozenJsonTest {
  private static Map<String, Object> object(String image) {
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "main");
    container.put("image", image);
    container.put("ports", new ArrayList<>(List.of(Map.of("protocol", "TCP"))));
    return container;
  }

  @Test
  void equalShortStringValuesOfTwoObjectsAreOneInstance() {
    // two distinct instances of the same text, as two decodes make them
    String a = new String("registry.example/app:1.2.3".toCharArray());
    String b = new String("registry.example/app:1.2.3".toCharArray());
    assertNotSame(a, b);
    Map<?, ?> first = (Map<?, ?>) FrozenJson.freeze(object(a));
    Map<?, ?> second = (Map<?, ?>) FrozenJson.freeze(object(b));
    assertEquals(object(a), first);
    assertSame(first.get("image"), second.get("image"));
  }

  @Test
  void aLongStringValueIsKeptAsItIs() {
    String text = "x".repeat(FrozenJson.SHARED_STRING_LENGTH + 1);
    String again = new String(text.toCharArray());
    FrozenJson.freeze(text);
    assertSame(again, FrozenJson.freeze(again));
  }

  @Test
  void theTableOfSharedStringsIsBounded() {
    for (int i = 0; i < FrozenJson.SHARED_STRINGS + 1_000; i++) {
      FrozenJson.freeze("value-" + i);
    }
    assertTrue(
        FrozenJson.sharedStrings() <= FrozenJson.SHARED_STRINGS + 1,
        "the table holds " + FrozenJson.sharedStrings());
  }
}
