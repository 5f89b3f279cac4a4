package dev.machinery.controller.cache;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * client-go's {@code cache.DeltaFIFO}: a queue of object keys, each with the list of its changes
 * since it was last popped. A {@link Reflector} writes to it as a {@link Store}; an informer pops
 * whole change lists, one key at a time, in the order keys were first queued.
 *
 * <p>With {@code knownObjects} (the informer's cache) a {@link #replace} also queues a deletion,
 * with {@link Delta#finalStateUnknown()} true, for every known object the new list no longer holds,
 * and {@link #resync} queues a {@link DeltaType#SYNC} for every known object without pending
 * changes.
 *
 * <p>Thread-safe.
 *
 * @param <T> the object type
 */
public final class DeltaFIFO<T> implements Store<T> {
  private final Function<Object, String> keyFunc;
  private final Store<T> knownObjects;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Condition synced = lock.newCondition();
  private final Map<String, List<Delta<T>>> items = new HashMap<>();
  private final ArrayDeque<String> queue = new ArrayDeque<>();
  private boolean populated;
  private int initialPopulationCount;
  private boolean closed;

  /**
   * Creates a queue.
   *
   * @param keyFunc the key function, usually {@link Keys#metaNamespaceKey}
   * @param knownObjects the objects already known (the informer's cache), or null
   */
  public DeltaFIFO(Function<Object, String> keyFunc, Store<T> knownObjects) {
    this.keyFunc = keyFunc;
    this.knownObjects = knownObjects;
  }

  /**
   * Receives the changes of one key, popped from the queue. Called on the popping thread; needs no
   * thread safety of its own when one thread pops.
   *
   * @param <T> the object type
   */
  @FunctionalInterface
  public interface PopProcessor<T> {
    /**
     * Processes the changes.
     *
     * @param deltas the changes, oldest first
     * @param isInInitialList whether they belong to the first list's content
     */
    void process(List<Delta<T>> deltas, boolean isInInitialList);
  }

  @Override
  public void add(T object) {
    queueAction(DeltaType.ADDED, object, false, true);
  }

  @Override
  public void update(T object) {
    queueAction(DeltaType.UPDATED, object, false, true);
  }

  @Override
  public void delete(T object) {
    String key = keyFunc.apply(object);
    lock.lock();
    try {
      populated = true;
      if (knownObjects != null) {
        if (knownObjects.getByKey(key).isEmpty() && !items.containsKey(key)) {
          return;
        }
      } else if (!items.containsKey(key)) {
        return;
      }
      queueActionLocked(key, new Delta<>(DeltaType.DELETED, object, false));
    } finally {
      lock.unlock();
    }
  }

  private void queueAction(DeltaType type, T object, boolean unknown, boolean populate) {
    String key = keyFunc.apply(object);
    lock.lock();
    try {
      if (populate && !populated) {
        populated = true;
        synced.signalAll();
      }
      queueActionLocked(key, new Delta<>(type, object, unknown));
    } finally {
      lock.unlock();
    }
  }

  private void queueActionLocked(String key, Delta<T> delta) {
    List<Delta<T>> deltas = items.get(key);
    boolean fresh = deltas == null;
    if (fresh) {
      deltas = new ArrayList<>();
      items.put(key, deltas);
      queue.addLast(key);
    }
    deltas.add(delta);
    dedupDeletions(deltas);
    changed.signalAll();
  }

  private static <T> void dedupDeletions(List<Delta<T>> deltas) {
    int n = deltas.size();
    if (n < 2) {
      return;
    }
    Delta<T> last = deltas.get(n - 1);
    Delta<T> previous = deltas.get(n - 2);
    if (last.type() == DeltaType.DELETED && previous.type() == DeltaType.DELETED) {
      // keep the deletion that knows more: a known final state beats an inferred one
      Delta<T> kept = last.finalStateUnknown() ? previous : last;
      deltas.remove(n - 1);
      deltas.set(n - 2, kept);
    }
  }

  @Override
  public List<T> list() {
    lock.lock();
    try {
      List<T> result = new ArrayList<>(items.size());
      for (List<Delta<T>> deltas : items.values()) {
        result.add(deltas.get(deltas.size() - 1).object());
      }
      return result;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<String> listKeys() {
    lock.lock();
    try {
      return new ArrayList<>(items.keySet());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> getByKey(String key) {
    lock.lock();
    try {
      List<Delta<T>> deltas = items.get(key);
      return deltas == null
          ? Optional.empty()
          : Optional.of(deltas.get(deltas.size() - 1).object());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns a copy of the pending changes of a key.
   *
   * @param key the key
   * @return the changes, oldest first; empty when none
   */
  public List<Delta<T>> deltas(String key) {
    lock.lock();
    try {
      List<Delta<T>> deltas = items.get(key);
      return deltas == null ? List.of() : List.copyOf(deltas);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void replace(Collection<T> objects, String resourceVersion) {
    lock.lock();
    try {
      Set<String> keys = new HashSet<>();
      for (T object : objects) {
        String key = keyFunc.apply(object);
        keys.add(key);
        queueActionLocked(key, new Delta<>(DeltaType.REPLACED, object, false));
      }
      int queuedDeletions = 0;
      if (knownObjects != null) {
        for (String known : knownObjects.listKeys()) {
          if (keys.contains(known)) {
            continue;
          }
          Optional<T> last = knownObjects.getByKey(known);
          if (last.isEmpty()) {
            continue;
          }
          queuedDeletions++;
          queueActionLocked(known, new Delta<>(DeltaType.DELETED, last.get(), true));
        }
      } else {
        for (String pending : new ArrayList<>(items.keySet())) {
          if (keys.contains(pending)) {
            continue;
          }
          List<Delta<T>> deltas = items.get(pending);
          Delta<T> newest = deltas.get(deltas.size() - 1);
          if (newest.type() == DeltaType.DELETED) {
            continue;
          }
          queuedDeletions++;
          queueActionLocked(pending, new Delta<>(DeltaType.DELETED, newest.object(), true));
        }
      }
      if (!populated) {
        populated = true;
        initialPopulationCount = keys.size() + queuedDeletions;
        synced.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void resync() {
    if (knownObjects == null) {
      return;
    }
    lock.lock();
    try {
      for (String key : knownObjects.listKeys()) {
        if (items.containsKey(key)) {
          continue;
        }
        Optional<T> object = knownObjects.getByKey(key);
        object.ifPresent(o -> queueActionLocked(key, new Delta<>(DeltaType.SYNC, o, false)));
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Blocks until a key is queued, takes it with its changes and hands them to the processor, on the
   * calling thread. One thread pops: the count of the first list's keys still to process drops only
   * once the processor returns, so {@link #hasSynced} turns true after the last of them is
   * processed.
   *
   * @param processor the processor
   * @return false once the queue is closed
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean pop(PopProcessor<T> processor) throws InterruptedException {
    List<Delta<T>> deltas;
    boolean inInitialList;
    lock.lock();
    try {
      while (queue.isEmpty() && !closed) {
        changed.await();
      }
      if (closed) {
        return false;
      }
      String key = queue.removeFirst();
      inInitialList = initialPopulationCount > 0;
      deltas = items.remove(key);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      processor.process(List.copyOf(deltas), inInitialList);
    } finally {
      if (inInitialList) {
        lock.lock();
        try {
          initialPopulationCount--;
          if (initialPopulationCount == 0) {
            synced.signalAll();
          }
        } finally {
          lock.unlock();
        }
      }
    }
    return true;
  }

  /**
   * Tells whether the first {@link #replace} (or any change) arrived and all it queued has been
   * popped.
   *
   * @return true once synced
   */
  public boolean hasSynced() {
    lock.lock();
    try {
      return populated && initialPopulationCount == 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until {@link #hasSynced} is true, the queue is closed, or the time is up; wakes as soon
   * as the last of the first list's keys has been processed.
   *
   * @param timeout the most to wait
   * @return whether it has synced
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean awaitSynced(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (!(populated && initialPopulationCount == 0) && !closed && left > 0) {
        left = synced.awaitNanos(left);
      }
      return populated && initialPopulationCount == 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns how many keys are queued.
   *
   * @return the count
   */
  public int size() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Closes the queue: {@link #pop} returns false from now on. */
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
      synced.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
