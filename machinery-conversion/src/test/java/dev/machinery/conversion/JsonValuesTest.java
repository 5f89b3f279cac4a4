package dev.machinery.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonValuesTest {
  @Test
  void copiesMapsAndListsAndSharesScalars() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("z", 1);
    inner.put("a", new BigDecimal("1.5"));
    List<Object> list = new ArrayList<>(List.of("x", false));
    list.add(null);
    list.add(inner);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("list", list);
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) JsonValues.deepCopy(root);
    assertEquals(root, copy);
    assertNotSame(root.get("list"), copy.get("list"));
    Object copiedInner = ((List<?>) copy.get("list")).get(3);
    assertNotSame(inner, copiedInner);
    assertEquals(List.of("z", "a"), new ArrayList<>(((Map<?, ?>) copiedInner).keySet()));
    assertSame(inner.get("a"), ((Map<?, ?>) copiedInner).get("a"));
    assertNull(JsonValues.deepCopy(null));
  }

  @Test
  void rejectsWhatIsNotAJsonValueAndSaysWhere() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("spec", List.of(new StringBuilder("x")));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JsonValues.deepCopy(root));
    assertEquals(
        "not a JSON value at [spec][0]: java.lang.StringBuilder; expected a map, list, string,"
            + " number, boolean or null",
        e.getMessage());
    Map<Object, Object> badKey = new LinkedHashMap<>();
    badKey.put(1, "x");
    assertEquals(
        "not a JSON value at the root: a map key is java.lang.Integer, expected a string",
        assertThrows(IllegalArgumentException.class, () -> JsonValues.deepCopy(badKey))
            .getMessage());
  }
}
