package dev.machinery.apiserver.registry.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

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

  /** A random JSON object: nested objects and arrays, strings, numbers, booleans and nulls. */
  private static Map<String, Object> randomObject(Random random, int depth) {
    Map<String, Object> object = new LinkedHashMap<>();
    int size = random.nextInt(depth == 0 ? 3 : 7);
    for (int i = 0; i < size; i++) {
      object.put("k" + random.nextInt(20), randomValue(random, depth));
    }
    return object;
  }

  private static Object randomValue(Random random, int depth) {
    switch (random.nextInt(depth > 3 ? 5 : 7)) {
      case 0:
        return "v" + random.nextInt(50);
      case 1:
        return (long) random.nextInt(1000);
      case 2:
        return random.nextBoolean();
      case 3:
        return null;
      case 4:
        return random.nextDouble();
      case 5:
        return randomObject(random, depth + 1);
      default:
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(randomValue(random, depth + 1));
        }
        return list;
    }
  }

  @Test
  void aFrozenObjectIsTheMapItWasMadeFromInEveryWayAMapIsRead() {
    for (long seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      Map<String, Object> original = randomObject(random, 0);
      @SuppressWarnings("unchecked")
      Map<String, Object> frozen = (Map<String, Object>) FrozenJson.freeze(original);
      String at = "seed " + seed;
      assertEquals(original, frozen, at);
      assertEquals(frozen, original, at);
      assertEquals(original.hashCode(), frozen.hashCode(), at);
      assertEquals(original.toString(), frozen.toString(), at);
      assertEquals(original.size(), frozen.size(), at);
      assertEquals(original.isEmpty(), frozen.isEmpty(), at);
      assertEquals(new ArrayList<>(original.keySet()), new ArrayList<>(frozen.keySet()), at);
      assertEquals(new ArrayList<>(original.values()), new ArrayList<>(frozen.values()), at);
      assertEquals(new ArrayList<>(original.entrySet()), new ArrayList<>(frozen.entrySet()), at);
      assertEquals(original.keySet(), frozen.keySet(), at);
      assertEquals(original.entrySet(), frozen.entrySet(), at);
      for (int k = 0; k < 20; k++) {
        String key = "k" + k;
        assertEquals(original.containsKey(key), frozen.containsKey(key), at + " " + key);
        assertEquals(original.get(key), frozen.get(key), at + " " + key);
        assertEquals(
            original.containsValue(original.get(key)), frozen.containsValue(original.get(key)), at);
      }
      assertFalse(frozen.containsValue("absent"), at);
      if (!original.isEmpty()) {
        Map<String, Object> other = new LinkedHashMap<>(original);
        String first = other.keySet().iterator().next();
        other.put(first, "changed-" + seed);
        assertFalse(frozen.equals(other), at);
        other.remove(first);
        assertFalse(frozen.equals(other), at);
      }
    }
  }

  @Test
  void everyChangeToAFrozenObjectIsRefused() {
    Map<String, Object> original = new LinkedHashMap<>();
    original.put("a", "1");
    original.put("b", null);
    @SuppressWarnings("unchecked")
    Map<String, Object> frozen = (Map<String, Object>) FrozenJson.freeze(original);
    List<Executable> changes =
        List.of(
            () -> frozen.put("c", "3"),
            () -> frozen.remove("a"),
            () -> frozen.putAll(Map.of("c", "3")),
            frozen::clear,
            () -> frozen.putIfAbsent("c", "3"),
            () -> frozen.merge("a", "x", (x, y) -> y),
            () -> frozen.compute("a", (k, v) -> "x"),
            () -> frozen.replaceAll((k, v) -> "x"),
            () -> frozen.keySet().remove("a"),
            () -> frozen.values().clear(),
            () -> frozen.entrySet().clear(),
            () -> frozen.entrySet().iterator().next().setValue("x"),
            () -> {
              var keys = frozen.keySet().iterator();
              keys.next();
              keys.remove();
            });
    for (Executable change : changes) {
      assertThrows(UnsupportedOperationException.class, change);
    }
    assertEquals(original, frozen);
  }
}
