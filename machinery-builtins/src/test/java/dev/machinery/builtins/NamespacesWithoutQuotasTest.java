package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NamespacesWithoutQuotasTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final NamespacesWithoutQuotas namespaces = new NamespacesWithoutQuotas(now::get);

  @Test
  void aLiveListsAnswerIsTrustedForThirtySeconds() {
    assertFalse(namespaces.known("a"));
    namespaces.remember("a", namespaces.writes());
    now.addAndGet(NamespacesWithoutQuotas.TTL.toNanos() - 1);
    assertTrue(namespaces.known("a"));
    now.addAndGet(1);
    assertFalse(namespaces.known("a"), "thirty seconds on");
  }

  @Test
  void aQuotaWrittenInTheNamespaceForgetsIt() {
    namespaces.remember("a", namespaces.writes());
    namespaces.forget("a");
    assertFalse(namespaces.known("a"));
  }

  @Test
  void aListThatRanWhileAQuotaWasWrittenIsNotRemembered() {
    long before = namespaces.writes();
    namespaces.forget("b");
    namespaces.remember("a", before);
    assertFalse(namespaces.known("a"), "a quota written meanwhile may be missing from the list");
  }

  @Test
  void onlyTheMostRecentHundredAreKept() {
    for (int i = 0; i <= NamespacesWithoutQuotas.SIZE; i++) {
      namespaces.remember("ns" + i, namespaces.writes());
    }
    assertFalse(namespaces.known("ns0"), "the eldest");
    assertTrue(namespaces.known("ns1"));
    assertTrue(namespaces.known("ns" + NamespacesWithoutQuotas.SIZE));
  }
}
