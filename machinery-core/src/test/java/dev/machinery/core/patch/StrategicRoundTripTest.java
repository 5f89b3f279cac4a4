package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The property Kubernetes' patches must have: for seeded pairs of objects of the test type,
 * applying the strategic patch made from the pair to the first gives the second (a two-way patch,
 * and a three-way patch whose live object is the first).
 */
class StrategicRoundTripTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Test
  void createThenApplyGivesTheModifiedObject() {
    Random random = new Random(1123);
    List<String> failures = new ArrayList<>();
    for (int seed = 0; seed < 1_000; seed++) {
      ObjectNode original = item(random, 0);
      ObjectNode modified = mutate(original, random, 0);
      JsonNode patch = StrategicMergePatch.createTwoWay(original, modified, MergeItem.class);
      JsonNode applied = StrategicMergePatch.apply(original, patch, MergeItem.class);
      if (!applied.equals(modified)) {
        failures.add(original + " → " + modified + "\n   by " + patch + "\n  gave " + applied);
      }
      if (failures.size() > 5) {
        break;
      }
    }
    assertEquals(List.of(), failures);
  }

  @Test
  void threeWayPatchOnAnUnchangedLiveObjectGivesTheModifiedObject() {
    Random random = new Random(2231);
    List<String> failures = new ArrayList<>();
    for (int seed = 0; seed < 1_000 && failures.size() <= 5; seed++) {
      ObjectNode original = item(random, 0);
      ObjectNode modified = mutate(original, random, 0);
      JsonNode patch =
          StrategicMergePatch.createThreeWay(original, modified, original, MergeItem.class);
      JsonNode applied = StrategicMergePatch.apply(original, patch, MergeItem.class);
      if (!applied.equals(modified)) {
        failures.add(original + " → " + modified + "\n   by " + patch + "\n  gave " + applied);
      }
    }
    assertEquals(List.of(), failures);
  }

  private static ObjectNode item(Random random, int depth) {
    ObjectNode item = NODES.objectNode();
    item.put("name", "n" + random.nextInt(5));
    if (random.nextBoolean()) {
      item.put("value", "v" + random.nextInt(4));
    }
    if (random.nextInt(3) == 0) {
      item.put("other", "o" + random.nextInt(4));
    }
    if (depth < 2 && random.nextBoolean()) {
      item.set("mergingList", list(random, depth + 1));
    }
    if (depth < 2 && random.nextInt(3) == 0) {
      item.set("nonMergingList", list(random, depth + 1));
    }
    if (random.nextInt(3) == 0) {
      item.set("mergingIntList", ints(random));
    }
    if (random.nextInt(4) == 0) {
      ObjectNode map = item.putObject("simpleMap");
      for (int i = random.nextInt(3); i > 0; i--) {
        map.put("k" + random.nextInt(4), "x" + random.nextInt(3));
      }
    }
    return item;
  }

  /** A list of items with distinct names, as a merge key requires. */
  private static ArrayNode list(Random random, int depth) {
    ArrayNode list = NODES.arrayNode();
    List<String> names = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      ObjectNode item = item(random, depth);
      String name = item.get("name").asText();
      if (!names.contains(name)) {
        names.add(name);
        list.add(item);
      }
    }
    return list;
  }

  private static ArrayNode ints(Random random) {
    ArrayNode list = NODES.arrayNode();
    for (int i = random.nextInt(4); i > 0; i--) {
      int value = random.nextInt(6);
      boolean present = false;
      for (JsonNode existing : list) {
        present |= existing.asInt() == value;
      }
      if (!present) {
        list.add(value);
      }
    }
    return list;
  }

  private static ObjectNode mutate(ObjectNode original, Random random, int depth) {
    ObjectNode copy = original.deepCopy();
    switch (random.nextInt(6)) {
      case 0 -> copy.remove("value");
      case 1 -> copy.put("value", "changed" + random.nextInt(3));
      case 2 -> copy.set("mergingIntList", ints(random));
      case 3 -> copy.set("nonMergingList", list(random, depth + 1));
      default -> {
        JsonNode list = copy.get("mergingList");
        if (list != null && depth < 2) {
          ArrayNode changed = NODES.arrayNode();
          for (JsonNode item : list) {
            int choice = random.nextInt(3);
            if (choice == 0) {
              continue; // removed
            }
            changed.add(
                choice == 1 ? item.deepCopy() : mutate((ObjectNode) item, random, depth + 1));
          }
          if (random.nextBoolean()) {
            ObjectNode added = item(random, depth + 1);
            added.put("name", "new" + random.nextInt(100));
            changed.add(added);
          }
          copy.set("mergingList", changed);
        } else {
          copy.set("mergingList", list(random, depth + 1));
        }
      }
    }
    return copy;
  }
}
