package dev.machinery.apiserver.registry.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A definition's time to live: none unless set; whole seconds of at least one, else refused naming
 * the time; kept when a subresource is added; given to a copy by {@link
 * ResourceDefinition#withTimeToLive}.
 */
class ResourceDefinitionTimeToLiveTest {
  private static final GroupKind EVENT = GroupKind.of("", "Event");

  @Test
  void noneUnlessSetAndKeptByACopyWithASubresource() {
    ResourceDefinition plain = ResourceDefinition.builder(EVENT, true).build();
    assertEquals(Optional.empty(), plain.timeToLive());
    ResourceDefinition timed = plain.withTimeToLive(Duration.ofMinutes(5));
    assertEquals(Optional.of(Duration.ofMinutes(5)), timed.timeToLive());
    assertEquals(Optional.empty(), plain.timeToLive(), "the original is unchanged");
    ResourceDefinition built =
        ResourceDefinition.builder(EVENT, true).timeToLive(Duration.ofSeconds(7)).build();
    SubresourceAction action =
        new SubresourceAction(
            GroupVersionKind.of("", "v1", "Event"),
            List.of("get"),
            call -> new SubresourceAction.Response(200, null));
    assertEquals(
        Optional.of(Duration.ofSeconds(7)),
        built.withSubresource("extra", action).timeToLive(),
        "a subresource added keeps the time");
  }

  @Test
  void aTimeUnderASecondOrOfFractionsIsRefusedNamingIt() {
    ResourceDefinition.Builder builder = ResourceDefinition.builder(EVENT, true);
    IllegalArgumentException fraction =
        assertThrows(
            IllegalArgumentException.class, () -> builder.timeToLive(Duration.ofMillis(1500)));
    assertEquals(
        "a time to live is a whole number of seconds, at least one, not PT1.5S",
        fraction.getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> builder.timeToLive(Duration.ZERO))
            .getMessage()
            .endsWith("not PT0S"));
    ResourceDefinition plain = builder.build();
    assertThrows(
        IllegalArgumentException.class, () -> plain.withTimeToLive(Duration.ofSeconds(-1)));
  }
}
