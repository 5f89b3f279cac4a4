package dev.machinery.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.resource.QuantityFormatException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Reading, summing and taking the larger of resource lists. */
class ResourceListsTest {
  private static Map<String, Quantity> list(String... pairs) {
    Map<String, Quantity> out = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], Quantity.parse(pairs[i + 1]));
    }
    return out;
  }

  @Test
  void readsAListSortedByNameLeavingOutNulls() {
    Map<String, Object> limits = new LinkedHashMap<>();
    limits.put("memory", "1Gi");
    limits.put("cpu", 2);
    limits.put("pods", null);
    Map<String, Object> tree = Map.of("status", Map.of("hard", limits));
    TreeMap<String, Quantity> read = ResourceLists.of(tree, "status", "hard");
    assertEquals(List.of("cpu", "memory"), List.copyOf(read.keySet()));
    assertEquals(Quantity.parse("2"), read.get("cpu"));
    assertTrue(ResourceLists.of(tree, "status", "used").isEmpty());
    assertTrue(ResourceLists.of(Map.of("status", "x"), "status", "hard").isEmpty());
  }

  @Test
  void aValueThatIsNoQuantityIsRefusedNamingIt() {
    Map<String, Object> tree = Map.of("hard", Map.of("cpu", "two"));
    QuantityFormatException e =
        assertThrows(QuantityFormatException.class, () -> ResourceLists.of(tree, "hard"));
    assertTrue(e.getMessage().contains("two"), e.getMessage());
  }

  @Test
  void addSumsByNameAndMaxKeepsTheLarger() {
    Map<String, Quantity> sum = new HashMap<>(list("cpu", "500m", "memory", "1Gi"));
    ResourceLists.add(sum, list("cpu", "1", "pods", "1"));
    assertEquals(list("cpu", "1500m", "memory", "1Gi", "pods", "1"), new TreeMap<>(sum));
    Map<String, Quantity> max = new HashMap<>(list("cpu", "500m", "memory", "2Gi"));
    ResourceLists.max(max, list("cpu", "1", "memory", "1Gi", "pods", "2"));
    assertEquals(list("cpu", "1", "memory", "2Gi", "pods", "2"), new TreeMap<>(max));
  }
}
