package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersion;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conversion's refusals: nothing is merged or dropped silently. */
class EventConversionTest {
  private static final EventConversion CONVERSION = new EventConversion();

  @Test
  void anEventHoldingBothNamesOfOneFieldIsRefusedNamingThem() {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("apiVersion", "v1");
    event.put("kind", "Event");
    event.put("message", "core");
    event.put("note", "group");
    IllegalArgumentException failure =
        assertThrows(
            IllegalArgumentException.class,
            () -> CONVERSION.convert(event, GroupVersion.of("events.k8s.io", "v1")));
    assertEquals(
        "the Event holds both message and note, which are one field", failure.getMessage());
    assertEquals("core", event.get("message"), "the object is left as it was");
  }

  @Test
  void onlyTheTwoEventVersionsConvert() {
    Map<String, Object> event = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Event"));
    IllegalArgumentException failure =
        assertThrows(
            IllegalArgumentException.class,
            () -> CONVERSION.convert(event, GroupVersion.of("events.k8s.io", "v1beta1")));
    assertTrue(
        failure
            .getMessage()
            .equals(
                "an Event converts between v1 and events.k8s.io/v1, not from v1 to"
                    + " events.k8s.io/v1beta1"),
        failure.getMessage());
  }
}
