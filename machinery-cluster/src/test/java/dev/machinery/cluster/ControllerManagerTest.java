package dev.machinery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerManagerTest {
  private static final ClientFactory NO_CLIENTS =
      (user, groups) -> {
        throw new AssertionError("no client is made before start");
      };

  private static ControllerDescriptor descriptor(
      String name, boolean byDefault, String... aliases) {
    return new ControllerDescriptor(name, List.of(aliases), byDefault, context -> {});
  }

  private static List<String> chosen(String... flags) {
    return ControllerManager.builder(NO_CLIENTS)
        .add(descriptor("alpha-controller", true, "alpha"))
        .add(descriptor("beta-controller", false, "beta"))
        .add(descriptor("gamma-controller", true))
        .controllers(List.of(flags))
        .build()
        .enabledControllers()
        .stream()
        .filter(n -> n.matches("(alpha|beta|gamma)-controller"))
        .toList();
  }

  @Test
  void controllersFlagFollowsKubeControllerManager() {
    assertEquals(List.of("alpha-controller", "gamma-controller"), chosen("*"));
    assertEquals(
        List.of("alpha-controller", "beta-controller", "gamma-controller"), chosen("*", "beta"));
    assertEquals(List.of("gamma-controller"), chosen("*", "-alpha"));
    assertEquals(List.of("beta-controller"), chosen("beta-controller"));
    assertEquals(List.of(), chosen("-alpha"));
    assertEquals(List.of("gamma-controller"), chosen("*", "alpha", "-alpha-controller"));
  }

  @Test
  void unknownControllerIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> chosen("*", "-nope"));
    assertTrue(
        e.getMessage().startsWith("\"nope\" is not in the list of known controllers: "),
        e.getMessage());
  }

  @Test
  void simulatedNodeDefaults() {
    List<SimulatedNode> nodes = SimulatedNode.defaults(3);
    assertEquals("node-3", nodes.get(2).name());
    assertEquals("10.244.3.0/24", nodes.get(2).podCidr());
    assertEquals("110", nodes.get(0).capacity().get("pods"));
    assertThrows(IllegalArgumentException.class, () -> SimulatedNode.defaults(256));
  }
}
