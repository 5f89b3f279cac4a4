package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FuzzerTest {
  public enum Colour {
    RED,
    GREEN
  }

  public record Leaf(String name, int size, Colour colour, Instant when, List<String> tags) {}

  /** A recursive type: the depth bound must end it. */
  public record Tree(String label, List<Tree> children, Tree parent) {}

  /** A class the fuzzer cannot build. */
  public static final class NoConstructor {
    public NoConstructor(int x) {}
  }

  @Test
  void theSameSeedGivesTheSameObject() {
    Fuzzer fuzzer = Fuzzer.defaults();
    assertEquals(fuzzer.fuzz(Leaf.class, 7), fuzzer.fuzz(Leaf.class, 7));
    assertEquals(fuzzer.fuzz(Leaf.class, new Random(7)), fuzzer.fuzz(Leaf.class, new Random(7)));
    assertNotEquals(fuzzer.fuzz(Leaf.class, 7), fuzzer.fuzz(Leaf.class, 8));
  }

  @Test
  void respectsItsBounds() {
    Fuzzer fuzzer = Fuzzer.builder().maxStringLength(3).maxCollectionSize(2).nullChance(0).build();
    for (long seed = 0; seed < 200; seed++) {
      Leaf leaf = fuzzer.fuzz(Leaf.class, seed);
      assertTrue(leaf.name().codePointCount(0, leaf.name().length()) <= 3, leaf.name());
      assertTrue(leaf.tags().size() <= 2);
      assertEquals(0, leaf.when().getNano(), "times are whole seconds");
    }
    Fuzzer allNull = Fuzzer.builder().nullChance(1).build();
    Leaf empty = allNull.fuzz(Leaf.class, 1);
    assertNull(empty.name());
    assertNull(empty.tags());
  }

  @Test
  void endsRecursiveTypesAtTheDepthBound() {
    Fuzzer fuzzer = Fuzzer.builder().nullChance(0).maxDepth(4).build();
    Tree tree = fuzzer.fuzz(Tree.class, 3);
    int depth = 0;
    for (Tree node = tree; node != null; node = node.parent()) {
      depth++;
    }
    assertTrue(depth <= 6, "depth " + depth);
  }

  @Test
  void customFunctionsReplaceTheRules() {
    Fuzzer fuzzer =
        Fuzzer.builder()
            .forType(Colour.class, context -> Colour.GREEN)
            .forProperty(Leaf.class, "name", context -> "fixed-" + context.random().nextInt(3))
            .build();
    for (long seed = 0; seed < 50; seed++) {
      Leaf leaf = fuzzer.fuzz(Leaf.class, seed);
      assertTrue(leaf.colour() == null || leaf.colour() == Colour.GREEN);
      assertTrue(leaf.name().startsWith("fixed-"));
    }
  }

  @Test
  void coversNonAsciiAndTheWholeNumberRange() {
    Fuzzer fuzzer = Fuzzer.builder().nullChance(0).maxStringLength(40).build();
    boolean nonAscii = false;
    boolean negative = false;
    boolean large = false;
    for (long seed = 0; seed < 200; seed++) {
      Leaf leaf = fuzzer.fuzz(Leaf.class, seed);
      nonAscii |= leaf.name().chars().anyMatch(c -> c > 0x7f);
      negative |= leaf.size() < 0;
      large |= Math.abs((long) leaf.size()) > 1_000_000;
    }
    assertTrue(nonAscii && negative && large);
    Map<?, ?> untyped = (Map<?, ?>) Fuzzer.defaults().fuzz(Map.class, 1);
    assertTrue(untyped.size() <= 3);
  }

  /**
   * An untyped double is one JSON keeps a double: with a fraction, or 1e21 or more (a whole one is
   * written as an integer, as Go writes a float64, and reads back as one); and one shrinks to 0.5,
   * not to 0.0, which would read back as the integer 0 and fail a round trip for another reason.
   */
  @Test
  void untypedDoublesAreOnesJsonKeepsDoubles() {
    Fuzzer fuzzer = Fuzzer.builder().nullChance(0).maxCollectionSize(6).build();
    List<Double> doubles = new java.util.ArrayList<>();
    for (long seed = 0; seed < 500; seed++) {
      collectDoubles(fuzzer.fuzz(Map.class, seed), doubles);
    }
    assertTrue(doubles.size() > 100, doubles.size() + " doubles");
    for (double value : doubles) {
      assertTrue(value != Math.rint(value) || Math.abs(value) >= 1e21, Double.toString(value));
    }
    Map<String, Object> holder = new java.util.LinkedHashMap<>();
    holder.put("x", 3.25);
    assertTrue(
        Shrinker.candidates(holder, Map.class, fuzzer).contains(Map.of("x", 0.5)),
        Shrinker.candidates(holder, Map.class, fuzzer).toString());
  }

  private static void collectDoubles(Object value, List<Double> into) {
    if (value instanceof Double d) {
      into.add(d);
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> collectDoubles(v, into));
    } else if (value instanceof List<?> list) {
      list.forEach(v -> collectDoubles(v, into));
    }
  }

  @Test
  void aClassItCannotBuildIsAClearError() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> Fuzzer.defaults().fuzz(NoConstructor.class, 1));
    assertEquals(
        "cannot fuzz dev.machinery.testing.FuzzerTest$NoConstructor: not a value, collection,"
            + " record or bean with a public no-argument constructor; register a FuzzFunction for"
            + " it",
        error.getMessage());
  }
}
