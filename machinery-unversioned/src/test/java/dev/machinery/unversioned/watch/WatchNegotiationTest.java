package dev.machinery.unversioned.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.unversioned.errors.StatusException;
import org.junit.jupiter.api.Test;

/** What kube-apiserver accepts for a JSON watch, and the 406 it answers otherwise. */
class WatchNegotiationTest {
  @Test
  void jsonWatchersAreServed() {
    for (String accept :
        new String[] {
          null,
          "",
          "application/json",
          "application/json;stream=watch",
          "application/*",
          "*/*",
          "application/vnd.kubernetes.protobuf;stream=watch, application/json;stream=watch;q=0.5"
        }) {
      assertEquals("application/json", WatchNegotiation.negotiate(accept), String.valueOf(accept));
    }
  }

  @Test
  void othersGetNotAcceptable() {
    StatusException refused =
        assertThrows(StatusException.class, () -> WatchNegotiation.negotiate("application/yaml"));
    assertEquals(406, refused.statusCode());
    assertThrows(StatusException.class, () -> WatchNegotiation.negotiate("application/json;q=0"));
  }
}
