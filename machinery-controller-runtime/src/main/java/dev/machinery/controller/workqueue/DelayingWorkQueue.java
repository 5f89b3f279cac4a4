package dev.machinery.controller.workqueue;

import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;

/**
 * client-go's delaying queue ({@code workqueue.delayingType}): items added with a delay wait in a
 * heap ordered by when they are ready; a daemon thread moves them into the queue once the {@link
 * Clock} reaches their time. An item waiting twice keeps the earlier time.
 *
 * <p>Thread-safe.
 *
 * @param <T> the item type
 */
public class DelayingWorkQueue<T> extends WorkQueue<T> implements DelayingQueue<T> {
  private final Clock clock;
  private final Condition wake = lock.newCondition();
  private final PriorityQueue<Waiting<T>> heap =
      new PriorityQueue<>(
          (a, b) -> {
            int byTime = a.readyAt.compareTo(b.readyAt);
            return byTime != 0 ? byTime : Long.compare(a.order, b.order);
          });
  private final Map<T, Waiting<T>> known = new HashMap<>();
  private final Thread loop;
  private long order;
  private boolean stopped;
  private boolean wakeRequested;
  private Cancellable pendingWakeUp;

  /**
   * Creates a delaying queue on a clock and starts its waiting thread.
   *
   * @param clock the clock delays are measured on
   * @param name a name for the waiting thread
   */
  public DelayingWorkQueue(Clock clock, String name) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.loop = new Thread(this::waitingLoop, "workqueue-delay-" + name);
    loop.setDaemon(true);
    loop.start();
  }

  @Override
  public void addAfter(T item, Duration delay) {
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(delay, "delay");
    if (isShuttingDown()) {
      return;
    }
    if (delay.isZero() || delay.isNegative()) {
      add(item);
      return;
    }
    Instant readyAt = clock.now().plus(delay);
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      Waiting<T> existing = known.get(item);
      if (existing != null) {
        if (readyAt.isBefore(existing.readyAt)) {
          heap.remove(existing);
          Waiting<T> earlier = new Waiting<>(item, readyAt, existing.order);
          known.put(item, earlier);
          heap.add(earlier);
          signalWakeLocked();
        }
        return;
      }
      Waiting<T> waiting = new Waiting<>(item, readyAt, order++);
      known.put(item, waiting);
      heap.add(waiting);
      signalWakeLocked();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns how many items wait for their delay (not yet in the queue).
   *
   * @return the count
   */
  public int waiting() {
    lock.lock();
    try {
      return heap.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  void onShutDown() {
    lock.lock();
    try {
      stopped = true;
      signalWakeLocked();
    } finally {
      lock.unlock();
    }
  }

  private void waitingLoop() {
    lock.lock();
    try {
      while (!stopped) {
        Instant now = clock.now();
        while (!heap.isEmpty() && !heap.peek().readyAt.isAfter(now)) {
          Waiting<T> ready = heap.poll();
          known.remove(ready.item);
          lock.unlock();
          try {
            add(ready.item);
          } finally {
            lock.lock();
          }
        }
        if (stopped) {
          break;
        }
        if (pendingWakeUp != null) {
          pendingWakeUp.cancel();
          pendingWakeUp = null;
        }
        if (!heap.isEmpty()) {
          pendingWakeUp = clock.scheduleAt(heap.peek().readyAt, this::signalWake);
        }
        while (!wakeRequested) {
          wake.await();
        }
        wakeRequested = false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (pendingWakeUp != null) {
        pendingWakeUp.cancel();
      }
      lock.unlock();
    }
  }

  private void signalWake() {
    lock.lock();
    try {
      signalWakeLocked();
    } finally {
      lock.unlock();
    }
  }

  private void signalWakeLocked() {
    wakeRequested = true;
    wake.signalAll();
  }

  private record Waiting<T>(T item, Instant readyAt, long order) {}
}
