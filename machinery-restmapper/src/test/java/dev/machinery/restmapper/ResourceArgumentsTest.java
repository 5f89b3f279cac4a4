package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ResourceArgumentsTest {
  private static final DiscoveryRESTMapper MAPPER = RealDiscovery.legacyMapper();

  @Test
  void rejectsMalformedArguments() {
    ResourceArgumentException empty =
        assertThrows(
            ResourceArgumentException.class, () -> ResourceArguments.resolve(MAPPER, "deploy/"));
    assertEquals(
        "resource argument \"deploy/\" has an empty part; expected TYPE, TYPE/NAME, GROUP/TYPE or"
            + " GROUP/TYPE/NAME, where TYPE is resource, resource.group or resource.version.group",
        empty.getMessage());
    assertEquals("deploy/", empty.argument());
    assertThrows(
        ResourceArgumentException.class, () -> ResourceArguments.resolve(MAPPER, "a/b/c/d"));
  }

  @Test
  void aTwoPartArgumentIsTypeAndNameFirst() {
    assertEquals(
        "pods", ResourceArguments.resolve(MAPPER, "pods/apps").mapping().resource().resource());
    assertEquals("apps", ResourceArguments.resolve(MAPPER, "pods/apps").name().orElseThrow());
    assertThrows(
        NoResourceMatchException.class, () -> ResourceArguments.resolve(MAPPER, "nothing/here"));
  }
}
