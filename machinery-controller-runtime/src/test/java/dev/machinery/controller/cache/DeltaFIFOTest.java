package dev.machinery.controller.cache;

import static dev.machinery.controller.cache.Objects2.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** client-go's delta_fifo_test: change lists per key, relist deletions, resync, sync state. */
class DeltaFIFOTest {
  private final CacheIndexer<Unstructured> known = new CacheIndexer<>(Map.of());
  private final DeltaFIFO<Unstructured> fifo = new DeltaFIFO<>(Keys::metaNamespaceKey, known);

  private List<Delta<Unstructured>> pop() throws InterruptedException {
    List<Delta<Unstructured>> popped = new ArrayList<>();
    assertTrue(fifo.pop((deltas, initial) -> popped.addAll(deltas)));
    return popped;
  }

  private static List<DeltaType> types(List<Delta<Unstructured>> deltas) {
    return deltas.stream().map(Delta::type).toList();
  }

  @Test
  void changesOfOneKeyComeTogetherInTheOrderKeysWereQueued() throws Exception {
    fifo.add(pod("ns", "a", "1"));
    fifo.add(pod("ns", "b", "1"));
    fifo.update(pod("ns", "a", "2"));
    assertEquals(2, fifo.size());
    List<Delta<Unstructured>> a = pop();
    assertEquals(List.of(DeltaType.ADDED, DeltaType.UPDATED), types(a));
    assertEquals("2", a.get(1).object().getResourceVersion());
    assertEquals(List.of(DeltaType.ADDED), types(pop()));
  }

  @Test
  void deletingAnUnknownObjectIsIgnoredAndDoubleDeletionsCollapse() throws Exception {
    fifo.delete(pod("ns", "ghost", "1"));
    assertEquals(0, fifo.size());
    known.add(pod("ns", "a", "1"));
    fifo.delete(pod("ns", "a", "2"));
    fifo.replace(List.of(), "3");
    List<Delta<Unstructured>> deltas = pop();
    assertEquals(List.of(DeltaType.DELETED), types(deltas));
    assertFalse(deltas.get(0).finalStateUnknown(), "the watched deletion knows more");
  }

  @Test
  void replaceQueuesReplacedAndInfersDeletionsOfKnownObjects() throws Exception {
    known.add(pod("ns", "gone", "1"));
    known.add(pod("ns", "kept", "1"));
    fifo.replace(List.of(pod("ns", "kept", "2"), pod("ns", "new", "2")), "2");
    assertFalse(fifo.hasSynced());
    List<Delta<Unstructured>> all = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      all.addAll(pop());
    }
    assertTrue(fifo.hasSynced());
    Delta<Unstructured> deletion =
        all.stream().filter(d -> d.type() == DeltaType.DELETED).findFirst().orElseThrow();
    assertTrue(deletion.finalStateUnknown());
    assertEquals("gone", deletion.object().getName());
    assertEquals("1", deletion.object().getResourceVersion(), "the last known state");
    assertEquals(2, all.stream().filter(d -> d.type() == DeltaType.REPLACED).count());
  }

  @Test
  void hasSyncedWaitsForTheInitialKeysToBeProcessed() throws Exception {
    fifo.replace(List.of(pod("ns", "a", "1")), "1");
    boolean[] initial = new boolean[1];
    boolean[] syncedDuring = new boolean[1];
    fifo.pop(
        (deltas, isInInitialList) -> {
          initial[0] = isInInitialList;
          syncedDuring[0] = fifo.hasSynced();
        });
    assertTrue(initial[0]);
    assertFalse(syncedDuring[0]);
    assertTrue(fifo.hasSynced());
  }

  @Test
  void resyncQueuesKnownObjectsWithoutPendingChanges() throws Exception {
    known.add(pod("ns", "a", "1"));
    known.add(pod("ns", "b", "1"));
    fifo.update(pod("ns", "b", "2"));
    fifo.resync();
    assertEquals(2, fifo.size());
    assertEquals(List.of(DeltaType.UPDATED), types(fifo.deltas("ns/b")));
    assertEquals(List.of(DeltaType.SYNC), types(fifo.deltas("ns/a")));
  }

  @Test
  void closedQueuePopsNothing() throws Exception {
    fifo.close();
    assertFalse(fifo.pop((deltas, initial) -> {}));
  }
}
