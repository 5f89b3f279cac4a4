package dev.machinery.apiserver.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.authentication.UserInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The union of sinks, as Kubernetes' union backend. */
class AuditSinkTest {
  private static final AuditEvent EVENT =
      new AuditEvent(
          Level.METADATA,
          "id",
          Stage.REQUEST_RECEIVED,
          "/version",
          "get",
          UserInfo.of("u", List.of()),
          null,
          List.of(),
          "",
          null,
          null,
          null,
          null,
          Instant.EPOCH,
          Instant.EPOCH,
          Map.of());

  @Test
  void everySinkGetsTheEventEvenAfterOneFails() {
    List<String> seen = new ArrayList<>();
    AuditSink union =
        AuditSink.union(
            List.of(
                e -> seen.add("a " + e.auditId()),
                e -> {
                  throw new IllegalStateException("b is down");
                },
                e -> seen.add("c " + e.auditId()),
                e -> {
                  throw new IllegalStateException("d is down");
                }));
    IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> union.process(EVENT));
    assertEquals("b is down", thrown.getMessage());
    assertEquals("d is down", thrown.getSuppressed()[0].getMessage());
    assertEquals(List.of("a id", "c id"), seen);
  }

  @Test
  void unionOfOneIsThatSink() {
    AuditSink only = e -> {};
    assertSame(only, AuditSink.union(List.of(only)));
  }
}
